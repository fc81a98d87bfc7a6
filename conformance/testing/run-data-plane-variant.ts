import {
  embeddedFastTimeScale,
  embeddedTarget,
  fastClockOf,
  startEmbedded,
} from '../harness/embedded-target.js';
import type { DataPlaneVariant } from './data-plane-variants.js';
import { startLiveFeedProxy } from './live-feed-proxy.js';
import { type IsolatedRun, runIsolated } from './run-isolated.js';
import { startWebhookProxy } from './webhook-proxy.js';

/** Latency is no variant's business: a loaded machine and a proxy hop must not fail it. */
const variantLatencyP99Milliseconds = 5000;

export interface DataPlaneVariantRun {
  run: IsolatedRun;
  /** Deliveries or frames the proxy's fault touched; null without a proxy. */
  proxied: number | null;
}

/**
 * Runs the variant's check files against the embedded default built with its faults: a wall-clock reference and a
 * fast-clock twin (both with the switches), the webhook proxy in front of the receivers and the live-feed proxy in
 * front of the wall-clock reference's feed when the variant has them. Everything is stopped afterwards.
 */
export async function runDataPlaneVariant(
  root: string,
  variant: DataPlaneVariant,
): Promise<DataPlaneVariantRun> {
  const faults = variant.faults === undefined ? {} : { faults: variant.faults };
  // Started together: most of a start is the embedded database's set-up.
  const starts = await Promise.allSettled([
    startEmbedded(root, { seedExtras: { extraSecretKeys: 6, revokedKey: true }, ...faults }),
    startEmbedded(root, { timeScale: embeddedFastTimeScale, ...faults }),
  ]);
  const stops: Array<() => Promise<void>> = starts.flatMap((each) =>
    each.status === 'fulfilled' ? [() => each.value.stop()] : [],
  );
  try {
    const [mainStart, fastStart] = starts;
    if (mainStart?.status !== 'fulfilled') throw mainStart?.reason;
    if (fastStart?.status !== 'fulfilled') throw fastStart?.reason;
    const main = mainStart.value;
    const fast = fastStart.value;
    const target = embeddedTarget(main.service, fastClockOf(fast), 'full', variantLatencyP99Milliseconds);
    let proxied: () => number | null = () => null;
    if (variant.webhookFault !== undefined) {
      const proxy = await startWebhookProxy(variant.webhookFault);
      stops.push(() => proxy.close());
      target.webhookPublicUrl = proxy.publicUrl;
      proxied = () => proxy.forwarded;
    }
    if (variant.frameFault !== undefined) {
      const proxy = await startLiveFeedProxy(main.service.urls.wsUrl, variant.frameFault);
      stops.push(() => proxy.close());
      target.wsUrl = proxy.wsUrl;
      proxied = () => proxy.changed;
    }
    const run = await runIsolated(root, target, variant.files);
    return { run, proxied: proxied() };
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => {});
  }
}
