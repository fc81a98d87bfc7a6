// Broken variants of the data plane (issue 11, item 4): each is one realistic fault of the embedded reference, made by
// a switch of the reference (reference/faults.ts) or a proxy in front of it, and must fail exactly the requirements
// it breaks. A variant runs its check files against its own references, so the runs take minutes: they are opt-in
// (CONFORMANCE_DATA_PLANE_VARIANTS=1, which .ci/run sets); the catalogue tests below always run.
import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';
import { catalogue } from '../conformance/harness/catalogue.js';
import { dataPlaneVariants } from '../conformance/testing/data-plane-variants.js';
import { isNamed, namedRequirements } from '../conformance/testing/named-requirements.js';
import { runDataPlaneVariant } from '../conformance/testing/run-data-plane-variant.js';
import { idsWith } from '../conformance/testing/run-isolated.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const enabled = process.env.CONFORMANCE_DATA_PLANE_VARIANTS === '1';
/**
 * Variant runs at once. One: a variant's two references share this process's event loop with every other lane's,
 * and at two lanes on two cores a neighbour's work stalled the 1 kHz stream's reference past its rate window's burst
 * (19 of 2,000 samples refused as over-rate, at load 8-10), failing a requirement the variant does not break.
 */
const lanes = 1;

/** At most `limit` of the works at once. */
function limiter(limit: number) {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async <Value>(work: () => Promise<Value>): Promise<Value> => {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    running += 1;
    try {
      return await work();
    } finally {
      running -= 1;
      waiting.shift()?.();
    }
  };
}

describe('data-plane broken variants', () => {
  it('are at least twelve, each named once, each breaking requirements of the catalogue that its checks name', ({
    expect,
  }) => {
    expect(dataPlaneVariants.length).toBeGreaterThanOrEqual(12);
    expect(new Set(dataPlaneVariants.map((variant) => variant.name)).size).toBe(dataPlaneVariants.length);
    const ids = new Set(catalogue().map((requirement) => requirement.id));
    const named = namedRequirements(`${root}conformance/checks`);
    for (const variant of dataPlaneVariants) {
      expect(variant.breaks.length, variant.name).toBeGreaterThan(0);
      expect(variant.files.length, variant.name).toBeGreaterThan(0);
      for (const id of variant.breaks) {
        expect(ids.has(id), `${variant.name}: ${id} is in the catalogue`).toBe(true);
        expect(isNamed(id, named), `${variant.name}: ${id} is named by a check`).toBe(true);
      }
    }
  });

  it('each make exactly one kind of fault: a reference switch or one proxy', ({ expect }) => {
    for (const variant of dataPlaneVariants) {
      const kinds = [variant.faults, variant.webhookFault, variant.frameFault].filter(
        (kind) => kind !== undefined,
      );
      expect(kinds, variant.name).toHaveLength(1);
    }
  });

  describe.runIf(enabled).concurrent('against the checks', () => {
    const lane = limiter(lanes);
    for (const variant of dataPlaneVariants)
      it(`${variant.name}: fails exactly what it breaks, nothing else`, { timeout: 900_000 }, async ({
        expect,
      }) => {
        const started = performance.now();
        const { run, proxied } = await lane(() => runDataPlaneVariant(root, variant));
        const failed = run.results.filter((result) => result.state === 'failed');
        const evidence = failed.map((result) => `${result.title}\n  ${result.detail ?? ''}`).join('\n');
        console.log(
          `${variant.name}: ${idsWith(run, 'failed').join(', ')} (${((performance.now() - started) / 1000).toFixed(1)} s)`,
        );
        expect(run.suiteErrors).toEqual([]);
        expect(idsWith(run, 'failed'), evidence).toEqual([...variant.breaks].sort());
        expect(idsWith(run, 'passed').length).toBeGreaterThan(0);
        // A proxy that touched nothing proves nothing.
        if (proxied !== null) expect(proxied).toBeGreaterThan(0);
      });
  });
});
