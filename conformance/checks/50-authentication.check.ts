import { describe } from 'vitest';
import { routes } from '../../generated/server/routes.js';
import { errorCodes, errorRoles } from '../../generated/types/errors.js';
import { check, expectThat } from '../harness/check.js';
import { type Exchange, send } from '../harness/probe.js';
import { currentTarget } from '../harness/target.js';
import {
  type ErrorCode,
  errorLabel,
  expectEvery,
  hasErrorType,
  hasStatusAndCode,
  headerOf,
  statusAndCode,
  statusAndType,
  wasLetThrough,
} from './support/auth-evidence.js';
import { keyTypes, secretKeysOfTarget, spareSecretKey, unknownKey } from './support/auth-keys.js';
import { credentialedOperations, once, probeOperations } from './support/auth-operations.js';
import { fitsRule, responseHeader } from './support/auth-spec.js';
import { bearerChallenge, isBearerScheme } from './support/www-authenticate.js';

const missingCode: ErrorCode = errorRoles.missingCredentials;
const invalidCode: ErrorCode = errorRoles.invalidCredentials;
const revokedCode: ErrorCode = 'key_revoked';
/** One request per operation and credential, all at once: over a hundred requests, slow on a loaded machine. */
const probeTimeoutMilliseconds = 90_000;

/** Authorization values that are not `Bearer <token>` or whose token cannot be valid. */
function malformedAuthorizations(): string[] {
  const spare = spareSecretKey();
  return [
    `Basic ${Buffer.from(`${spare ?? 'conformance'}:`).toString('base64')}`,
    'Bearer',
    // A real key without the scheme: only `Bearer <key>` is the documented form.
    ...(spare === null ? [] : [spare, `Token ${spare}`]),
    // Shaped like a signed token, signed by nobody.
    'Bearer e30.e30.c2lnbmF0dXJl',
  ];
}

// Every probe is sent once and judged by the documented checks and the inferred ones alike.
const withoutAuthorization = once(() => probeOperations(credentialedOperations, { key: null }));
const withMalformedAuthorization = once(async () =>
  (
    await Promise.all(
      malformedAuthorizations().map((authorization) =>
        probeOperations(credentialedOperations, { key: null, headers: { authorization } }),
      ),
    )
  ).flat(),
);
const withUnknownKeys = once(async () =>
  (
    await Promise.all([
      probeOperations(credentialedOperations, { key: unknownKey('secret') }),
      probeOperations(credentialedOperations, { key: unknownKey('publishable') }),
    ])
  ).flat(),
);
/**
 * One request each, not one per operation (each counts against the suite's address): a real key after a scheme that
 * only ends in Bearer, after another scheme as long as Bearer (`Digest`: a server reading whatever follows the first
 * seven characters would take the key), or followed by more text, and a token of neither form (no API key, no signed
 * token).
 */
const withOddAuthorizations = once(async () => {
  const spare = spareSecretKey();
  const authorizations = [
    ...(spare === null ? [] : [`XBearer ${spare}`, `Digest ${spare}`, `Bearer ${spare} ${spare}`]),
    'Bearer conformance-neither-key-nor-token',
  ];
  return Promise.all(
    authorizations.map(async (authorization) => ({
      authorization,
      shown: spare === null ? authorization : authorization.replaceAll(spare, '<key>'),
      exchange: await send(routes.getAccount.method, routes.getAccount.url, {
        key: null,
        headers: { authorization },
      }),
    })),
  );
});
const withRevokedKey = once(async () => {
  const revoked = currentTarget().keys.revoked;
  return revoked === null ? null : probeOperations(credentialedOperations, { key: revoked });
});

const noRevokedKey = 'the target names no revoked key (--revoked-key)';

