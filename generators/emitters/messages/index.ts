import type { ApiModel } from '../../ir/model.js';
import type { EmitContext, Emitter, GeneratedFile } from '../generated-file.js';
import { printTypeScript } from '../print.js';
import { relativeImport, type SymbolDeclaration } from '../symbols.js';
import { channelModule, exportAll } from './channel-module.js';
import { type ChannelPlan, planChannel } from './plan.js';

const indexFile = 'messages/index.ts';

function channelSymbols(plan: ChannelPlan): SymbolDeclaration[] {
  const { names, channel } = plan;
  const symbol = (kind: string, exportName: string, id = channel.id): SymbolDeclaration => ({
    artifact: 'messages',
    kind,
    id,
    file: names.file,
    exportName,
  });
  const hasFormats = plan.messages.some((message) => message.format !== null);
  return [
    symbol('channel-content-types', names.contentTypes),
    ...(plan.address === null
      ? []
      : [symbol('channel-address', names.address), symbol('channel-address-parser', names.parseAddress)]),
    ...(plan.messages.length === 0
      ? []
      : [symbol('channel-payloads', names.payloads), symbol('channel-codecs', names.codecs)]),
    ...plan.messages.flatMap((message) => [
      symbol('message-encoder', message.names.encode, `${channel.id}.${message.message.id}`),
      symbol('message-decoder', message.names.decode, `${channel.id}.${message.message.id}`),
    ]),
    ...(hasFormats
      ? [
          symbol('channel-messages-by-format', names.messagesByFormat),
          symbol('channel-encoders-by-format', names.encodersByFormat),
          symbol('channel-decoders-by-format', names.decodersByFormat),
        ]
      : []),
    ...(plan.publisher ? [symbol('channel-publisher', names.publisher)] : []),
    ...(plan.subscriber ? [symbol('channel-subscriber', names.subscriber)] : []),
  ];
}

/** Problems are reported by emit; declare only needs the names, so it plans into a scratch list. */
function declare(model: ApiModel): SymbolDeclaration[] {
  return model.channels.flatMap((channel) => channelSymbols(planChannel(model, channel, [])));
}

function emit({ model, symbols, problems, config }: EmitContext): GeneratedFile[] {
  if (model.channels.length === 0) return [];
  const plans = model.channels.map((channel) => planChannel(model, channel, problems));
  return [
    ...plans.map((plan) => printTypeScript(model, plan.names.file, channelModule(plan, symbols, config))),
    printTypeScript(model, indexFile, {
      statements: plans.map((plan) => exportAll(relativeImport(indexFile, plan.names.file))),
    }),
  ];
}

export const messagesEmitter: Emitter = { name: 'messages', declare, emit };
