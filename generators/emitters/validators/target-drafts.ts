import type { ApiModel, Channel, Webhook } from '../../ir/model.js';
import { pascalCase } from '../../ir/names.js';
import { operationDrafts } from './operation-drafts.js';
import { parameterPolicy } from './parameter-schema.js';
import type { TargetDraft } from './target-draft.js';

function webhookDraft(webhook: Webhook): TargetDraft {
  return {
    symbolKind: 'webhook-payload',
    symbolId: webhook.name,
    baseName: `${pascalCase(webhook.id)}Payload`,
    schema: webhook.payload,
    parameters: false,
    type: { kind: 'webhook-payload', id: webhook.name, member: null },
    summary: `Payload of the ${webhook.name} webhook.`,
    origin: webhook.origin,
  };
}

function messageDrafts(channel: Channel): TargetDraft[] {
  return channel.messages.map((message) => ({
    symbolKind: 'message-payload',
    symbolId: `${channel.id}.${message.id}`,
    baseName: `${pascalCase(channel.id)}${pascalCase(message.id)}Payload`,
    schema: message.payload,
    parameters: false,
    type: { kind: 'channel-messages', id: channel.id, member: message.id },
    summary: `Payload of message ${message.id} on ${channel.address ?? channel.id} (${message.contentType}).`,
    origin: message.origin,
  }));
}

/** Every validation target of the model, in the IR's order: operations, then webhooks, then channel messages. */
export function targetDrafts(model: ApiModel): TargetDraft[] {
  const policy = parameterPolicy(model);
  return [
    ...model.operations.flatMap((operation) => operationDrafts(operation, policy)),
    ...model.webhooks.map(webhookDraft),
    ...model.channels.flatMap(messageDrafts),
  ];
}
