import { type StatementStructures, StructureKind } from 'ts-morph';
import { stringLiteral } from '../../ir/names.js';
import type { EmitContext } from '../generated-file.js';
import {
  constant,
  eventImports,
  eventStatements,
  runtimeImport,
  validatorsInitializer,
} from './event-statements.js';

/**
 * A spec without `x-webhook-delivery` says neither how deliveries are signed nor which header names the event, so
 * its module only lists the events and parses a payload whose event the caller names (from the URL it registered,
 * say); it cannot sign or verify.
 */
export function unsignedModule(context: EmitContext, discriminator: string | null): StatementStructures[] {
  const payloads = context.symbols.lookup('types', 'webhook-payloads', 'map').exportName;
  const events = [
    'eventNames: webhookEventNames,',
    `discriminator: ${discriminator === null ? 'null' : stringLiteral(discriminator)},`,
    `validators: ${validatorsInitializer(context)},`,
  ];
  return [
    runtimeImport(context, 'webhook-middleware', ['parseWebhookEvent'], ['WebhookEventsDefinition']),
    runtimeImport(context, 'webhook-signature', [], ['RawBody']),
    ...eventImports(context),
    ...eventStatements(
      context,
      'The body of a delivery. The spec has no x-webhook-delivery: nothing here signs or verifies deliveries.',
    ),
    constant('events', `{\n${events.join('\n')}\n}`, [], {
      isExported: false,
      type: 'WebhookEventsDefinition',
    }),
    {
      kind: StructureKind.Function,
      name: 'parseWebhook',
      isExported: true,
      typeParameters: [{ name: 'Name', constraint: 'WebhookEventName' }],
      parameters: [
        { name: 'eventName', type: 'Name' },
        { name: 'rawBody', type: 'RawBody' },
      ],
      returnType: `${payloads}[Name]`,
      statements: [`return parseWebhookEvent<${payloads}[Name]>(rawBody, eventName, events);`],
      docs: [
        'Parses the body of a delivery of `eventName`. Throws WebhookVerificationError, whose `reason` says why.',
      ],
    },
  ];
}