describe('authentication of API keys', () => {
  check(
    ['ERR-MISSING-TOKEN', 'ERR-401'],
    `without Authorization every operation answers ${errorLabel(missingCode)}`,
    async () => {
      const probes = await withoutAuthorization();
      expectEvery(probes, (exchange) => hasStatusAndCode(exchange, missingCode), statusAndCode(missingCode));
      expectEvery(probes, (exchange) => hasErrorType(exchange, missingCode), statusAndType(missingCode));
    },
    { timeout: probeTimeoutMilliseconds },
  );

  check(
    ['ERR-INVALID-TOKEN', 'ERR-401', 'AUTH-BEARER-KEY', 'EP-BEARER'],
    `an Authorization that is not "Bearer <token>" (Basic, Digest, no token, no scheme, XBearer, a key and more, a forged token, a token of no known form) is ${statusAndCode(invalidCode)}`,
    async () => {
      const probes = await withMalformedAuthorization();
      expectEvery(probes, (exchange) => hasStatusAndCode(exchange, invalidCode), statusAndCode(invalidCode));
      expectEvery(probes, (exchange) => hasErrorType(exchange, invalidCode), statusAndType(invalidCode));
      for (const { shown, exchange } of await withOddAuthorizations()) {
        expectThat(
          hasStatusAndCode(exchange, invalidCode),
          `${statusAndCode(invalidCode)} for ${shown}`,
          exchange,
        );
      }
      // The same account's key sent as `Bearer <key>` is accepted: the scheme, not the key, was refused above.
      const accepted = await send(routes.getAccount.method, routes.getAccount.url);
      expectThat(accepted.response.status === 200, 'status 200 for a secret key sent as Bearer', accepted);
    },
    { timeout: probeTimeoutMilliseconds },
  );

  check(
    ['AUTH-BEARER-KEY', 'EP-BEARER'],
    'a key is accepted with the scheme written in any case and after more than one space (`bearer <key>`, `BEARER  <key>`)',
    async ({ skip }) => {
      const spare = spareSecretKey();
      if (spare === null) return skip('the target names no paid secret key (--paid-key)');
      // RFC 9110 section 11.1: a scheme is matched without regard to case; RFC 6750 section 2.1: `"Bearer" 1*SP b64token`.
      for (const scheme of ['bearer ', 'BEARER  ', 'Bearer   ']) {
        const exchange = await send(routes.getAccount.method, routes.getAccount.url, {
          key: null,
          headers: { authorization: `${scheme}${spare}` },
        });
        expectThat(
          exchange.response.status === 200,
          `status 200 for ${JSON.stringify(`${scheme}<key>`)}`,
          exchange,
        );
      }
    },
  );

  check(
    ['ERR-INVALID-TOKEN', 'ERR-401'],
    `a well-formed secret or publishable key that does not exist is ${statusAndCode(invalidCode)} on every operation`,
    async () => {
      const probes = await withUnknownKeys();
      expectEvery(probes, (exchange) => hasStatusAndCode(exchange, invalidCode), statusAndCode(invalidCode));
      expectEvery(probes, (exchange) => hasErrorType(exchange, invalidCode), statusAndType(invalidCode));
    },
    { timeout: probeTimeoutMilliseconds },
  );

  check(
    ['AUTH-KEY-REVOKED', 'ERR-KEY-REVOKED', 'ERR-401'],
    `a revoked key is ${errorLabel(revokedCode)} on every operation`,
    async ({ skip }) => {
      const probes = await withRevokedKey();
      if (probes === null) return skip(noRevokedKey);
      expectEvery(probes, (exchange) => hasStatusAndCode(exchange, revokedCode), statusAndCode(revokedCode));
      expectEvery(probes, (exchange) => hasErrorType(exchange, revokedCode), statusAndType(revokedCode));
    },
    { timeout: probeTimeoutMilliseconds },
  );

  check(['AUTH-ROLL-KEY'], 'rolling a key invalidates the old key immediately', async ({ skip }) => {
    skip(
      'no HTTP operation rolls a key and the target names no rolled key; the answer to a replaced key (key_revoked) is checked with the revoked key',
    );
  });

  check(
    ['AUTH-SECRET-KEY'],
    `secret keys are "<fixed prefix>${keyTypes.secret.prefix}…" and pass authentication and authorization on every operation`,
    async ({ skip }) => {
      const secrets = secretKeysOfTarget();
      if (secrets.length === 0) return skip('the target names no secret key');
      const prefixes = new Set(secrets.map((key) => key.slice(0, key.indexOf(keyTypes.secret.prefix))));
      expectThat(
        secrets.every((key) => key.includes(keyTypes.secret.prefix)) && prefixes.size === 1,
        `every secret key of the target to read <one fixed prefix>${keyTypes.secret.prefix}…; prefixes seen: ${[...prefixes].join(', ')}`,
      );
      // The pool's paid secret keys; made-up ids and empty bodies make writes fail after authorization, harmlessly.
      const probes = await probeOperations(credentialedOperations, {});
      expectEvery(
        probes,
        wasLetThrough,
        'neither an authentication nor a permission error (nor a 5xx) for a secret key',
      );
    },
  );
});

