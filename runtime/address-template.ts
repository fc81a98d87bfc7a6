/**
 * AsyncAPI channel addresses (`devices/{streamId}`) compiled into a builder and a parser. How a parameter value is
 * made safe depends on where the address is used: a topic (MQTT, Kafka...) cannot escape its level separator or
 * wildcards, so such values are refused; a URL path percent-encodes them.
 */
export type AddressStyle = 'topic' | 'path';

export interface AddressTemplate<Parameters> {
  readonly template: string;
  readonly style: AddressStyle;
  readonly parameterNames: readonly string[];
  build(parameters: Parameters): string;
  /** The parameters an address was built from, or null when it does not fit the template. */
  parse(address: string): Parameters | null;
}

/** A parameter value the address cannot carry. */
export class AddressParameterError extends Error {
  constructor(
    readonly parameter: string,
    readonly value: string,
    reason: string,
  ) {
    super(`address parameter ${parameter} = ${JSON.stringify(value)}: ${reason}`);
    this.name = 'AddressParameterError';
  }
}

const parameterPattern = /\{([^{}]+)\}/g;
// Topic level separator and the MQTT wildcards: a value holding one would publish to, or match, other topics.
const topicReserved = /[/+#]/;
// A parameter that is the whole address (`{webhookUrl}`) is an address itself and passes through.
const wholeAddressPattern = /^\{[^{}]+\}$/;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function compileAddressTemplate<Parameters extends Readonly<Record<string, string>>>(
  template: string,
  style: AddressStyle,
): AddressTemplate<Parameters> {
  const literals = template.split(parameterPattern).filter((_part, index) => index % 2 === 0);
  const parameterNames = [...template.matchAll(parameterPattern)].map((match) => match[1] ?? '');
  if (literals.some((literal) => /[{}]/.test(literal)))
    throw new Error(`malformed address template ${template}`);
  if (new Set(parameterNames).size !== parameterNames.length) {
    throw new Error(`address template ${template} repeats a parameter`);
  }
  const isWhole = wholeAddressPattern.test(template);
  const valuePattern = isWhole ? '(.+)' : style === 'topic' ? '([^/+#]+)' : '([^/?#]+)';
  const matcher = new RegExp(`^${literals.map(escapeRegExp).join(valuePattern)}$`);

  const encode = (name: string, value: string): string => {
    if (value.length === 0) throw new AddressParameterError(name, value, 'must not be empty');
    if (style === 'topic' && (isWhole ? /[+#]/ : topicReserved).test(value)) {
      throw new AddressParameterError(name, value, 'a topic cannot carry "/", "+" or "#" in a parameter');
    }
    return style === 'path' && !isWhole ? encodeURIComponent(value) : value;
  };
  const decode = (value: string): string | null => {
    if (style === 'topic' || isWhole) return value;
    try {
      return decodeURIComponent(value);
    } catch {
      return null;
    }
  };

  return {
    template,
    style,
    parameterNames,
    build: (parameters) =>
      template.replace(parameterPattern, (_match, name: string) => encode(name, parameters[name] ?? '')),
    parse(address) {
      const match = matcher.exec(address);
      if (match === null) return null;
      const values = match.slice(1).map(decode);
      if (values.some((value) => value === null)) return null;
      // The entries are exactly the template's parameters, which the generated Parameters type lists.
      return Object.fromEntries(parameterNames.map((name, index) => [name, values[index]])) as Parameters;
    },
  };
}
