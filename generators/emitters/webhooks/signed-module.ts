import {
  type FunctionDeclarationStructure,
  type OptionalKind,
  type ParameterDeclarationStructure,
  type StatementStructures,
  StructureKind,
} from 'ts-morph';
import { stringLiteral } from '../../ir/names.js';
import type { EmitContext } from '../generated-file.js';
import {
  constant,
  eventImports,
  eventStatements,
  runtimeImport,
  validatorsInitializer,
} from './event-statements.js';
import { signatureConstants } from './signature-constants.js';
import type { SignaturePolicy } from './signature-policy.js';

type Parameter = OptionalKind<ParameterDeclarationStructure>;

function exported(
  name: string,
  parameters: Parameter[],
  body: string,
  description: string,
  returnType?: string,
): FunctionDeclarationStructure {
  return {
    kind: StructureKind.Function,
    name,
    isExported: true,
    parameters,
    ...(returnType === undefined ? {} : { returnType }),
    statements: [body],
    docs: [description],
  };
}

function receiver(policy: SignaturePolicy, discriminator: string | null, context: EmitContext) {
  const definition = [
    'scheme: webhookSignatureScheme,',
    'signatureHeader: webhookSignatureHeader,',
    `eventHeader: ${policy.eventHeader === null ? 'null' : 'webhookEventHeader'},`,
    'toleranceSeconds: webhookToleranceSeconds,',
    'eventNames: webhookEventNames,',
    `discriminator: ${discriminator === null ? 'null' : stringLiteral(discriminator)},`,
    `validators: ${validatorsInitializer(context)},`,
  ];
  return constant('receiver', `createWebhookReceiver<WebhookEvent>({\n${definition.join('\n')}\n})`, [], {
    isExported: false,
  });
}

const rawBody: Parameter = { name: 'rawBody', type: 'RawBody' };
const verifyParameters: Parameter[] = [
  rawBody,
  { name: 'headers', type: 'WebhookHeaders' },
  { name: 'secrets', type: 'readonly string[]' },
  { name: 'options', type: 'VerifyOptions', hasQuestionToken: true },
];

function functions(): FunctionDeclarationStructure[] {
  const receiverOptions: Parameter[] = [{ name: 'options', type: 'WebhookReceiverOptions & RawBodyOptions' }];
  const failure = 'Throws WebhookVerificationError, whose `reason` says why.';
  return [
    exported(
      'signWebhook',
      [
        rawBody,
        { name: 'secret', type: 'string | readonly string[]' },
        { name: 'timestamp', type: 'number', initializer: 'unixSeconds()' },
      ],
      'return signPayload({ secret, timestamp, rawBody, scheme: webhookSignatureScheme });',
      'The signature header value for a body; pass several secrets while one rotates.',
      'string',
    ),
    exported(
      'verifyWebhookSignature',
      verifyParameters,
      'return receiver.verifyWebhookSignature(rawBody, headers, secrets, options);',
      `Checks the signature and timestamp only and returns the signed timestamp. ${failure}`,
      'number',
    ),
    exported(
      'verifyWebhook',
      verifyParameters,
      'return receiver.verifyWebhook(rawBody, headers, secrets, options);',
      `Verifies a delivery and returns its event. ${failure}`,
      'WebhookEvent',
    ),
    exported(
      'fastifyWebhookPlugin',
      receiverOptions,
      'return createFastifyWebhookPlugin(receiver.bind(options), webhookContentTypes, options);',
      'A Fastify plugin for the scope holding the webhook routes: `request.body` becomes the verified event.',
    ),
    exported(
      'expressWebhookMiddleware',
      receiverOptions,
      'return createExpressWebhookMiddleware(receiver.bind(options), options);',
      'Express middleware: `request.body` becomes the verified event; failures go to `next(error)`.',
    ),
    exported(
      'nodeWebhookReader',
      receiverOptions,
      'return createNodeWebhookReader(receiver.bind(options), options);',
      'For node:http: `await readAndVerify(request)` reads the raw body and returns the verified event.',
    ),
  ];
}

/** Signing, verification and the three receivers, bound to the spec's signature policy. */
export function signedModule(
  context: EmitContext,
  policy: SignaturePolicy,
  discriminator: string | null,
): StatementStructures[] {
  const narrowing = discriminator === null ? '' : `: narrow it with \`${discriminator}\``;
  return [
    runtimeImport(
      context,
      'webhook-middleware',
      ['createWebhookReceiver'],
      ['VerifyOptions', 'WebhookHeaders', 'WebhookReceiverOptions'],
    ),
    runtimeImport(context, 'webhook-middleware-express', ['createExpressWebhookMiddleware']),
    runtimeImport(context, 'webhook-middleware-fastify', ['createFastifyWebhookPlugin']),
    runtimeImport(context, 'webhook-middleware-node', ['createNodeWebhookReader'], ['RawBodyOptions']),
    runtimeImport(
      context,
      'webhook-signature',
      ['defineSignatureScheme', 'signPayload', 'unixSeconds'],
      ['RawBody'],
    ),
    ...eventImports(context),
    ...eventStatements(context, `The body of a delivery${narrowing}.`),
    ...signatureConstants(policy, context),
    receiver(policy, discriminator, context),
    ...functions(),
  ];
}
