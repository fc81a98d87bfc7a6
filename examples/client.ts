// The generated client against a running reference service: `npm start` prints the addresses and, on its first
// start, a secret key and an OAuth client. Run with
//   TELEMETRY_BASE_URL=http://127.0.0.1:8080/v2 TELEMETRY_API_KEY=tlm_sk_… npx tsx examples/client.ts
// and, for the OAuth part, TELEMETRY_AUTH_URL, TELEMETRY_OAUTH_CLIENT_ID, TELEMETRY_OAUTH_CLIENT_SECRET and
// TELEMETRY_OAUTH_REDIRECT_URI from the same printout. Inside your project, import from your copy of generated/client.
import { createClient, createOAuthClient, NotFoundError } from '../generated/client/index.js';

const environment = (name: string): string => {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`set ${name} (npm start prints it)`);
  return value;
};

// 1. Construct: the base URL of your deployment and a secret API key.
const client = createClient({
  baseUrl: environment('TELEMETRY_BASE_URL'),
  apiKey: environment('TELEMETRY_API_KEY'),
});

// 2. Create, then list with the async iterator: `listAll` follows the cursors page by page.
const created = await client.streams.create({ title: 'Pump 7' });
let streams = 0;
for await (const stream of client.streams.listAll({ limit: 10 })) {
  streams += 1;
  if (stream.id === created.id) console.log(`found ${stream.id} (${stream.title}) while listing`);
}
console.log(`${streams} streams in all`);

// 3. Typed errors: each error type of the envelope is a class, with the code, param and request id.
try {
  await client.streams.retrieve('stm_doesnotexist');
} catch (error) {
  if (!(error instanceof NotFoundError)) throw error;
  console.log(`not found: ${error.status} ${error.code} (request ${error.requestId})`);
}

// 4. OAuth: send the user to `url`; the redirect brings back `code` and `state`. A local reference started with
// TELEMETRY_AUTO_APPROVE_CONSENT=true approves at once, so this example follows the redirect itself.
if (process.env.TELEMETRY_AUTH_URL !== undefined) {
  const authUrl = environment('TELEMETRY_AUTH_URL');
  const oauth = createOAuthClient({
    clientId: environment('TELEMETRY_OAUTH_CLIENT_ID'),
    clientSecret: environment('TELEMETRY_OAUTH_CLIENT_SECRET'),
    redirectUri: environment('TELEMETRY_OAUTH_REDIRECT_URI'),
    authorizationUrl: `${authUrl}/oauth/authorize`,
    tokenUrl: `${authUrl}/oauth/token`,
  });
  const { url, state, codeVerifier } = oauth.authorizeUrl({ scopes: ['account:read'] });
  const redirect = new URL((await fetch(url, { redirect: 'manual' })).headers.get('location') ?? url);
  const code = redirect.searchParams.get('code');
  if (code === null || redirect.searchParams.get('state') !== state)
    throw new Error(`no code came back: ${redirect.toString()}`);
  const tokens = oauth.tokenSet(await oauth.exchangeCode(code, codeVerifier));
  // The tokens drive a client of their own, refreshed through the token endpoint when they expire.
  const delegated = createClient({
    baseUrl: environment('TELEMETRY_BASE_URL'),
    auth: oauth.tokenAuth(tokens),
  });
  console.log(`OAuth: account ${(await delegated.account.retrieve()).id}`);
}
