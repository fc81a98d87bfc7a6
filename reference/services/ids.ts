import { schemaPatterns } from '../../generated/types/facts.js';
import { randomMatching } from '../random-token.js';

type IdKind =
  | 'StreamId'
  | 'ReportId'
  | 'RecordId'
  | 'WebhookId'
  | 'EventId'
  | 'DeliveryId'
  | 'SubscriberId'
  | 'AccountId'
  | 'RequestId';

/** A new id of a kind, in the format of the spec's pattern for it. */
export function newId(kind: IdKind): string {
  return randomMatching(schemaPatterns[kind], 20);
}
