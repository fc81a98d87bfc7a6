import path from 'node:path';
import { apiPolicies } from '../../generated/types/facts.js';
import { AddressBudget } from './address-budget.js';
import { alwaysAtRisk, countedByTarget } from './address-counted.js';
import { KeyPool } from './key-pool.js';
import { currentTarget, targetFileVariable } from './target.js';
import { upload } from './upload.js';

/** One HTTP request and its answer, kept as evidence for the report. */
export interface Exchange {
  request: { method: string; url: string; headers: Record<string, string>; body?: string };
  response: { status: number; headers: Record<string, string>; body: unknown; text: string };
}

/**
 * `api` is `{base_url}`, `auth` is `{auth_url}`, `fast` the fast-clock twin's `{base_url}` (with its key by default),
 * `fast-auth` the fast-clock twin's `{auth_url}`.
 */
export type Server = 'api' | 'auth' | 'fast' | 'fast-auth';

export interface SendOptions {
  /** `pool` (default) takes a paid secret key from the pool; null sends no Authorization; a string is sent as is. */
  key?: string | null | 'pool';
  body?: unknown;
  /** A raw body sent as is (malformed JSON, other content types). */
  rawBody?: string;
  headers?: Record<string, string>;
  query?: Record<string, string | number>;
  /** Where the request goes (`api` by default). */
  server?: Server;
  /** Follow redirects? Never by default: a 302 is evidence. */
}

let pool: KeyPool | null = null;

function keyPool(): KeyPool {
  const { keys } = currentTarget();
  pool ??= new KeyPool([
    ...keys.paidSecretExtras,
    ...(keys.paidSecretExtras.length === 0 && keys.paidSecret !== null ? [keys.paidSecret] : []),
  ]);
  return pool;
}

let budget: AddressBudget | null = null;

/**
 * The run's per-address budget: a ledger beside the target file, which every lane of the run reads
 * (CONFORMANCE_ADDRESS_LEDGER puts it elsewhere, to keep it; CONFORMANCE_ADDRESS_BUDGET=off records without waiting).
 */
function addressBudget(): AddressBudget {
  const ledger =
    process.env.CONFORMANCE_ADDRESS_LEDGER ??
    path.join(path.dirname(process.env[targetFileVariable] ?? '.'), 'address-ledger.jsonl');
  budget ??= new AddressBudget(ledger, { enforce: process.env.CONFORMANCE_ADDRESS_BUDGET !== 'off' });
  return budget;
}

/** The secret keys the target description holds valid: requests with them are never counted per address. */
function heldValid(key: string | null): boolean {
  const { keys, fastClock } = currentTarget();
  const valid = [keys.paidSecret, keys.freeSecret, fastClock?.paidSecret ?? null, ...keys.paidSecretExtras];
  return key !== null && valid.includes(key);
}

function redact(value: string): string {
  return value.replace(/(Bearer )(\S{8})\S+/, '$1$2…');
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/**
 * The target's answer: over fetch, or for a body over the size limit over node:http, which keeps an answer the target
 * sends before the upload ends (harness/upload.ts).
 */
async function answerOf(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
): Promise<Answer> {
  if (body !== undefined && Buffer.byteLength(body) > apiPolicies.limits.maxRequestBodyBytes)
    return upload(url, method, headers, Buffer.from(body, 'utf8'));
  const response = await fetch(url, {
    method,
    headers,
    ...(body === undefined ? {} : { body }),
    redirect: 'manual',
  });
  return {
    status: response.status,
    headers: Object.fromEntries(response.headers.entries()),
    text: await response.text(),
  };
}

/** The answer, sent within the per-address budget when the target may count it against the suite's address. */
async function budgetedAnswer(
  scope: string,
  method: string,
  path: string,
  url: URL,
  headers: Record<string, string>,
  body: string | undefined,
): Promise<Answer> {
  const authorization = Object.entries(headers).find(([name]) => name.toLowerCase() === 'authorization')?.[1];
  const atRisk = !heldValid(authorization?.replace(/^Bearer /, '') ?? null) || alwaysAtRisk(method, path);
  const reservation = atRisk ? await addressBudget().reserve(scope) : null;
  const answer = await answerOf(url, method, headers, body).catch(async (error: unknown) => {
    await reservation?.settle(true, `${method} ${path} (no answer)`);
    throw error;
  });
  const counted = countedByTarget(method, path, answer.status);
  const what = `${method} ${path} ${answer.status}`;
  if (reservation !== null) await reservation.settle(counted, what);
  else if (counted) await addressBudget().counted(scope, what);
  return answer;
}

export async function send(method: string, path: string, options: SendOptions = {}): Promise<Exchange> {
  const target = currentTarget();
  const fast = options.server === 'fast' || options.server === 'fast-auth' ? target.fastClock : null;
  const base =
    options.server === 'fast-auth'
      ? (fast?.authUrl ?? fast?.baseUrl ?? target.baseUrl)
      : (fast?.baseUrl ?? (options.server === 'auth' ? (target.authUrl ?? target.baseUrl) : target.baseUrl));
  const url = new URL(`${base.replace(/\/+$/, '')}${path}`);
  for (const [name, value] of Object.entries(options.query ?? {})) url.searchParams.set(name, String(value));
  const pooled = options.key === undefined || options.key === 'pool';
  const key = pooled ? (fast?.paidSecret ?? (await keyPool().next())) : (options.key ?? null);
  const headers: Record<string, string> = { ...(key === null ? {} : { authorization: `Bearer ${key}` }) };
  let body: string | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  Object.assign(headers, options.headers);
  // One window per target service (the API and its auth server are one service): the fast-clock twin has its own.
  // CONFORMANCE_ADDRESS_SCOPE names the service behind a proxy, whose runs share its window (the harness's tests).
  const scope = fast?.baseUrl ?? process.env.CONFORMANCE_ADDRESS_SCOPE ?? target.baseUrl;
  const {
    status,
    headers: answerHeaders,
    text,
  } = await budgetedAnswer(scope, method, path, url, headers, body);
  let parsed: unknown = text;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    // Not JSON: the text itself is the evidence.
  }
  const shownHeaders = Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name, redact(value)]),
  );
  return {
    request: {
      method,
      url: url.toString(),
      headers: shownHeaders,
      ...(body === undefined ? {} : { body: body.slice(0, 2000) }),
    },
    response: {
      status,
      headers: answerHeaders,
      body: parsed,
      text: text.slice(0, 4000),
    },
  };
}
