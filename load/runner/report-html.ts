import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { RunResult } from './result.js';

const require = createRequire(import.meta.url);

/** uPlot's script and stylesheet, read from the installed package so the report needs no network. */
function uplotAssets(): { script: string; style: string } {
  return {
    script: readFileSync(require.resolve('uplot/dist/uPlot.iife.min.js'), 'utf8'),
    style: readFileSync(require.resolve('uplot/dist/uPlot.min.css'), 'utf8'),
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (character) => `&#${character.charCodeAt(0)};`);
}

// The data goes into a <script> element: keep "</script>" and friends from closing it early.
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

const plotScript = `
const result = JSON.parse(document.getElementById('result').textContent);
const seconds = result.timeline.map((point) => point.second + 1);
const width = Math.min(1000, document.body.clientWidth - 40);
function plot(id, title, series, columns) {
  new uPlot({ title, width, height: 300, scales: { x: { time: false } },
    series: [{ label: 's' }, ...series], axes: [{ label: 'second' }, { size: 80 }] },
    [seconds, ...columns], document.getElementById(id));
}
plot('latency', 'Publish→receive latency (ms)',
  [{ label: 'p50', stroke: '#1f77b4' }, { label: 'p99', stroke: '#d62728' }, { label: 'REST p99', stroke: '#9467bd' }],
  [result.timeline.map((p) => p.p50), result.timeline.map((p) => p.p99), result.timeline.map((p) => p.restP99)]);
plot('throughput', 'Throughput (per second)',
  [{ label: 'samples sent', stroke: '#2ca02c' }, { label: 'samples received', stroke: '#ff7f0e' },
   { label: 'REST requests', stroke: '#9467bd' }, { label: 'missing (running)', stroke: '#d62728' }],
  [result.timeline.map((p) => p.sent), result.timeline.map((p) => p.received),
   result.timeline.map((p) => p.restRequests), result.timeline.map((p) => p.gaps)]);
`;

/** A self-contained page: the verdicts, the summary text, and two uPlot charts over the timeline. */
export function reportHtml(result: RunResult, summary: string): string {
  const { script, style } = uplotAssets();
  const verdicts = result.thresholds
    .map(
      (verdict) =>
        `<tr class="${verdict.passed ? 'pass' : 'fail'}"><td>${verdict.passed ? '✓' : '✗'}</td><td>${escapeHtml(verdict.name)}</td><td>${escapeHtml(verdict.limit)}</td><td>${escapeHtml(verdict.actual)}</td></tr>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Load report: ${escapeHtml(result.scenario)}</title>
<style>${style}
body { font-family: system-ui, sans-serif; margin: 20px; } .pass { color: #1a7f37; } .fail { color: #cf222e; }
table { border-collapse: collapse; } td, th { padding: 2px 10px; text-align: left; } pre { background: #f6f8fa; padding: 10px; }
</style></head><body>
<h1>${escapeHtml(result.scenario)}: ${result.passed ? 'passed' : 'failed'}</h1>
<p>${escapeHtml(result.description)}<br>Target: ${escapeHtml(result.target)}; started ${escapeHtml(result.startedAt)}.</p>
<h2>Thresholds</h2><table><tr><th></th><th>threshold</th><th>limit</th><th>actual</th></tr>
${verdicts}</table>
<div id="latency"></div><div id="throughput"></div>
<h2>Summary</h2><pre>${escapeHtml(summary)}</pre>
<script id="result" type="application/json">${scriptJson(result)}</script>
<script>${script}</script>
<script>${plotScript}</script>
</body></html>
`;
}
