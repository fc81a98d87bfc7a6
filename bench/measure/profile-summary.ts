// npx tsx bench/measure/profile-summary.ts <file.cpuprofile> [count] [skip-seconds] — self time per function and per
// package of a V8 CPU profile, the heaviest first, leaving out idle time and the first `skip-seconds` (start-up):
// enough to see which layer a request's time goes to.
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  children?: number[];
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

const [file, countText = '25', skipText = '0'] = process.argv.slice(2);
if (file === undefined) throw new Error('usage: profile-summary.ts <file.cpuprofile> [count] [skip-seconds]');
const profile = JSON.parse(readFileSync(file, 'utf8')) as {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
};
// Hit counts from the samples after the skipped start, rather than the whole-run `hitCount`.
const hits = new Map<number, number>();
let elapsedMicroseconds = 0;
profile.samples.forEach((nodeId, index) => {
  elapsedMicroseconds += profile.timeDeltas[index] ?? 0;
  if (elapsedMicroseconds >= Number(skipText) * 1e6) hits.set(nodeId, (hits.get(nodeId) ?? 0) + 1);
});
for (const node of profile.nodes)
  node.hitCount = node.callFrame.functionName === '(idle)' ? 0 : (hits.get(node.id) ?? 0);
const total = profile.nodes.reduce((sum, node) => sum + (node.hitCount ?? 0), 0);
const byFunction = new Map<string, number>();
const byPackage = new Map<string, number>();
const packageOf = (url: string) => {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (match) return match[1] ?? url;
  if (url.startsWith('node:') || url === '') return url === '' ? '(native/gc/idle)' : 'node core';
  const local = /\/(generated|reference|runtime|bench)\//.exec(url);
  return local ? `repo ${local[1]}` : url;
};
for (const node of profile.nodes) {
  const hits = node.hitCount ?? 0;
  if (hits === 0) continue;
  const { functionName, url, lineNumber } = node.callFrame;
  const name = `${functionName || '(anonymous)'} ${url.replace(/^.*\/(node_modules|wt\/[^/]+)\//, '')}:${lineNumber + 1}`;
  byFunction.set(name, (byFunction.get(name) ?? 0) + hits);
  byPackage.set(packageOf(url), (byPackage.get(packageOf(url)) ?? 0) + hits);
}
const top = (map: Map<string, number>, count: number) =>
  [...map]
    .sort((left, right) => right[1] - left[1])
    .slice(0, count)
    .map(([name, hits]) => `  ${((hits / total) * 100).toFixed(1).padStart(5)} %  ${name}`);
// Inclusive time of the repository's own functions: each sample counts once for every distinct repo frame above it.
const parents = new Map<number, ProfileNode>();
const nodesById = new Map(profile.nodes.map((node) => [node.id, node]));
for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node);
const inclusive = new Map<string, number>();
for (const node of profile.nodes) {
  const own = node.hitCount ?? 0;
  if (own === 0) continue;
  const seen = new Set<string>();
  for (let frame: ProfileNode | undefined = node; frame !== undefined; frame = parents.get(frame.id)) {
    const { functionName, url, lineNumber } = frame.callFrame;
    if (!/\/(reference|runtime|generated)\//.test(url)) continue;
    const name = `${functionName || '(anonymous)'} ${url.replace(/^.*\/wt\/[^/]+\//, '')}:${lineNumber + 1}`;
    if (seen.has(name)) continue;
    seen.add(name);
    inclusive.set(name, (inclusive.get(name) ?? 0) + own);
  }
}
void nodesById;
console.log(['Inclusive, repository code:', ...top(inclusive, Number(countText))].join('\n'));
console.log(
  ['By package:', ...top(byPackage, 15), 'By function:', ...top(byFunction, Number(countText))].join('\n'),
);
