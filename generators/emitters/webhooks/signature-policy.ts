import { type JsonObject, objectAt } from '../../ir/json.js';
import type { ApiModel } from '../../ir/model.js';
import { commentText } from '../../ir/names.js';
import type { Problem } from '../../problems.js';

/** What the generated code needs of `x-webhook-delivery.signature`, every value taken from the spec. */
export interface SignaturePolicy {
  header: string;
  /** null when the spec names no event header. */
  eventHeader: string | null;
  timestampKey: string;
  signatureKey: string;
  algorithm: string;
  payloadSeparator: string;
  toleranceSeconds: number;
  /** `verification.key`: how the secret becomes the HMAC key, as the spec words it. */
  keyDescription: string | null;
  /** `<file>#<pointer>` of the signature object, for `@see`. */
  origin: string;
}

const extension = 'x-webhook-delivery';
const formatPattern = /^([a-z][a-z0-9]*)=<unix_seconds>,([a-z][a-z0-9]*)=<hex_signature>$/;
const signedPayloadPattern = /^<([a-z][a-z0-9]*)>(.*)<raw_request_body>$/;

export function hasDeliveryPolicy(model: ApiModel): boolean {
  return model.extensions[extension] !== undefined;
}

function openapiFile(model: ApiModel): string {
  return model.sources.find((source) => source.kind === 'openapi')?.file ?? '';
}

type Check = [field: string, holds: boolean, message: string];

function isName(value: unknown): boolean {
  return typeof value === 'string' && value !== '';
}

/** Every rule the policy must satisfy for the runtime to honour it; fixed fields must be absent or the one value. */
function checks(
  signature: JsonObject,
  verification: JsonObject | null,
  format: RegExpExecArray | null,
  signedPayload: RegExpExecArray | null,
): Check[] {
  const tolerance = signature.toleranceSeconds;
  const unsupported = 'asks for something the signature runtime does not implement';
  return [
    ['signature/header', isName(signature.header), 'is not a name'],
    [
      'signature/eventHeader',
      signature.eventHeader === undefined || isName(signature.eventHeader),
      'is not a name',
    ],
    ['signature/format', format !== null, 'is not <key>=<unix_seconds>,<key>=<hex_signature>'],
    ['signature/algorithm', /^HMAC-[A-Za-z0-9-]+$/.test(String(signature.algorithm)), 'is not HMAC-<hash>'],
    [
      'signature/signedPayload',
      signedPayload !== null && (format === null || signedPayload[1] === format[1]),
      'is not <timestamp key><separator><raw_request_body>',
    ],
    [
      'signature/toleranceSeconds',
      typeof tolerance === 'number' && tolerance > 0 && Number.isFinite(tolerance),
      'is not a positive number of seconds',
    ],
    ['signature/digest', signature.digest === undefined || signature.digest === 'hex', unsupported],
    [
      'signature/comparison',
      signature.comparison === undefined || signature.comparison === 'constant-time',
      unsupported,
    ],
    [
      'verification/hexCase',
      verification?.hexCase === undefined || verification.hexCase === 'lowercase',
      unsupported,
    ],
  ];
}

/**
 * Reads `x-webhook-delivery.signature`: `format` (`t=<unix_seconds>,v1=<hex_signature>`) gives the timestamp and
 * signature keys, `signedPayload` (`<t>.<raw_request_body>`) the separator. What the runtime cannot honour is
 * reported as a problem and null is returned; a spec without the extension also gives null, silently.
 */
export function readSignaturePolicy(model: ApiModel, problems: Problem[]): SignaturePolicy | null {
  const delivery = model.extensions[extension];
  if (delivery === undefined) return null;
  const file = openapiFile(model);
  const report = (field: string, message: string) =>
    problems.push({
      severity: 'error',
      file,
      pointer: `/${extension}/${field}`,
      message,
      rule: 'webhooks/unsupported-delivery',
    });
  const signature = objectAt(delivery, 'signature');
  if (signature === null) {
    report('signature', 'has no signature object');
    return null;
  }
  const format = formatPattern.exec(String(signature.format));
  const signedPayload = signedPayloadPattern.exec(String(signature.signedPayload));
  const verification = objectAt(delivery, 'verification');
  const failed = checks(signature, verification, format, signedPayload).filter(([, holds]) => !holds);
  for (const [field, , message] of failed) report(field, message);
  if (failed.length > 0 || format === null || signedPayload === null) return null;
  return {
    header: String(signature.header),
    eventHeader: typeof signature.eventHeader === 'string' ? signature.eventHeader : null,
    timestampKey: format[1] ?? '',
    signatureKey: format[2] ?? '',
    algorithm: String(signature.algorithm),
    payloadSeparator: signedPayload[2] ?? '',
    toleranceSeconds: Number(signature.toleranceSeconds),
    keyDescription: commentText(typeof verification?.key === 'string' ? verification.key : null),
    origin: `${file}#/${extension}/signature`,
  };
}
