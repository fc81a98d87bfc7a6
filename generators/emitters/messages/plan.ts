import { type AddressStyle, compileAddressTemplate } from '../../../runtime/address-template.js';
import { codecKind } from '../../../runtime/codecs/content-types.js';
import type { CsvLayout } from '../../../runtime/codecs/csv.js';
import type { ApiModel, Channel, Message } from '../../ir/model.js';
import type { Problem } from '../../problems.js';
import { csvLayoutOf, decodedSchemaName, problemAt } from './extensions.js';
import { type ChannelNames, channelNames, messageNames } from './names.js';

export type CodecPlan = { kind: 'json' | 'msgpack' | 'text' } | { kind: 'csv'; layout: CsvLayout };

export interface MessagePlan {
  message: Message;
  names: ReturnType<typeof messageNames>;
  codec: CodecPlan;
  /** The named schema a message decodes to when its payload describes the wire text (`x-decodes-to`). */
  decodesTo: string | null;
  /** The stream format the message stands for (`x-format`). */
  format: string | null;
}

export interface ChannelPlan {
  channel: Channel;
  names: ChannelNames;
  /** The address template when it compiles and names only declared parameters. */
  address: string | null;
  style: AddressStyle;
  /** Messages with a codec; the others get no encoder and are reported. */
  messages: MessagePlan[];
  publisher: boolean;
  subscriber: boolean;
}

const mqttProtocols = new Set(['mqtt', 'mqtts', 'secure-mqtt']);
const webSocketProtocols = new Set(['ws', 'wss']);
const urlProtocols = new Set(['http', 'https', 'ws', 'wss']);

/** URL paths percent-encode parameters; anything else is a topic whose separators and wildcards are refused. */
function addressStyle(protocols: readonly string[]): AddressStyle {
  return protocols.length > 0 && protocols.every((protocol) => urlProtocols.has(protocol)) ? 'path' : 'topic';
}

function checkedAddress(channel: Channel, style: AddressStyle, problems: Problem[]): string | null {
  if (channel.address === null) return null;
  const declared = new Set(channel.parameters.map((parameter) => parameter.name));
  try {
    const undeclared = compileAddressTemplate(channel.address, style).parameterNames.filter(
      (name) => !declared.has(name),
    );
    if (undeclared.length === 0) return channel.address;
    problems.push(
      problemAt(channel.origin, '/address', `parameter(s) ${undeclared.join(', ')} not declared`),
    );
  } catch (error) {
    problems.push(problemAt(channel.origin, '/address', (error as Error).message));
  }
  return null;
}

function codecPlan(message: Message, problems: Problem[]): CodecPlan | null {
  const kind = codecKind(message.contentType);
  if (kind !== 'csv') return kind === null ? null : { kind };
  const layout = csvLayoutOf(message, problems);
  return layout === null ? { kind: 'text' } : { kind: 'csv', layout };
}

function planMessage(model: ApiModel, channel: Channel, message: Message, problems: Problem[]) {
  const codec = codecPlan(message, problems);
  if (codec === null) {
    const text = `no codec for ${message.contentType}; the message gets no encoder or decoder`;
    problems.push({ ...problemAt(message.origin, '/contentType', text), severity: 'warning' });
    return [];
  }
  const format = message.extensions['x-format'];
  return [
    {
      message,
      names: messageNames(model, channel, message),
      codec,
      decodesTo: codec.kind === 'csv' ? decodedSchemaName(model, message.extensions['x-decodes-to']) : null,
      format: typeof format === 'string' ? format : null,
    },
  ];
}

export function planChannel(model: ApiModel, channel: Channel, problems: Problem[]): ChannelPlan {
  const style = addressStyle(channel.protocols);
  const address = checkedAddress(channel, style, problems);
  const messages = channel.messages.flatMap((message) => planMessage(model, channel, message, problems));
  const formats = messages.flatMap((plan) => (plan.format === null ? [] : [plan.format]));
  if (new Set(formats).size !== formats.length) {
    problems.push(problemAt(channel.origin, '/messages', 'two messages share one x-format'));
  }
  const speaks = (protocols: Set<string>) => channel.protocols.some((protocol) => protocols.has(protocol));
  const transport = address !== null && messages.length > 0;
  return {
    channel,
    names: channelNames(channel),
    address,
    style,
    messages,
    publisher: transport && speaks(mqttProtocols),
    subscriber: transport && speaks(webSocketProtocols),
  };
}
