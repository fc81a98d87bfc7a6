import { describe, expect, it } from 'vitest';
import { OAuthClient } from './oauth.js';
import { HttpTransport } from './transport.js';

describe('a client pointed at the spec placeholder (issue 12, item 13)', () => {
  it.each(['https://api.telemetry.example/v2', 'https://example.com/v2', 'https://api.example.org'])(
    'refuses %s and names the option to set',
    (baseUrl) => {
      expect(() => new HttpTransport({ baseUrl })).toThrow(
        /^createClient: baseUrl is .+ the spec's placeholder .+ set baseUrl to your deployment's address/,
      );
    },
  );

  it('accepts a real address, and says when it is no URL at all', () => {
    expect(() => new HttpTransport({ baseUrl: 'http://127.0.0.1:8080/v2' })).not.toThrow();
    expect(() => new HttpTransport({ baseUrl: 'https://api.example.test' })).not.toThrow();
    expect(() => new HttpTransport({ baseUrl: '/v2' })).toThrow(/baseUrl "\/v2" is not an absolute URL/);
  });

  it('refuses the placeholder authorization and token URLs when they are used', async () => {
    const oauth = new OAuthClient({
      clientId: 'cl_1',
      redirectUri: 'http://127.0.0.1/callback',
      authorizationUrl: 'https://auth.telemetry.example/oauth/authorize',
      tokenUrl: 'https://auth.telemetry.example/oauth/token',
    });
    expect(() => oauth.authorizeUrl({ scopes: [] })).toThrow(/set authorizationUrl/);
    await expect(oauth.exchangeCode('c', 'v')).rejects.toThrow(/set tokenUrl/);
  });
});
