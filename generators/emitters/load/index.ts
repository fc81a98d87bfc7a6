import { readFileSync } from 'node:fs';
import path from 'node:path';
import Handlebars from 'handlebars';
import { isObject } from '../../ir/json.js';
import type { ApiModel } from '../../ir/model.js';
import type { EmitContext, Emitter, GeneratedFile } from '../generated-file.js';
import { drainSeconds, k6Scenarios, k6Thresholds, loadSeconds, startSeconds } from './k6-options.js';
import { type K6Plan, loadPlans } from './scenario-plan.js';

const templateFile = 'templates/k6/scenario.k6.ts.hbs';
/** The module every scenario script imports: metrics, setup and the iterations, once. */
const helperTemplateFile = 'templates/k6/k6-load.ts.hbs';

/** The CSV layout's timestamp column, as the device channel's CSV message states it (x-csv-layout). */
function csvTimestampColumn(model: ApiModel): string {
  for (const channel of model.channels)
    for (const message of channel.messages) {
      const layout = message.extensions['x-csv-layout'];
      if (isObject(layout) && typeof layout.timestampColumn === 'string') return layout.timestampColumn;
    }
  return 'ts';
}

/** Operations in turn, each as often as its weight says (smooth weighted round robin, one cycle). */
function mixSequence(model: ApiModel, mix: NonNullable<K6Plan['rest']>['mix']) {
  const smallest = Math.min(...mix.map((entry) => entry.weight));
  const counts = mix.map((entry) => Math.max(1, Math.round(entry.weight / smallest)));
  const total = counts.reduce((sum, count) => sum + count, 0);
  const current = counts.map(() => 0);
  const sequence: Array<{ operation: string; method: string; path: string; body: string | null }> = [];
  for (let step = 0; step < total; step += 1) {
    counts.forEach((count, index) => {
      current[index] = (current[index] ?? 0) + count;
    });
    const best = current.indexOf(Math.max(...current));
    current[best] = (current[best] ?? 0) - total;
    const operation = model.operations.find((candidate) => candidate.id === mix[best]?.operation);
    if (operation === undefined) continue;
    const body =
      operation.id === 'createStream' ? '{"title":"k6 load"}' : operation.requestBody === null ? null : '{}';
    sequence.push({
      operation: operation.id,
      method: operation.method.toUpperCase(),
      path: operation.path,
      body,
    });
  }
  return sequence;
}

function facts(plan: K6Plan): string[] {
  const lines: string[] = [];
  if (plan.ingest !== null)
    lines.push(
      `Ingest: ${plan.ingest.streams} stream(s) at ${plan.ingest.ratePerStream}/s each (quality ${plan.ingest.quality}: x-sample-rate-hz ${plan.ingest.qualityRateHz}), ${plan.ingest.subscribersPerStream} subscriber(s) each.`,
    );
  if (plan.rest !== null)
    lines.push(
      `REST: ${plan.rest.keys} ${plan.rest.plan} key(s) (x-requests-per-minute ${plan.rest.limitPerWindow} per ${plan.rest.windowSeconds} s window), ${
        plan.rest.requestsPerKey === null
          ? `${plan.rest.ratePerKey.toFixed(3)}/s each`
          : `exactly ${plan.rest.requestsPerKey} each`
      }.`,
    );
  return lines;
}

function render(model: ApiModel, template: HandlebarsTemplateDelegate, plan: K6Plan): GeneratedFile {
  const scriptPlan = {
    name: plan.name,
    quality: plan.ingest?.quality ?? '',
    startSeconds,
    loadSeconds: loadSeconds(plan),
    drainSeconds,
    ingest:
      plan.ingest === null
        ? null
        : {
            streams: plan.ingest.streams,
            format: plan.ingest.format,
            qos: plan.ingest.qos,
            subscribersPerStream: plan.ingest.subscribersPerStream,
            csvTimestampColumn: csvTimestampColumn(model),
          },
    rest:
      plan.rest === null
        ? null
        : { plan: plan.rest.plan, keys: plan.rest.keys, mix: mixSequence(model, plan.rest.mix) },
  };
  const options = { setupTimeout: '300s', scenarios: k6Scenarios(plan), thresholds: k6Thresholds(plan) };
  const content = template({
    name: plan.name,
    description: plan.description,
    source: plan.source,
    facts: facts(plan),
    plan: JSON.stringify(scriptPlan, null, 2),
    options: JSON.stringify(options, null, 2),
  });
  return { path: `load/${plan.name}.k6.ts`, content };
}

function emit({ model, config, problems }: EmitContext): GeneratedFile[] {
  if (config.load === null) return [];
  const plans = loadPlans(model, config.load, config.rootDir, problems);
  const template = Handlebars.compile(readFileSync(path.join(config.rootDir, templateFile), 'utf8'), {
    noEscape: true,
  });
  const helper = readFileSync(path.join(config.rootDir, helperTemplateFile), 'utf8');
  return [
    { path: 'load/k6-load.ts', content: helper },
    ...plans.map((plan) => render(model, template, plan)),
  ];
}

export const loadEmitter: Emitter = { name: 'load', declare: () => [], emit };
