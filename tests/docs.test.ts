// Builds the docs site and reads it in headless Chromium: complete, and nothing fetched from the network.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { collectIndexData } from '../scripts/docs/collect-index-data.js';
import { makeOffline } from '../scripts/docs/redoc-page.js';
import {
  chromiumPath,
  launchChromium,
  type PageReading,
  readPage,
  renderDeadlineMs,
} from './support/browser.js';

const repositoryRoot = fileURLToPath(new URL('..', import.meta.url));
const tsxBinary = join(repositoryRoot, 'node_modules/.bin/tsx');
if (!chromiumPath)
  console.warn('docs.test: chromium not found (npm run setup:chromium); skipping the browser checks');
const describeInBrowser = chromiumPath ? describe : describe.skip;

interface SpecFile {
  paths?: Record<string, Record<string, { summary?: string; operationId?: string }>>;
  webhooks?: Record<string, unknown>;
  channels?: Record<string, { address?: string }>;
}
const readSpec = (path: string): SpecFile =>
  parse(readFileSync(join(repositoryRoot, path), 'utf8')) as SpecFile;
const httpMethods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

// The expectations come straight from the spec files, independent of the code under test.
function expectedFromSpecs() {
  const openapi = readSpec('spec/openapi.yaml');
  const asyncapi = readSpec('spec/asyncapi.yaml');
  const operations = Object.entries(openapi.paths ?? {}).flatMap(([path, pathItem]) =>
    httpMethods
      .filter((method) => method in pathItem)
      .map((method) => ({
        route: `${method.toUpperCase()} ${path}`,
        label: pathItem[method]?.summary ?? pathItem[method]?.operationId ?? '',
      })),
  );
  const addresses = Object.values(asyncapi.channels ?? {}).map((channel) => String(channel.address));
  return { operations, addresses, eventTypes: Object.keys(openapi.webhooks ?? {}) };
}

describe('collectIndexData', () => {
  it('derives operations, channels and webhook events from the documents', () => {
    const openapi = {
      info: { title: 'Tiny API' },
      paths: {
        '/things': {
          servers: [{ url: 'https://auth.example' }],
          get: { summary: 'List', operationId: 'listThings' },
        },
      },
      webhooks: { 'thing.made': { $ref: '#/components/pathItems/ThingMade' } },
      components: {
        pathItems: { ThingMade: { post: { summary: 'thing.made', description: 'A thing was made.' } } },
      },
    };
    const asyncapi = {
      info: { title: 'Tiny events' },
      servers: { broker: { protocol: 'mqtt' }, socket: { protocol: 'ws' } },
      channels: {
        things: {
          address: 'things/{id}',
          servers: [{ protocol: 'mqtt' }],
          messages: { json: { name: 'thing' } },
        },
        pings: { address: null, messages: { ping: { title: 'Ping' } } },
      },
    };
    expect(collectIndexData(openapi, asyncapi)).toEqual({
      restTitle: 'Tiny API',
      eventsTitle: 'Tiny events',
      operations: [
        {
          method: 'GET',
          path: '/things',
          summary: 'List',
          operationId: 'listThings',
          serverOverride: 'https://auth.example',
        },
      ],
      channels: [
        {
          name: 'things',
          address: 'things/{id}',
          protocols: ['mqtt'],
          messages: [{ name: 'thing', summary: '' }],
        },
        {
          name: 'pings',
          address: 'pings',
          protocols: ['mqtt', 'ws'],
          messages: [{ name: 'ping', summary: 'Ping' }],
        },
      ],
      webhooks: [{ eventType: 'thing.made', method: 'POST', summary: '', description: 'A thing was made.' }],
    });
  });

  it('makeOffline swaps the CDN logo for an inline one and adds a no-network policy', () => {
    const html = makeOffline(
      '<html><head></head><body>`https://cdn.redoc.ly/redoc/logo-mini-full.svg`</body></html>',
    );
    expect(html).not.toContain('https://');
    expect(html).toContain('Content-Security-Policy');
  });
});

describe('build-docs command line', () => {
  it('reports a missing input in one line and exits 1', () => {
    const arguments_ = ['scripts/build-docs.ts', '--openapi', 'no-such-file.yaml'];
    const result = spawnSync(tsxBinary, arguments_, { cwd: repositoryRoot, encoding: 'utf8' });
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toBe('build-docs: input file not found: no-such-file.yaml');
  });
});

// Each reading may take up to renderDeadlineMs, then closing the page; the default test timeout is shorter.
describeInBrowser('the built site in Chromium', { timeout: renderDeadlineMs + 30_000 }, () => {
  let outputDirectory = '';
  let browser: Browser;

  beforeAll(async () => {
    outputDirectory = mkdtempSync(join(tmpdir(), 'docs-site-'));
    const arguments_ = ['scripts/build-docs.ts', '--out', outputDirectory];
    const result = spawnSync(tsxBinary, arguments_, { cwd: repositoryRoot, encoding: 'utf8' });
    expect(result.status, result.stderr).toBe(0);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    if (outputDirectory) rmSync(outputDirectory, { recursive: true, force: true });
  });

  const read = (file: string, words: string[]): Promise<PageReading> =>
    readPage(browser, pathToFileURL(join(outputDirectory, file)).href, words);

  it('index.html lists every operation, channel and webhook event', async () => {
    const expected = expectedFromSpecs();
    const routes = expected.operations.flatMap((operation) => [operation.route, operation.label]);
    const { text, remoteRequests } = await read('index.html', routes);
    for (const operation of expected.operations) {
      expect(text).toContain(operation.route);
      expect(text).toContain(operation.label);
    }
    for (const address of expected.addresses) expect(text).toContain(address);
    for (const eventType of expected.eventTypes) expect(text).toContain(eventType);
    expect(remoteRequests).toEqual([]);
  });

  it('rest.html shows every operation and webhook event, offline', async () => {
    const expected = expectedFromSpecs();
    const routes = expected.operations.map((operation) => operation.route);
    const { text, remoteRequests } = await read('rest.html', [...routes, ...expected.eventTypes]);
    for (const operation of expected.operations) expect(text).toContain(operation.route);
    for (const eventType of expected.eventTypes) expect(text).toContain(eventType);
    expect(remoteRequests).toEqual([]);
  });

  it('events.html shows every channel address, offline', async () => {
    const { addresses } = expectedFromSpecs();
    const { text, remoteRequests } = await read('events.html', addresses);
    for (const address of addresses) expect(text).toContain(address);
    expect(remoteRequests).toEqual([]);
  });
});
