import { describe } from 'vitest';
import { routes } from '../../generated/server/routes.js';
import { validateCreateSubscriberTokenResponse201 } from '../../generated/validators/index.js';
import { check, expectThat } from '../harness/check.js';
import { type Exchange, send } from '../harness/probe.js';
import { currentTarget } from '../harness/target.js';
import {
  type ErrorCode,
  errorLabel,
  expectEvery,
  hasErrorType,
  hasStatusAndCode,
  statusAndType,
  wasLetThrough,
} from './support/auth-evidence.js';
import { keyKinds, keyTypes, secretKeysOfTarget } from './support/auth-keys.js';
import {
  allows,
  apiKeyScheme,
  credentialedOperations,
  once,
  probeOperations,
} from './support/auth-operations.js';

const forbiddenCode: ErrorCode = 'publishable_key_forbidden';
const publishableScopes: readonly string[] = keyTypes.publishable.scopes;
/** Operations asking the ApiKey scheme for a scope a publishable key lacks: the writes. */
const writes = credentialedOperations.filter((route) => !allows(route, apiKeyScheme, publishableScopes));
const reads = credentialedOperations.filter((route) => allows(route, apiKeyScheme, publishableScopes));
const noPublishableKey = 'the target names no publishable key (--publishable-key)';

const publishableKey = () => currentTarget().keys.publishable;
const writesWithPublishableKey = once(() => probeOperations(writes, { key: publishableKey() }));

/** A subscriber token created with the publishable key for a stream the secret key created (then deleted). */
const subscriberTokenWithPublishableKey = once(async (): Promise<Exchange> => {
  const created = await send(routes.createStream.method, routes.createStream.url, {
    body: { title: 'Conformance publishable key' },
  });
  const streamId = (created.response.body as { id?: unknown } | undefined)?.id;
  expectThat(
    created.response.status === 201 && typeof streamId === 'string',
    'a stream created with the secret key (201 with an id) to create a subscriber token for',
    created,
  );
  const path = (url: string) => url.replace(':streamId', encodeURIComponent(streamId));
  try {
    return await send(routes.createSubscriberToken.method, path(routes.createSubscriberToken.url), {
      key: publishableKey(),
    });
  } finally {
    await send(routes.deleteStream.method, path(routes.deleteStream.url));
  }
});

describe('publishable keys', () => {
  check(
    ['AUTH-PUBLISHABLE-KEY', 'ERR-403'],
    `a publishable key ("<fixed prefix>${keyTypes.publishable.prefix}…") is refused with ${statusAndType(forbiddenCode)} on every write operation`,
    async ({ skip }) => {
      const key = publishableKey();
      if (key === null) return skip(noPublishableKey);
      const secrets = secretKeysOfTarget();
      const servicePrefix = secrets[0]?.slice(0, secrets[0].indexOf(keyTypes.secret.prefix)) ?? null;
      expectThat(
        servicePrefix === null
          ? key.includes(keyTypes.publishable.prefix)
          : key.startsWith(`${servicePrefix}${keyTypes.publishable.prefix}`),
        `the publishable key to read ${servicePrefix ?? '<fixed prefix>'}${keyTypes.publishable.prefix}…`,
      );
      expectEvery(
        await writesWithPublishableKey(),
        (exchange) => hasErrorType(exchange, forbiddenCode),
        statusAndType(forbiddenCode),
      );
    },
  );

  check(
    ['EP-SUBSCRIBER-TOKENS', 'AUTH-PUBLISHABLE-KEY'],
    'a publishable key creates a subscriber token for a stream (201)',
    async ({ skip }) => {
      if (publishableKey() === null) return skip(noPublishableKey);
      const exchange = await subscriberTokenWithPublishableKey();
      expectThat(exchange.response.status === 201, 'status 201', exchange);
    },
  );
});

describe('publishable keys (inferred details)', () => {
  check(
    ['INF-SCHEMAS-ERROR-CODE-ONEOF-PUBLISHABLE_KEY_FORBIDDEN'],
    `a publishable key's write attempts are ${forbiddenCode}`,
    async ({ skip }) => {
      if (publishableKey() === null) return skip(noPublishableKey);
      expectEvery(
        await writesWithPublishableKey(),
        (exchange) => hasStatusAndCode(exchange, forbiddenCode) && hasErrorType(exchange, forbiddenCode),
        errorLabel(forbiddenCode),
      );
    },
  );

  check(
    ['INF-OPENAPI-COMPONENTS-SECURITYSCHEMES-APIKEY-X-KEY-TYPES'],
    'keys match their kind’s pattern, and a publishable key passes authorization on every read operation',
    async ({ skip }) => {
      const key = publishableKey();
      if (key === null) return skip(noPublishableKey);
      const byKind = { secret: secretKeysOfTarget(), publishable: [key] };
      for (const kind of keyKinds) {
        const pattern = new RegExp(keyTypes[kind].pattern);
        const odd = byKind[kind].filter((candidate) => !pattern.test(candidate));
        expectThat(
          odd.length === 0,
          `every ${kind} key of the target to match ${pattern} (${odd.length} do not)`,
        );
      }
      expectEvery(
        await probeOperations(reads, { key }),
        wasLetThrough,
        `neither an authentication nor a permission error (nor a 5xx) for a publishable key (scopes ${publishableScopes.join(' ')})`,
      );
    },
  );

  check(
    ['INF-OPENAPI-PATHS-STREAMS-STREAMID-SUBSCRIBER_TOKENS-POST', 'INF-SCHEMAS-SUBSCRIBER-TOKEN'],
    'the subscriber token a publishable key creates is valid against the 201 schema',
    async ({ skip }) => {
      if (publishableKey() === null) return skip(noPublishableKey);
      const exchange = await subscriberTokenWithPublishableKey();
      const verdict = validateCreateSubscriberTokenResponse201(exchange.response.body);
      expectThat(
        exchange.response.status === 201 && verdict.ok,
        `201 with a body valid against the schema (${verdict.ok ? '' : verdict.error.message})`,
        exchange,
      );
    },
  );
});
