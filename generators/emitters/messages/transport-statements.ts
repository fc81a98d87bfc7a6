import type { StatementStructures } from 'ts-morph';
import type { ChannelModuleContext } from './channel-module-context.js';
import { docs, returningFunction } from './structures.js';

function publisher(context: ChannelModuleContext): StatementStructures {
  const { names, channel, address } = context.plan;
  const module = 'mqtt-publisher';
  const options = context.imports.runtime(module, 'MqttPublisherOptions', true);
  const result = context.imports.runtime(module, 'MqttPublisher', true);
  const create = context.imports.runtime(module, 'createMqttPublisher');
  return returningFunction(
    names.publisher,
    [['options', `${options}<${context.parametersType()}>`]],
    `Promise<${result}<${names.payloads}>>`,
    `${create}({ address: ${names.template}, codecs: ${names.codecs} }, options)`,
    docs(
      `Connects to an MQTT broker and publishes ${channel.id} messages to the ${address} topic, each in its content type.`,
      channel.origin,
    ),
  );
}

/** One decoder per content type: the subscriber picks a frame's decoder by whether the frame is binary. */
function subscriber(context: ChannelModuleContext): StatementStructures {
  const { names, channel, address, messages } = context.plan;
  const module = 'ws-subscriber';
  const options = context.imports.runtime(module, 'WsSubscriberOptions', true);
  const result = context.imports.runtime(module, 'WsSubscription', true);
  const subscribe = context.imports.runtime(module, 'subscribeChannel');
  const decoders = messages
    .filter(
      (plan, index) =>
        messages.findIndex((other) => other.message.contentType === plan.message.contentType) === index,
    )
    .map((plan) => `${names.codecs}.${plan.message.id}`);
  return returningFunction(
    names.subscriber,
    [['options', `${options}<${context.parametersType()}, ${names.payloads}[keyof ${names.payloads}]>`]],
    `Promise<${result}>`,
    `${subscribe}({ address: ${names.template}, decoders: [${decoders.join(', ')}] }, options)`,
    docs(
      `Opens a WebSocket to the ${address} path of the given server and delivers each ${channel.id} message it receives.`,
      channel.origin,
    ),
  );
}

export function transportStatements(context: ChannelModuleContext): StatementStructures[] {
  return [
    ...(context.plan.publisher ? [publisher(context)] : []),
    ...(context.plan.subscriber ? [subscriber(context)] : []),
  ];
}
