import type { StatementStructures } from 'ts-morph';
import { propertyKey, stringLiteral } from '../../ir/names.js';
import type { ChannelModuleContext } from './channel-module-context.js';
import type { MessagePlan } from './plan.js';
import { constant, docs, objectLiteral } from './structures.js';

/** Maps from the stream format a message stands for (`x-format`) to its id, encoder and decoder. */
export function formatMaps(context: ChannelModuleContext): StatementStructures[] {
  const { names, channel } = context.plan;
  const formatted = context.plan.messages.flatMap((plan) =>
    plan.format === null ? [] : [{ ...plan, format: plan.format }],
  );
  if (formatted.length === 0) return [];
  const map = (value: (plan: MessagePlan) => string) =>
    objectLiteral(formatted.map((plan): [string, string] => [propertyKey(plan.format), value(plan)]));
  const see = channel.origin;
  return [
    constant(
      names.messagesByFormat,
      map((plan) => stringLiteral(plan.message.id)),
      { docs: docs('The message id of each format (x-format).', see) },
    ),
    constant(
      names.encodersByFormat,
      map((plan) => plan.names.encode),
      { docs: docs('The encoder of each format (x-format).', see) },
    ),
    constant(
      names.decodersByFormat,
      map((plan) => plan.names.decode),
      { docs: docs('The decoder of each format (x-format).', see) },
    ),
  ];
}
