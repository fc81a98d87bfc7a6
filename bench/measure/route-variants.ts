// npx tsx bench/measure/route-variants.ts [rounds] (VARIANTS=name,... to narrow it; REQUESTS per run, 20,000 by
// default) — CPU per request of one Fastify route written in different ways, each on a server of its own in this
// process, driven in turn by autocannon in a child process (as rest-cpu.ts does), rounds alternating. It measures what
// one construct costs in a serving process, which a loop can understate several times over (issue 16, ADR 0022 wave
// 22). The variants: a created stream (built by the service's own `streamObject`) and a page of 100 reports, each
// written by JSON.stringify, marked `wireShaped` and written by JSON.stringify (what `sendReply` does with a marked
// body), or by its response schema's serializer.
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { routes } from '../../generated/server/routes.js';
import { validateCreateStreamRequest } from '../../generated/validators/standalone.js';
import { newId } from '../../reference/services/ids.js';
import { streamObject } from '../../reference/services/streams.js';
import { wireShaped } from '../../runtime/wire-shaped.js';
import { median } from '../harness.js';
import { drive } from './child-load.js';

const rounds = Number(process.argv[2] ?? 8);
const requestsPerRun = Number(process.env.REQUESTS ?? 20_000);
const host = '127.0.0.1';

const urls = {
  baseUrl: `http://${host}:8080/v2`,
  authUrl: `http://${host}:8081`,
  mqttBroker: `mqtt://${host}:1883`,
  wsUrl: `ws://${host}:8080`,
};

/**
 * A created stream built as the reference builds it (`createStream`): a row of the request's fields, the stream's
 * object made from it by the service's own `streamObject`, then its key added.
 */
function createdStream(request: {
  title: string;
  metadata?: Record<string, string>;
}): Record<string, unknown> {
  const row = {
    id: newId('StreamId'),
    accountId: 'acct_bench',
    title: request.title,
    status: 'idle',
    quality: 'high',
    format: 'json',
    region: 'eu-west-1',
    streamKeyHash: '',
    subscriberCount: 0,
    metadata: request.metadata ?? {},
    startedAt: null,
    recordingReportId: null,
    createdAt: new Date().toISOString(),
  };
  const created = streamObject({ urls }, row) as unknown as Record<string, unknown>;
  created.streamKey = newId('StreamId');
  return created;
}

const reports = Array.from({ length: 100 }, (_, index) => ({
  id: newId('ReportId'),
  title: `Bench report ${index + 1}`,
  createdAt: new Date().toISOString(),
}));

/** A page of 100 reports as the reference answers it: the envelope and each item in the schema's order. */
function reportPage(): Record<string, unknown> {
  return {
    object: 'list',
    data: reports.map((report) => ({
      id: report.id,
      object: 'report',
      title: report.title,
      status: 'draft',
      recordCount: 0,
      reportUrl: `http://${host}:8080/v2/reports/${report.id}/feed.xml`,
      createdAt: report.createdAt,
    })),
    hasMore: false,
    nextCursor: null,
  };
}

type Writing = 'stringify' | 'marked' | 'serializer';

interface Variant {
  method: 'POST' | 'GET';
  body: (request: { title: string; metadata?: Record<string, string> }) => Record<string, unknown>;
  status: number;
  schema: object;
  writing: Writing;
}

const createdSchema = routes.createStream.responses['201'].schema as object;
const pageSchema = routes.listReports.responses['200'].schema as object;
const variants: Record<string, Variant> = {};
for (const writing of ['stringify', 'marked', 'serializer'] as const) {
  variants[`stream-${writing}`] = {
    method: 'POST',
    body: createdStream,
    status: 201,
    schema: createdSchema,
    writing,
  };
  variants[`page-${writing}`] = { method: 'GET', body: reportPage, status: 200, schema: pageSchema, writing };
}

function send(reply: FastifyReply, status: number, body: Record<string, unknown>, writing: Writing) {
  reply.code(status);
  // The schema's serializer runs when the body is an object; a string with a JSON type is sent as it is.
  if (writing === 'serializer') return reply.send(body);
  const written = writing === 'marked' ? wireShaped(body) : body;
  return reply.type('application/json; charset=utf-8').send(JSON.stringify(written));
}

async function serverFor(variant: Variant): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  const schema = variant.writing === 'serializer' ? { response: { [variant.status]: variant.schema } } : {};
  app.route({
    method: variant.method,
    url: '/v2/resource',
    schema,
    handler: async (request, reply) => {
      if (variant.method === 'POST' && !validateCreateStreamRequest(request.body))
        return reply.code(400).send({ error: 'invalid' });
      return send(reply, variant.status, variant.body(request.body as { title: string }), variant.writing);
    },
  });
  await app.listen({ host, port: 0 });
  return app;
}

const names = (process.env.VARIANTS ?? Object.keys(variants).join(',')).split(',');
for (const name of names) if (variants[name] === undefined) throw new Error(`no variant ${name}`);
const servers = new Map<string, FastifyInstance>();
for (const name of names) servers.set(name, await serverFor(variants[name] as Variant));
const requestBody = JSON.stringify({
  title: 'Pump 7 vibration',
  quality: 'high',
  metadata: { site: 'plant-3' },
});
const results = new Map<string, number[]>(names.map((name) => [name, []]));
try {
  for (let round = 0; round <= rounds; round += 1) {
    for (const name of round % 2 === 0 ? names : [...names].reverse()) {
      const variant = variants[name] as Variant;
      const address = servers.get(name)?.server.address();
      if (address === null || address === undefined || typeof address === 'string')
        throw new Error('no address');
      const request =
        variant.method === 'POST'
          ? {
              method: 'POST',
              path: '/v2/resource',
              headers: { 'content-type': 'application/json' },
              body: requestBody,
            }
          : { method: 'GET', path: '/v2/resource' };
      const before = process.cpuUsage();
      const counts = await drive(`http://${host}:${address.port}`, [request], requestsPerRun);
      const used = process.cpuUsage(before);
      if (counts.other > 0) throw new Error(`${name}: ${counts.other} unexpected responses`);
      // The first round warms every server's JIT up and is not counted.
      if (round > 0) results.get(name)?.push((used.user + used.system) / counts.ok);
    }
  }
} finally {
  await Promise.all([...servers.values()].map((server) => server.close()));
}
for (const name of names) {
  const values = results.get(name) ?? [];
  console.log(
    `${name.padEnd(18)} CPU µs per request, median ${median(values).toFixed(1)} (rounds ${values.map((value) => value.toFixed(0)).join(' / ')})`,
  );
}
