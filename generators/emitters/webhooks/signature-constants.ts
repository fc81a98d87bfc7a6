import type { StatementStructures } from 'ts-morph';
import { stringLiteral } from '../../ir/names.js';
import type { EmitContext } from '../generated-file.js';
import { constant } from './event-statements.js';
import type { SignaturePolicy } from './signature-policy.js';

/** The spec's signature facts as exported constants; the runtime receives them as parameters. */
export function signatureConstants(policy: SignaturePolicy, context: EmitContext): StatementStructures[] {
  const see = `@see ${policy.origin}`;
  const contentTypes = [...new Set(context.model.webhooks.map((webhook) => webhook.contentType))].sort();
  const scheme = [
    `timestampKey: ${stringLiteral(policy.timestampKey)},`,
    `signatureKey: ${stringLiteral(policy.signatureKey)},`,
    `algorithm: ${stringLiteral(policy.algorithm)},`,
    `payloadSeparator: ${stringLiteral(policy.payloadSeparator)},`,
  ];
  return [
    constant('webhookSignatureHeader', stringLiteral(policy.header), [
      `The header carrying the signature.\n${see}`,
    ]),
    ...(policy.eventHeader === null
      ? []
      : [
          constant('webhookEventHeader', stringLiteral(policy.eventHeader), [
            `The header naming the event.\n${see}`,
          ]),
        ]),
    constant('webhookToleranceSeconds', String(policy.toleranceSeconds), [
      `How far a signed timestamp may be from the receiver's clock, either way.\n${see}`,
    ]),
    constant('webhookSignatureScheme', `defineSignatureScheme({\n${scheme.join('\n')}\n})`, [
      `How the signature is computed and written.${policy.keyDescription === null ? '' : ` Key: ${policy.keyDescription}.`}\n${see}`,
    ]),
    constant('webhookContentTypes', `[${contentTypes.map(stringLiteral).join(', ')}] as const`, [
      'Media types of delivery bodies: the Fastify plugin reads these raw.',
    ]),
  ];
}
