import type { Operation } from '../../ir/model.js';

/** Words of an identifier, lower case: `listWebhookDeliveries` → list, webhook, deliveries. */
export function identifierWords(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word.length > 0)
    .map((word) => word.toLowerCase());
}

export function kebabCase(text: string): string {
  return identifierWords(text).join('-');
}

// Reserved words are valid method names (`streams.delete`), so no guard against them is needed here.
function camelJoin(words: readonly string[]): string {
  const joined = words.map((word, index) =>
    index === 0 ? word : word.charAt(0).toUpperCase() + word.slice(1),
  );
  return /^[0-9]/.test(joined.join('')) ? `_${joined.join('')}` : joined.join('');
}

function singular(word: string): string {
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  return word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word;
}

/** The words without the noun run and the qualifiers between the verb and it: `create special event` → `create`. */
function withoutNoun(words: string[], noun: string[]): string[] | null {
  for (let start = 0; start + noun.length <= words.length; start += 1) {
    if (noun.every((word, offset) => words[start + offset] === word)) {
      const rest = [...words.slice(0, Math.min(start, 1)), ...words.slice(start + noun.length)];
      return rest.length > 0 ? rest : null;
    }
  }
  return null;
}

/**
 * The method name of an operation inside its group: the group's noun (plural or singular), with any qualifier between
 * the leading verb and it, is taken out of the operationId, and a leading `get` reads `retrieve`. So `createStream` is
 * `streams.create`, `getStream` is `streams.retrieve`, `listWebhookDeliveries` is `webhooks.listDeliveries` and
 * `createSpecialEvent` is `events.create`. An operationId without the noun keeps its words.
 */
export function methodName(operation: Operation): string {
  const words = identifierWords(operation.id);
  const groupWords = identifierWords(operation.group);
  const singularWords = [...groupWords.slice(0, -1), singular(groupWords.at(-1) ?? '')];
  const stripped = withoutNoun(words, groupWords) ?? withoutNoun(words, singularWords) ?? words;
  const named = stripped[0] === 'get' ? ['retrieve', ...stripped.slice(1)] : stripped;
  return camelJoin(named);
}

/**
 * Method names for one group's operations (and the `All` iterators of its list operations). Names that would clash
 * fall back to the operationId, which the spec keeps unique.
 */
export function methodNames(operations: readonly Operation[], isList: (operation: Operation) => boolean) {
  const proposed = operations.map((operation) => methodName(operation));
  const taken = new Map<string, number>();
  operations.forEach((operation, index) => {
    for (const name of [proposed[index] ?? '', ...(isList(operation) ? [`${proposed[index]}All`] : [])]) {
      taken.set(name, (taken.get(name) ?? 0) + 1);
    }
  });
  return new Map(
    operations.map((operation, index) => {
      const name = proposed[index] ?? '';
      const clash = (taken.get(name) ?? 0) > 1 || (isList(operation) && (taken.get(`${name}All`) ?? 0) > 1);
      return [operation.id, clash ? operation.id : name];
    }),
  );
}
