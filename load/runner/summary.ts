import type { Aggregator } from './aggregator.js';
import { peakRssMb } from './collect-result.js';
import type { LatencySummary, RunResult, TimelinePoint } from './result.js';

function ms(value: number | null): string {
  return value === null ? 'n/a' : `${value.toFixed(2)}ms`;
}

function latencyLine(summary: LatencySummary): string {
  return `avg=${ms(summary.mean)} p(50)=${ms(summary.p50)} p(95)=${ms(summary.p95)} p(99)=${ms(summary.p99)} max=${ms(summary.max)}`;
}

function row(name: string, value: string): string {
  return `     ${name.padEnd(28, '.')}: ${value}`;
}

/** One line per second while the run lasts. */
export function progressLine(point: TimelinePoint, aggregator: Aggregator): string {
  const parts = [`${String(point.second + 1).padStart(4)}s`];
  if (aggregator.sent > 0 || aggregator.received > 0)
    parts.push(
      `sent ${point.sent}/s`,
      `recv ${point.received}/s`,
      `lost ${aggregator.gaps()}`,
      `p99 ${ms(point.p99)}`,
    );
  if (point.restRequests > 0 || aggregator.restLatency.count > 0)
    parts.push(
      `rest ${point.restRequests}/s`,
      `rest p99 ${ms(point.restP99)}`,
      `429 ${aggregator.statuses['429'] ?? 0}`,
    );
  return parts.join('  ');
}

/** The end-of-run summary, laid out like k6's: thresholds first with ✓/✗, then the metrics. */
export function summaryText(result: RunResult): string {
  const lines = [
    '',
    `  scenario: ${result.scenario} (${result.seconds.toFixed(1)} s)`,
    `  target:   ${result.target}`,
    '',
    '  THRESHOLDS',
    ...result.thresholds.map(
      (verdict) =>
        `    ${verdict.passed ? '✓' : '✗'} ${verdict.name} ${verdict.limit} (actual ${verdict.actual})`,
    ),
    '',
  ];
  const ingest = result.ingest;
  if (ingest !== null) {
    const seconds = Math.max(result.seconds, 1);
    lines.push(
      '  INGEST → FAN-OUT',
      row('streams × subscribers', `${ingest.streams} streams, ${ingest.subscribers} subscribers`),
      row(
        'samples_sent',
        `${ingest.sent} (${(ingest.sent / seconds).toFixed(0)}/s), ${ingest.publishErrors} publish errors`,
      ),
      row(
        'samples_received',
        `${ingest.received} of ${ingest.expected} owed (${(ingest.received / seconds).toFixed(0)}/s)`,
      ),
      row('samples_lost', `${ingest.lost} (${(ingest.lossRatio * 100).toFixed(3)}%)`),
      row('samples_reordered', String(ingest.reordered)),
      row('samples_duplicated', String(ingest.duplicated)),
      row('latency (publish→receive)', latencyLine(ingest.latencyMs)),
      row(
        'pacing',
        `${ingest.pacing.sent}/${ingest.pacing.scheduled} sent, ${ingest.pacing.late} late, max lag ${ms(ingest.pacing.maxLagMs)}`,
      ),
      '',
    );
  }
  const rest = result.rest;
  if (rest !== null) {
    const statuses = Object.entries(rest.byStatus)
      .map(([status, count]) => `${status}: ${count}`)
      .join(', ');
    lines.push(
      '  REST',
      row('http_reqs', `${rest.requests} (${(rest.requests / Math.max(result.seconds, 1)).toFixed(1)}/s)`),
      row('http_req_duration', latencyLine(rest.latencyMs)),
      row('statuses', statuses),
      row('http_req_failed', `${rest.errors}`),
      row(
        'rate_limited (429)',
        `${rest.rateLimited}${rest.expectedRateLimited === null ? '' : ` (expected ${rest.expectedRateLimited})`}`,
      ),
      row('pacing', `${rest.pacing.sent}/${rest.pacing.scheduled} sent, ${rest.pacing.late} late`),
      '',
    );
  }
  if (result.targetMemory !== null) {
    const last = result.targetMemory.samples.at(-1);
    lines.push(
      '  TARGET MEMORY',
      row('rss (last)', last === undefined ? 'n/a' : `${last.rssMb.toFixed(1)} MiB`),
      row('rss (peak)', `${peakRssMb(result.targetMemory.samples)?.toFixed(1) ?? 'n/a'} MiB`),
      row(
        'rss growth',
        result.targetMemory.growthMb === null ? 'n/a' : `${result.targetMemory.growthMb.toFixed(1)} MiB`,
      ),
      '',
    );
  }
  const shed = result.targetShedding;
  if (shed !== null && shed.shedMessages + shed.refusedConnections + shed.episodes > 0)
    lines.push(
      '  TARGET OVERLOAD (x-ingest-rules.overload)',
      row('samples shed', `${shed.shedMessages} (device.error service_overloaded)`),
      row('connections refused busy', String(shed.refusedConnections)),
      row('overload episodes', String(shed.episodes)),
      '',
    );
  lines.push(
    `  ${result.passed ? 'PASSED' : 'FAILED'}: ${result.thresholds.filter((verdict) => !verdict.passed).length} of ${result.thresholds.length} thresholds failed`,
  );
  return lines.join('\n');
}
