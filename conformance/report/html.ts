import type { TargetDescription } from '../harness/target.js';
import {
  type CheckResult,
  headline,
  type RequirementRow,
  type RequirementStatus,
  type Totals,
} from './results.js';

export function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (character) => `&#${character.charCodeAt(0)};`);
}

const colours: Record<RequirementStatus, string> = {
  passed: '#1a7f37',
  failed: '#cf222e',
  skipped: '#9a6700',
  'not covered': '#6e7781',
};

/** A spec pointer `openapi.yaml#/x-webhook-delivery/method` as a link into the repository's spec/ (the report sits beside it). */
function specLink(pointer: string): string {
  const [file, fragment = ''] = pointer.split('#');
  return `<a href="../spec/${escapeXml(file ?? '')}" title="${escapeXml(fragment)}"><code>${escapeXml(pointer)}</code></a>`;
}

interface Timeline {
  kind: 'timeline';
  scale: number;
  schedule: number[];
  attempts: Array<{ at: number; answer: number | string }>;
}

const isTimeline = (data: unknown): data is Timeline =>
  (data as { kind?: unknown } | null)?.kind === 'timeline' && Array.isArray((data as Timeline).attempts);

/** Attempts as dots on a line, the schedule's due times as ticks: both in wall milliseconds from the first attempt. */
function timelineSvg(timeline: Timeline): string {
  const first = timeline.attempts[0]?.at ?? 0;
  const due: number[] = [0];
  for (const delay of timeline.schedule) due.push((due.at(-1) ?? 0) + (delay * 1000) / timeline.scale);
  const span = Math.max(...due, ...timeline.attempts.map((attempt) => attempt.at - first), 1);
  const x = (milliseconds: number) => 10 + (milliseconds / span) * 780;
  const ticks = due
    .map(
      (at, index) =>
        `<line x1="${x(at)}" x2="${x(at)}" y1="10" y2="50" stroke="#6e7781" stroke-dasharray="3"><title>due ${index === 0 ? 'first attempt' : `retry ${index}`}: ${at.toFixed(0)} ms</title></line>`,
    )
    .join('');
  const dots = timeline.attempts
    .map(
      (attempt, index) =>
        `<circle cx="${x(attempt.at - first)}" cy="30" r="5" fill="#cf222e"><title>attempt ${index + 1}: +${attempt.at - first} ms, answered ${escapeXml(String(attempt.answer))}</title></circle>`,
    )
    .join('');
  return `<svg width="800" height="60" role="img" aria-label="attempts against the schedule"><line x1="10" x2="790" y1="30" y2="30" stroke="#999"/>${ticks}${dots}</svg><p class="note">Dashed: when the schedule (×${timeline.scale}) says each attempt is due; red: when each arrived.</p>`;
}

function evidenceHtml(check: CheckResult): string {
  return (check.evidence ?? [])
    .map((item) => {
      const chart = isTimeline(item.data) ? timelineSvg(item.data) : '';
      return `<details><summary>${escapeXml(item.label)}</summary>${chart}<pre>${escapeXml(JSON.stringify(item.data, null, 1) ?? '')}</pre></details>`;
    })
    .join('');
}

function rowHtml(row: RequirementRow): string {
  const checks = row.checks
    .map(
      (check) =>
        `<li><b style="color:${colours[check.state]}">${check.state}</b> ${escapeXml(check.title)} <span class="note">${escapeXml(check.file)}</span>${check.detail ? `<pre>${escapeXml(check.detail)}</pre>` : ''}${evidenceHtml(check)}</li>`,
    )
    .join('');
  const reason =
    row.requirement.reason === undefined
      ? ''
      : `<p class="note">Why: ${escapeXml(row.requirement.reason)}</p>`;
  return `<details class="row" id="${escapeXml(row.requirement.id)}"><summary><span class="status" style="background:${colours[row.status]}">${row.status}</span> <code>${escapeXml(row.requirement.id)}</code> <span class="note">${row.requirement.source}</span> ${escapeXml(row.requirement.statement.slice(0, 140))}</summary><p>${escapeXml(row.requirement.statement)}</p>${reason}<p>${row.requirement.pointers.map(specLink).join(' ')}</p><ul>${checks || '<li>no check names it yet</li>'}</ul></details>`;
}

/** A bar of the statuses' shares. */
function summaryBar(rows: readonly RequirementRow[]): string {
  return (Object.keys(colours) as RequirementStatus[])
    .map((status) => {
      const count = rows.filter((row) => row.status === status).length;
      return count === 0
        ? ''
        : `<span style="flex:${count};background:${colours[status]}" title="${count} ${status}">${count}</span>`;
    })
    .join('');
}

/** The self-contained HTML report: a summary bar per surface, each requirement expandable to its checks and evidence. */
export function htmlReport(
  rows: readonly RequirementRow[],
  totals: Totals,
  target: TargetDescription,
): string {
  const surfaces = [...new Set(rows.map((row) => row.requirement.surface))];
  const sections = surfaces
    .map((surface) => {
      const own = rows.filter((row) => row.requirement.surface === surface);
      return `<section><h2>${surface}</h2><div class="bar">${summaryBar(own)}</div>${own.map(rowHtml).join('\n')}</section>`;
    })
    .join('\n');
  const style =
    'body{font:14px system-ui;margin:2em}.bar{display:flex;height:20px;margin:.5em 0 1em;color:#fff;font-size:12px}.bar span{padding-left:4px}.status{color:#fff;padding:0 4px;border-radius:3px}.row{border-bottom:1px solid #ddd;padding:3px 0}pre{white-space:pre-wrap;font-size:12px;background:#f6f8fa;padding:4px}.note{color:#57606a;font-size:12px}';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Conformance report</title><style>${style}</style></head><body><h1>Conformance report</h1><p>Target ${escapeXml(target.baseUrl)} (${target.embedded ? 'embedded reference' : 'external'}), profile ${target.profile}, time scale ${target.fastClock?.timeScale ?? target.timeScale}: ${escapeXml(headline(totals))}.</p><div class="bar">${summaryBar(rows)}</div>${sections}</body></html>\n`;
}
