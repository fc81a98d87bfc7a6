import { schemaPatterns } from '../../generated/types/facts.js';

/** The id pattern of each `object` kind the API returns. */
const idPatternOf: Readonly<Record<string, string>> = {
  stream: schemaPatterns.StreamId,
  report: schemaPatterns.ReportId,
  record: schemaPatterns.RecordId,
  webhook: schemaPatterns.WebhookId,
  event: schemaPatterns.EventId,
  webhook_delivery: schemaPatterns.DeliveryId,
  account: schemaPatterns.AccountId,
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Every problem with ids and timestamps anywhere in a body: an object's `id` must match its kind's pattern, and every
 * `...At` field must be an ISO 8601 UTC timestamp that names a real instant. An empty list means the body is fine.
 */
export function idAndTimeProblems(body: unknown, where = '$'): string[] {
  if (Array.isArray(body))
    return body.flatMap((item, index) => idAndTimeProblems(item, `${where}[${index}]`));
  if (!isRecord(body)) return [];
  const problems: string[] = [];
  const pattern = typeof body.object === 'string' ? idPatternOf[body.object] : undefined;
  if (pattern !== undefined && !new RegExp(pattern).test(String(body.id))) {
    problems.push(`${where}.id ${String(body.id)} does not match ${pattern}`);
  }
  for (const [name, value] of Object.entries(body)) {
    if (name.endsWith('At') && typeof value === 'string') {
      const isUtc = new RegExp(schemaPatterns.Timestamp).test(value) && !Number.isNaN(Date.parse(value));
      if (!isUtc) problems.push(`${where}.${name} ${value} is not an ISO 8601 UTC timestamp`);
    }
    problems.push(...idAndTimeProblems(value, `${where}.${name}`));
  }
  return problems;
}