describe('authentication answers (inferred details)', () => {
  const challenge = responseHeader('Unauthorized', 'WWW-Authenticate');

  check(
    ['INF-OPENAPI-COMPONENTS-HEADERS-WWWAUTHENTICATE'],
    `every ${errorCodes[missingCode].status} carries a well-formed Bearer WWW-Authenticate challenge: error="${invalidCode}" when a Bearer token was given, no error without Authorization or with another scheme`,
    async () => {
      const fits = (exchange: Exchange) => {
        const value = headerOf(exchange, challenge.name);
        return fitsRule(challenge, value) && bearerChallenge(value) !== null;
      };
      const errorOf = (exchange: Exchange) =>
        bearerChallenge(headerOf(exchange, challenge.name))?.get('error');
      const everyRefusal = [...(await withoutAuthorization()), ...(await withMalformedAuthorization())];
      expectEvery(
        everyRefusal,
        fits,
        `${challenge.name} matching ${challenge.pattern}, one Bearer challenge of auth-params (RFC 9110 11.6.1)`,
      );
      // RFC 6750 section 3.1: a request without authentication information (none, or of a scheme the server does not
      // support) gets no error code.
      const unchallenged = (exchange: Exchange) => fits(exchange) && errorOf(exchange) === undefined;
      expectEvery(
        await withoutAuthorization(),
        unchallenged,
        `a Bearer challenge without an error parameter when no Authorization was sent`,
      );
      const noError = 'a Bearer challenge without an error parameter for another scheme';
      expectEvery(
        (await withMalformedAuthorization()).filter(
          ({ exchange }) => !isBearerScheme(exchange.request.headers.authorization),
        ),
        unchallenged,
        noError,
      );
      // RFC 6750's error code for a rejected token has the same name as the API's.
      const rejectedToken = (exchange: Exchange) => fits(exchange) && errorOf(exchange) === invalidCode;
      const withToken = [
        ...(await withMalformedAuthorization()).filter(({ exchange }) =>
          isBearerScheme(exchange.request.headers.authorization),
        ),
        ...(await withUnknownKeys()),
        ...((await withRevokedKey()) ?? []),
      ];
      const expected = `a Bearer challenge with error="${invalidCode}"`;
      expectEvery(withToken, rejectedToken, expected);
      for (const { authorization, shown, exchange } of await withOddAuthorizations()) {
        if (isBearerScheme(authorization))
          expectThat(rejectedToken(exchange), `${expected} for ${shown}`, exchange);
        else expectThat(unchallenged(exchange), `${noError} for ${shown}`, exchange);
      }
    },
  );

  const typed = (code: ErrorCode) => (exchange: Exchange) =>
    hasStatusAndCode(exchange, code) && hasErrorType(exchange, code);

  check(
    ['INF-SCHEMAS-ERROR-CODE-ONEOF-MISSING_TOKEN'],
    `${missingCode} comes with its status's error type, also for an Authorization header whose value is empty`,
    async () => {
      expectEvery(await withoutAuthorization(), typed(missingCode), errorLabel(missingCode));
      const blank = await send(routes.getAccount.method, routes.getAccount.url, {
        key: null,
        headers: { Authorization: '' },
      });
      expectThat(
        typed(missingCode)(blank),
        `${errorLabel(missingCode)} for an empty Authorization header`,
        blank,
      );
    },
  );

  check(
    ['INF-SCHEMAS-ERROR-CODE-ONEOF-INVALID_TOKEN'],
    `${invalidCode} comes with its status's error type`,
    async () => {
      const probes = [...(await withMalformedAuthorization()), ...(await withUnknownKeys())];
      expectEvery(probes, typed(invalidCode), errorLabel(invalidCode));
    },
  );

  check(
    ['INF-SCHEMAS-ERROR-CODE-ONEOF-KEY_REVOKED'],
    `${revokedCode} comes with its status's error type`,
    async ({ skip }) => {
      const probes = await withRevokedKey();
      if (probes === null) return skip(noRevokedKey);
      expectEvery(probes, typed(revokedCode), errorLabel(revokedCode));
    },
  );
});
