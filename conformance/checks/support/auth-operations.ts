// The REST operations as the generated route table lists them, turned into requests that are cheap to send with any
// credential: made-up ids in the path (authentication and authorization come before the 404) and `{}` as a JSON body.
import { randomBytes } from 'node:crypto';
import { routes } from '../../../generated/server/routes.js';
import { schemaPatterns, securitySchemeFacts } from '../../../generated/types/facts.js';
import type { Exchange, SendOptions } from '../../harness/probe.js';
import { send } from '../../harness/probe.js';

export type Route = (typeof routes)[keyof typeof routes];

/** The security scheme API keys satisfy (the one with key types) and the one access tokens satisfy. */
export const apiKeyScheme = schemeWith('keyTypes');
export const oauthScheme = schemeWith('tokenLifetimes');

function schemeWith(fact: string): string {
  const name = Object.entries(securitySchemeFacts).find(([, facts]) => fact in facts)?.[0];
  if (name === undefined) throw new Error(`no security scheme carries ${fact}`);
  return name;
}

/** Every operation of `{base_url}` that needs credentials, in a stable order. */
export const credentialedOperations: readonly Route[] = Object.values(routes)
  .filter((route) => route.serverUrl === null && route.security.length > 0)
  .sort((left, right) => left.operationId.localeCompare(right.operationId));

/** The scopes an operation asks of a scheme, or null when the scheme is not one of its alternatives. */
export function scopesOf(route: Route, scheme: string): readonly string[] | null {
  for (const requirement of route.security)
    for (const entry of requirement.schemes) if (entry.name === scheme) return entry.scopes;
  return null;
}

/** Whether every scope an operation asks of a scheme is among `held`. */
export function allows(route: Route, scheme: string, held: readonly string[]): boolean {
  const wanted = scopesOf(route, scheme);
  if (wanted === null) return false;
  return wanted.every((scope) => held.includes(scope));
}

const alphanumerics = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * A fresh value of a pattern of the form `^<literal>[A-Za-z0-9]{n}$` or `{m,n}` (ids, keys): the literal, then
 * random alphanumerics. Random so a made-up value never names a real object or key.
 */
export function valueMatching(pattern: string, preferredLength = 24): string {
  const match = /^\^([^[\\]*)\[[^\]]+\]\{(\d+)(?:,(\d*))?\}\$$/.exec(pattern);
  if (match === null) throw new Error(`cannot make a value of the pattern ${pattern}`);
  const minimum = Number(match[2]);
  const maximum =
    match[3] === undefined ? minimum : match[3] === '' ? Number.POSITIVE_INFINITY : Number(match[3]);
  const length = Math.min(Math.max(preferredLength, minimum), maximum);
  const body = [...randomBytes(length)].map((byte) => alphanumerics[byte % alphanumerics.length]).join('');
  const value = `${match[1] ?? ''}${body}`;
  if (!new RegExp(pattern).test(value)) throw new Error(`made ${value}, which does not match ${pattern}`);
  return value;
}

/** The path of an operation with a made-up, well-formed id for each path parameter (`:streamId` → `stm_…`). */
export function madeUpPath(route: Route): string {
  return route.url.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const schemaName = `${name.charAt(0).toUpperCase()}${name.slice(1)}`;
    const pattern = (schemaPatterns as Record<string, string>)[schemaName];
    if (pattern === undefined) throw new Error(`no id pattern for the path parameter ${name}`);
    return valueMatching(pattern);
  });
}

/** One request per operation, each with the given credential options; answered concurrently, in route order. */
export async function probeOperations(
  operations: readonly Route[],
  options: Pick<SendOptions, 'key' | 'headers'>,
): Promise<Array<{ route: Route; exchange: Exchange }>> {
  return Promise.all(
    operations.map(async (route) => {
      const exchange = await send(route.method, madeUpPath(route), {
        ...options,
        ...(route.requestBody?.contentType === 'application/json' ? { body: {} } : {}),
      });
      return { route, exchange };
    }),
  );
}

/** Runs a computation once and hands every caller the same promise: checks of one file share their evidence. */
export function once<T>(compute: () => Promise<T>): () => Promise<T> {
  let result: Promise<T> | null = null;
  return () => {
    result ??= compute();
    return result;
  };
}
