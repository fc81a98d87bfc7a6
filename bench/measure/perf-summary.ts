// npx tsx bench/measure/perf-summary.ts <dir> [count] — reads the perf files rest-cpu.ts wrote with PERF=<dir> and
// prints CPU µs per request by thread and binary, then the symbols whose cost differs most between the reference and
// the bare route (summed over rounds, divided by the requests those rounds answered). A V8 CPU profile sees only the
// main thread's JavaScript; this sees the kernel's TCP work, V8's C++ and its collector threads as well.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { perfFrequency } from './perf-record.js';

const [dir, countText = '30'] = process.argv.slice(2);
if (dir === undefined) throw new Error('usage: perf-summary.ts <dir> [count]');
const microsecondsPerSample = 1e6 / perfFrequency;

/** Samples per key (fields joined by ' | ') in one perf file. */
function samplesBy(file: string, sort: string): Map<string, number> {
  const text = execFileSync(
    'perf',
    ['report', '-i', file, '--stdio', '--no-children', '--sort', sort, '-F', `sample,${sort}`, '-t', '\t'],
    { encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'] },
  );
  const counts = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line.startsWith('#') || line.trim() === '') continue;
    const [samples, ...keys] = line.split('\t').map((field) => field.trim());
    const key = keys.join(' | ');
    counts.set(key, (counts.get(key) ?? 0) + Number(samples));
  }
  return counts;
}

const files = readdirSync(dir).filter((name) => name.endsWith('.data'));
const sides = new Map<
  string,
  { requests: number; byBinary: Map<string, number>; bySymbol: Map<string, number> }
>();
for (const name of files) {
  const side = name.split('-').slice(0, 2).join('-');
  const file = path.join(dir, name);
  const entry = sides.get(side) ?? { requests: 0, byBinary: new Map(), bySymbol: new Map() };
  sides.set(side, entry);
  entry.requests += Number(readFileSync(`${file}.requests`, 'utf8'));
  for (const [key, count] of samplesBy(file, 'comm,dso'))
    entry.byBinary.set(key, (entry.byBinary.get(key) ?? 0) + count);
  for (const [key, count] of samplesBy(file, 'dso,sym'))
    entry.bySymbol.set(key, (entry.bySymbol.get(key) ?? 0) + count);
}

/** A coarse layer for a `dso | symbol` key: where in the stack a sample fell. */
function layerOf(key: string): string {
  const [binary = '', symbol = ''] = key.split(' | ');
  if (binary.includes('kernel')) return 'kernel (syscalls, TCP)';
  if (binary.startsWith('[JIT]')) {
    const source =
      /(node:[a-z_/]+|node_modules\/[^/]+|reference\/[a-z]+|runtime|generated\/[a-z]+|bench)/.exec(symbol);
    return `JavaScript: ${source?.[1] ?? 'other'}`;
  }
  if (
    /Scaveng|Heap::|MarkCompact|Sweep|Marking|Evacuat|GCTracer|MemoryAllocator|MemoryChunk|RecordWrite|Concurrent.*Mark/.test(
      symbol,
    )
  )
    return 'V8 collector and write barrier';
  if (/compiler::|[Mm]aglev|baseline|Compile|Deoptimiz|interpreter::|Bytecode/.test(symbol))
    return 'V8 compilers';
  if (/^\[\.\] Builtins_.*IC/.test(symbol)) return 'V8 inline caches';
  if (/^\[\.\] Builtins_/.test(symbol)) return 'V8 builtins';
  if (/llhttp|http_parser|Parser/.test(symbol)) return 'HTTP parser (llhttp)';
  if (/uv_|uv__/.test(symbol)) return 'libuv';
  if (binary === 'node') return /node::/.test(symbol) ? 'Node C++' : 'V8 C++ (runtime)';
  return binary;
}

const perRequest = (samples: number, requests: number) => (samples * microsecondsPerSample) / requests;
for (const [side, entry] of sides) {
  const total = [...entry.byBinary.values()].reduce((sum, count) => sum + count, 0);
  console.log(
    `\n${side}: ${entry.requests} requests, ${perRequest(total, entry.requests).toFixed(1)} µs CPU each`,
  );
  for (const [key, count] of [...entry.byBinary].sort((a, b) => b[1] - a[1]).slice(0, 12))
    console.log(`  ${perRequest(count, entry.requests).toFixed(1).padStart(7)} µs  ${key}`);
}

const method = (side: string) => side.split('-')[1];
/** Samples summed by layer. */
function byLayer(bySymbol: Map<string, number>): Map<string, number> {
  const sums = new Map<string, number>();
  for (const [key, count] of bySymbol) sums.set(layerOf(key), (sums.get(layerOf(key)) ?? 0) + count);
  return sums;
}
const printDifference = (row: { key: string; mine: number; theirs: number; difference: number }) =>
  console.log(
    `  ${row.difference.toFixed(2).padStart(7)}  (${row.mine.toFixed(2)} vs ${row.theirs.toFixed(2)})  ${row.key}`,
  );
for (const [side, reference] of sides) {
  if (!side.startsWith('reference-')) continue;
  const bare = sides.get(`bare-${method(side)}`);
  if (bare === undefined) continue;
  /** µs per request of one key on each side, and the reference's minus the bare route's. */
  const compare = (key: string, mineSamples: Map<string, number>, theirSamples: Map<string, number>) => {
    const mine = perRequest(mineSamples.get(key) ?? 0, reference.requests);
    const theirs = perRequest(theirSamples.get(key) ?? 0, bare.requests);
    return { key, mine, theirs, difference: mine - theirs };
  };
  const [mineByLayer, theirsByLayer] = [byLayer(reference.bySymbol), byLayer(bare.bySymbol)];
  const layers = [...new Set([...mineByLayer.keys(), ...theirsByLayer.keys()])]
    .map((layer) => compare(layer, mineByLayer, theirsByLayer))
    .sort((a, b) => b.mine - a.mine);
  console.log(`\n${method(side)}: µs per request by layer, reference vs bare (difference)`);
  for (const layer of layers)
    console.log(
      `  ${layer.mine.toFixed(1).padStart(7)} vs ${layer.theirs.toFixed(1).padStart(7)} (${layer.difference.toFixed(1).padStart(6)})  ${layer.key}`,
    );
  const symbols = [...new Set([...reference.bySymbol.keys(), ...bare.bySymbol.keys()])].map((key) =>
    compare(key, reference.bySymbol, bare.bySymbol),
  );
  // Inside each layer whose cost differs by more than 2 µs, the symbols that make the difference.
  for (const layer of layers) {
    if (Math.abs(layer.difference) < 2) continue;
    console.log(
      `\n${method(side)}, ${layer.key} (${layer.difference.toFixed(1)} µs): the largest differences`,
    );
    symbols
      .filter((row) => layerOf(row.key) === layer.key)
      .sort((a, b) => b.difference - a.difference)
      .slice(0, 12)
      .forEach(printDifference);
  }
  console.log(`\n${method(side)}: symbols by the reference's cost minus the bare route's (µs per request)`);
  symbols
    .sort((a, b) => Math.abs(b.difference) - Math.abs(a.difference))
    .slice(0, Number(countText))
    .forEach(printDifference);
}
