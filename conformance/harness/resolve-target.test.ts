import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../reference/storage/store.js';
import { createMemoryStore } from '../../reference/storage/testing/memory-store.js';
import { InputError } from './inputs.js';
import { defaultLatencyP99Milliseconds, resolveTarget } from './resolve-target.js';

const root = path.resolve(import.meta.dirname, '../..');
let server: Server;
let origin = '';

beforeAll(async () => {
  server = createServer((_request, response) => response.end('{}')).listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  origin = `http://127.0.0.1:${address.port}`;
});
afterAll(async () => {
  server.close();
  await once(server, 'close');
});

describe('resolveTarget for a deployment', () => {
  it('describes the deployment from the inputs, documented profile by default', async () => {
    const resolved = await resolveTarget(
      {
        'base-url': `${origin}/v2/`,
        'auth-url': origin,
        'paid-key': 'paid',
        'paid-key-extras': 'one,,two',
        'free-key': 'free',
        'oauth-client-id': 'client',
        'oauth-client-secret': 'secret',
        'oauth-redirect-uri': 'http://127.0.0.1/callback',
      },
      root,
    );
    expect(resolved.target).toMatchObject({
      embedded: false,
      profile: 'documented',
      baseUrl: `${origin}/v2`,
      authUrl: origin,
      mqttUrl: null,
      wsUrl: null,
      keys: { paidSecret: 'paid', paidSecretExtras: ['one', 'two'], freeSecret: 'free', publishable: null },
      oauth: { clientId: 'client', clientSecret: 'secret', redirectUri: 'http://127.0.0.1/callback' },
      autoApproveConsent: false,
      timeScale: 1,
      slow: false,
      latencyP99Milliseconds: defaultLatencyP99Milliseconds,
      fastClock: null,
      webhookPublicUrl: null,
      webhookListen: null,
    });
    await resolved.release();
  });

  it('names a second and a public OAuth client only when each is given whole', async () => {
    const both = await resolveTarget(
      {
        'base-url': `${origin}/v2`,
        'paid-key': 'paid',
        'oauth-second-client-id': 'second',
        'oauth-second-client-secret': 'second-secret',
        'oauth-second-redirect-uri': 'http://127.0.0.1/second',
        'oauth-public-client-id': 'public',
        'oauth-public-redirect-uri': 'http://127.0.0.1/public',
      },
      root,
    );
    expect(both.target).toMatchObject({
      oauth: null,
      oauthSecondClient: {
        clientId: 'second',
        clientSecret: 'second-secret',
        redirectUri: 'http://127.0.0.1/second',
      },
      oauthPublicClient: { clientId: 'public', redirectUri: 'http://127.0.0.1/public' },
    });
    const partial = await resolveTarget(
      {
        'base-url': `${origin}/v2`,
        'paid-key': 'paid',
        'oauth-second-client-id': 'second',
        'oauth-second-redirect-uri': 'http://127.0.0.1/second',
        'oauth-public-client-id': 'public',
      },
      root,
    );
    expect(partial.target).toMatchObject({ oauthSecondClient: null, oauthPublicClient: null });
  });

  it("takes the data-plane inputs: time scale, --slow, the receiver at the public URL's port", async () => {
    const resolved = await resolveTarget(
      {
        'base-url': `${origin}/v2`,
        'paid-key': 'paid',
        'mqtt-url': 'mqtts://mqtt.example.com:8883',
        'ws-url': 'wss://live.example.com',
        'webhook-public-url': 'https://hooks.example.net:8443/conformance',
        'time-scale': '60',
        slow: 'true',
        'latency-p99-ms': '80',
      },
      root,
    );
    expect(resolved.target).toMatchObject({
      mqttUrl: 'mqtts://mqtt.example.com:8883',
      wsUrl: 'wss://live.example.com',
      webhookPublicUrl: 'https://hooks.example.net:8443/conformance',
      webhookListen: { host: '0.0.0.0', port: 8443 },
      timeScale: 60,
      slow: true,
      latencyP99Milliseconds: 80,
    });
    const forwarded = await resolveTarget(
      {
        'base-url': `${origin}/v2`,
        'paid-key': 'paid',
        'webhook-public-url': 'https://hooks.example.net/c',
        'webhook-listen': '127.0.0.1:9000',
      },
      root,
    );
    expect(forwarded.target.webhookListen).toEqual({ host: '127.0.0.1', port: 9000 });
    await expect(
      resolveTarget({ 'base-url': `${origin}/v2`, 'paid-key': 'paid', 'time-scale': '-1' }, root),
    ).rejects.toThrow(/--time-scale/);
  });

  it('takes mqtts:// and wss:// URLs, and refuses a data-plane URL of another scheme', async () => {
    const resolved = await resolveTarget(
      {
        'base-url': `${origin}/v2`,
        'paid-key': 'paid',
        'mqtt-url': 'mqtts://mqtt.example:8883',
        'ws-url': 'wss://live.example',
      },
      root,
    );
    expect([resolved.target.mqttUrl, resolved.target.wsUrl]).toEqual([
      'mqtts://mqtt.example:8883',
      'wss://live.example',
    ]);
    await expect(
      resolveTarget(
        { 'base-url': `${origin}/v2`, 'paid-key': 'paid', 'mqtt-url': 'https://mqtt.example' },
        root,
      ),
    ).rejects.toThrow(/--mqtt-url must be mqtt:\/\/ or mqtts:\/\//);
    await expect(
      resolveTarget(
        { 'base-url': `${origin}/v2`, 'paid-key': 'paid', 'ws-url': 'http://live.example' },
        root,
      ),
    ).rejects.toThrow(/--ws-url must be ws:\/\/ or wss:\/\//);
  });

  it('leaves OAuth out unless client id, secret and redirect URI are all given', async () => {
    const resolved = await resolveTarget(
      { 'base-url': `${origin}/v2`, 'paid-key': 'paid', 'oauth-client-id': 'client' },
      root,
    );
    expect(resolved.target.oauth).toBeNull();
  });

  it('refuses a base URL that is not a URL, or that does not answer, with an input error', async () => {
    await expect(resolveTarget({ 'base-url': 'not a url', 'paid-key': 'paid' }, root)).rejects.toThrow(
      InputError,
    );
    const closed = createServer().listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const address = closed.address();
    closed.close();
    await once(closed, 'close');
    if (address === null || typeof address === 'string') throw new Error('no TCP address');
    await expect(
      resolveTarget({ 'base-url': `http://127.0.0.1:${address.port}/v2`, 'paid-key': 'paid' }, root),
    ).rejects.toThrow(/cannot reach/);
  });

  // Otherwise every check fails for want of a key, which reads as the deployment failing.
  it('refuses a deployment without a paid key before sending anything', async () => {
    await expect(resolveTarget({ 'base-url': `${origin}/v2` }, root)).rejects.toThrow(/--paid-key/);
    const extrasOnly = await resolveTarget({ 'base-url': `${origin}/v2`, 'paid-key-extras': 'one' }, root);
    expect(extrasOnly.target.keys.paidSecretExtras).toEqual(['one']);
  });

  it('refuses an unknown profile', async () => {
    await expect(
      resolveTarget({ 'base-url': `${origin}/v2`, 'paid-key': 'paid', profile: 'strict' }, root),
    ).rejects.toThrow(InputError);
  });
});

describe('resolveTarget for the embedded default', () => {
  it('starts each reference on a fresh store of the caller’s when one is given (the mutation job)', async () => {
    const stores: Store[] = [];
    const resolved = await resolveTarget({}, root, null, {
      fastClock: true,
      dataPlane: false,
      store: () => {
        const store = createMemoryStore();
        stores.push(store);
        return store;
      },
    });
    try {
      expect(stores).toHaveLength(2);
      expect(resolved.target.fastClock).not.toBeNull();
      const created = await fetch(`${resolved.target.baseUrl}/streams`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${resolved.target.keys.paidSecret}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ title: 'On the given store' }),
      });
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: string };
      // The main reference wrote to the first store given, and only to it.
      expect((await stores[0]?.streams.getById(id))?.title).toBe('On the given store');
      expect(await stores[1]?.streams.getById(id)).toBeNull();
    } finally {
      await resolved.release();
    }
  });
});
