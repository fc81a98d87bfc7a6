import type { ApiModel } from '../../ir/model.js';
import type { EmitContext, Emitter, GeneratedFile } from '../generated-file.js';
import { printTypeScript } from '../print.js';
import type { SymbolDeclaration } from '../symbols.js';
import { findDiscriminator } from './discriminator.js';
import { webhooksFile } from './event-statements.js';
import { hasDeliveryPolicy, readSignaturePolicy } from './signature-policy.js';
import { signedModule } from './signed-module.js';
import { unsignedModule } from './unsigned-module.js';

/**
 * The webhooks artifact: one module per spec. With `x-webhook-delivery` it signs, verifies and offers receivers for
 * Fastify, Express and node:http, every name and number taken from the spec; without it, only the event list, the
 * payload union and a parser (see unsigned-module.ts). A spec without webhooks gets nothing.
 */
function declare(model: ApiModel): SymbolDeclaration[] {
  if (model.webhooks.length === 0) return [];
  const symbol = (kind: string, id: string, exportName: string): SymbolDeclaration => ({
    artifact: 'webhooks',
    kind,
    id,
    file: webhooksFile,
    exportName,
  });
  const common = [
    symbol('event-names', 'list', 'webhookEventNames'),
    symbol('event', 'union', 'WebhookEvent'),
  ];
  if (!hasDeliveryPolicy(model)) return [...common, symbol('parse', 'json', 'parseWebhook')];
  return [
    ...common,
    symbol('signature', 'sign', 'signWebhook'),
    symbol('signature', 'verify', 'verifyWebhook'),
    symbol('signature', 'header', 'webhookSignatureHeader'),
    symbol('signature', 'tolerance', 'webhookToleranceSeconds'),
    ...((readSignaturePolicy(model, [])?.eventHeader ?? null) === null
      ? []
      : [symbol('signature', 'event-header', 'webhookEventHeader')]),
    symbol('receiver', 'fastify', 'fastifyWebhookPlugin'),
    symbol('receiver', 'express', 'expressWebhookMiddleware'),
    symbol('receiver', 'node', 'nodeWebhookReader'),
  ];
}

function emit(context: EmitContext): GeneratedFile[] {
  const { model } = context;
  if (model.webhooks.length === 0) return [];
  if (!context.symbols.has('types', 'webhook-payloads', 'map')) {
    context.problems.push({
      severity: 'error',
      file: model.sources.find((source) => source.kind === 'openapi')?.file ?? '',
      pointer: '/webhooks',
      message: 'the webhooks artifact needs the types artifact (add "types" to artifacts)',
      rule: 'webhooks/needs-types',
    });
    return [];
  }
  const discriminator = findDiscriminator(model);
  if (!hasDeliveryPolicy(model)) {
    return [printTypeScript(model, webhooksFile, { statements: unsignedModule(context, discriminator) })];
  }
  const policy = readSignaturePolicy(model, context.problems);
  if (policy === null) return [];
  return [printTypeScript(model, webhooksFile, { statements: signedModule(context, policy, discriminator) })];
}

export const webhooksEmitter: Emitter = { name: 'webhooks', declare, emit };
