// Issue 12 items 10 and 11: what Prism's validation proxy really checks. A canary upstream answers every operation
// with a body that leaks an extra field (`leakedField`, as a leaked `streamKey` would); Prism must flag the leak on
// every operation that answers JSON. Without `jsonSchemaDialect` (2020-12) Prism validates as draft-07 and ignores
// `unevaluatedProperties`, so the leak passes on every schema closed that way. The two HTML-only operations (the OAuth
// authorize page and consent form) cannot carry a JSON leak: their canary answers an undeclared status instead.
import { once } from 'node:events';
import { rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BundledSpec,
  type JsonObject,
  type OperationEntry,
  operationsOf,
  writeBundledSpec,
} from './support/bundled-spec.js';
import {
  type RunningPrismProxy,
  startPrismProxy,
  type Violation,
  violationsOf,
} from './support/prism-proxy.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const leak = 'leakedField';
/** A status no operation declares. */
const undeclaredStatus = 299;

interface CanaryAnswer {
  status: number;
  body: string;
}

function resolved(document: JsonObject, value: unknown): JsonObject {
  const object = (value ?? {}) as JsonObject;
  if (typeof object.$ref !== 'string') return object;
  const target = object.$ref
    .replace(/^#\//, '')
    .split('/')
    .reduce<unknown>((node, key) => (node as JsonObject)[key], document);
  return resolved(document, target);
}

/** The first declared JSON answer (success first), with its example or schema example, plus the leaked field. */
function canaryAnswer(document: JsonObject, entry: OperationEntry): CanaryAnswer {
  const responses = Object.entries(entry.operation.responses as JsonObject).sort(([a], [b]) =>
    a.localeCompare(b),
  );
  for (const [status, response] of responses) {
    const content = resolved(document, response).content as JsonObject | undefined;
    const json = content?.['application/json'] as JsonObject | undefined;
    if (json === undefined) continue;
    const schema = resolved(document, json.schema);
    const example = json.example ?? (Array.isArray(schema.examples) ? schema.examples[0] : undefined) ?? {};
    return { status: Number(status), body: JSON.stringify({ ...(example as JsonObject), [leak]: 'x' }) };
  }
  return { status: undeclaredStatus, body: '<p>canary</p>' };
}

function templateMatcher(entry: OperationEntry): RegExp {
  return new RegExp(`^${entry.path.replace(/\{[^}]+\}/g, '[^/]+').replace(/\./g, '\\.')}$`);
}

/** Every path parameter filled with a value of the right prefix: only response violations are looked at. */
function concretePath(entry: OperationEntry): string {
  return entry.path.replace(/\{([^}]+)\}/g, (_, name: string) => `${name.replace(/Id$/, '')}_canary`);
}

async function startCanary(document: JsonObject, entries: OperationEntry[]): Promise<Server> {
  const routes = entries.map((entry) => ({
    method: entry.method.toUpperCase(),
    matcher: templateMatcher(entry),
    answer: canaryAnswer(document, entry),
  }));
  const server = createServer((request, response) => {
    const pathname = new URL(request.url ?? '/', 'http://canary').pathname;
    const route = routes.find((each) => each.method === request.method && each.matcher.test(pathname));
    request.resume();
    const answer = route?.answer ?? { status: 599, body: '{}' };
    const html = answer.status === undeclaredStatus;
    response.writeHead(answer.status, { 'content-type': html ? 'text/html' : 'application/json' });
    response.end(answer.body);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return server;
}

describe("Prism's validation proxy flags a wrong answer on every operation", () => {
  let bundle: BundledSpec;
  let canary: Server;
  let proxy: RunningPrismProxy;
  const flagged = new Map<string, Violation[]>();
  let entries: OperationEntry[] = [];

  beforeAll(async () => {
    bundle = await writeBundledSpec(root, 'peer-canary-');
    entries = operationsOf(bundle.document);
    canary = await startCanary(bundle.document, entries);
    const address = canary.address();
    if (address === null || typeof address === 'string') throw new Error('no canary address');
    proxy = await startPrismProxy(root, bundle.file, `http://127.0.0.1:${address.port}`);
    for (const entry of entries) {
      const hasBody = ['post', 'put', 'patch'].includes(entry.method);
      const response = await fetch(`${proxy.url}${concretePath(entry)}`, {
        method: entry.method.toUpperCase(),
        redirect: 'manual',
        headers: {
          authorization: `Bearer tlm_sk_${'C'.repeat(32)}`,
          ...(hasBody ? { 'content-type': 'application/json' } : {}),
        },
        ...(hasBody ? { body: '{}' } : {}),
      });
      await response.arrayBuffer();
      flagged.set(
        entry.id,
        violationsOf(response.headers).filter((violation) => violation.location[0] === 'response'),
      );
    }
  }, 180_000);

  afterAll(async () => {
    await proxy?.stop();
    canary?.close();
    if (bundle) await rm(bundle.directory, { recursive: true, force: true });
  });

  it('reaches every operation of the spec', () => {
    expect(entries.length).toBeGreaterThanOrEqual(30);
    expect([...flagged.keys()].sort()).toEqual(entries.map((entry) => entry.id).sort());
  });

  it('flags the leaked field of every JSON answer', () => {
    const missed = entries
      .filter((entry) => canaryAnswer(bundle.document, entry).status !== undeclaredStatus)
      .filter(
        (entry) =>
          !(flagged.get(entry.id) ?? []).some(
            (violation) =>
              /^(unevaluated|additional)Properties$/.test(violation.code ?? '') &&
              violation.message.includes(leak),
          ),
      )
      .map((entry) => entry.id);
    expect(missed).toEqual([]);
  });

  // Every operation now declares a JSON error answer (408, 431, 413 where a body may come), the HTML-only OAuth pages
  // included, so the leak above reaches all of them; an operation without one would be checked by status instead.
  it('flags an undeclared status on the operations that answer only HTML (none left)', () => {
    const htmlOnly = entries.filter(
      (entry) => canaryAnswer(bundle.document, entry).status === undeclaredStatus,
    );
    expect(htmlOnly.map((entry) => entry.id).sort()).toEqual([]);
  });
});
