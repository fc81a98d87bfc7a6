import { type StatementStructures, StructureKind } from 'ts-morph';
import { propertyKey, stringLiteral } from '../../ir/names.js';
import type { ChannelModuleContext } from './channel-module-context.js';
import { formatMaps } from './format-maps.js';
import type { MessagePlan } from './plan.js';
import { constant, docs, objectLiteral, returningFunction, typeLiteral } from './structures.js';

const codecsModule = 'codecs/index';

/** The type a message's encoder takes and its decoder returns. */
function payloadType(context: ChannelModuleContext, plan: MessagePlan): string {
  const { codec } = plan;
  if (codec.kind === 'text') return 'string';
  if (plan.decodesTo !== null)
    return context.imports.type(context.symbols.lookup('types', 'schema', plan.decodesTo));
  if (codec.kind === 'csv') {
    const sample = context.imports.runtime(codecsModule, 'CsvSample', true);
    return `${sample}<${stringLiteral(codec.layout.timestampField)}, ${stringLiteral(codec.layout.valuesField)}>`;
  }
  const messages = context.imports.type(
    context.symbols.lookup('types', 'channel-messages', context.plan.channel.id),
  );
  return `${messages}[${stringLiteral(plan.message.id)}]`;
}

function codecInitializer(context: ChannelModuleContext, plan: MessagePlan): string {
  const { codec } = plan;
  const contentType = stringLiteral(plan.message.contentType);
  if (codec.kind !== 'csv')
    return `${context.imports.runtime(codecsModule, `${codec.kind}Codec`)}(${contentType})`;
  const layout = objectLiteral(
    Object.entries(codec.layout).map(([field, value]): [string, string] => [
      field,
      stringLiteral(String(value)),
    ]),
    false,
  );
  return `${context.imports.runtime(codecsModule, 'csvCodec')}(${contentType}, ${layout})`;
}

function messageFunctions(context: ChannelModuleContext, plan: MessagePlan): StatementStructures[] {
  const { names, message } = plan;
  const encoded = context.imports.runtime(codecsModule, 'EncodedPayload', true);
  const payload = `${context.plan.names.payloads}[${stringLiteral(message.id)}]`;
  const codec = `${context.plan.names.codecs}.${message.id}`;
  const title = message.title ?? message.name;
  return [
    returningFunction(
      names.encode,
      [['payload', payload]],
      encoded,
      `${codec}.encode(payload)`,
      docs(`Encodes ${title} as ${message.contentType}.`, message.origin),
    ),
    returningFunction(
      names.decode,
      [['data', encoded]],
      payload,
      `${codec}.decode(data)`,
      docs(
        `Decodes ${title} from ${message.contentType}; throws CodecError when the data is not valid ${message.contentType}.`,
        message.origin,
      ),
    ),
  ];
}

export function codecStatements(context: ChannelModuleContext): StatementStructures[] {
  const { plan } = context;
  if (plan.messages.length === 0) return [];
  const payloads = plan.messages.map((message): [string, string] => [
    propertyKey(message.message.id),
    payloadType(context, message),
  ]);
  const channelCodecs = context.imports.runtime(codecsModule, 'ChannelCodecs', true);
  const codecs = plan.messages.map((message): [string, string] => [
    propertyKey(message.message.id),
    codecInitializer(context, message),
  ]);
  return [
    {
      kind: StructureKind.TypeAlias,
      name: plan.names.payloads,
      isExported: true,
      type: typeLiteral(payloads),
      docs: docs(
        `What each message of ${plan.channel.id} encodes from and decodes to, by message id.`,
        plan.channel.origin,
      ),
    },
    constant(plan.names.codecs, objectLiteral(codecs, false), {
      type: `${channelCodecs}<${plan.names.payloads}>`,
      docs: docs(`The codec of each message of ${plan.channel.id}.`, plan.channel.origin),
    }),
    ...plan.messages.flatMap((message) => messageFunctions(context, message)),
    ...formatMaps(context),
  ];
}
