import type { ApiModel, Channel, Message } from '../../ir/model.js';
import { pascalCase } from '../../ir/names.js';

/** The file and export names of one channel's module; `declare` and `emit` both read them from here. */
export function channelNames(channel: Channel) {
  const pascal = pascalCase(channel.id);
  const fileName = channel.id
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .toLowerCase();
  return {
    file: `messages/${fileName}.ts`,
    template: `${channel.id}Template`,
    address: `${channel.id}Address`,
    parseAddress: `parse${pascal}Address`,
    payloads: `${pascal}Payloads`,
    contentTypes: `${channel.id}ContentTypes`,
    codecs: `${channel.id}Codecs`,
    messagesByFormat: `${channel.id}MessagesByFormat`,
    encodersByFormat: `${channel.id}EncodersByFormat`,
    decodersByFormat: `${channel.id}DecodersByFormat`,
    publisher: `create${pascal}Publisher`,
    subscriber: `subscribe${pascal}`,
  };
}

export type ChannelNames = ReturnType<typeof channelNames>;

/** `encode<Message>`; a message id that several channels use is prefixed with its channel, so names stay unique. */
export function messageNames(model: ApiModel, channel: Channel, message: Message) {
  const sharing = model.channels.filter((candidate) =>
    candidate.messages.some((other) => other.id === message.id),
  ).length;
  const base = `${sharing > 1 ? pascalCase(channel.id) : ''}${pascalCase(message.id)}`;
  return { encode: `encode${base}`, decode: `decode${base}` };
}
