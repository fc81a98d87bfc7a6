/**
 * The largest N that passes, found the way the issue asks: step up (doubling) until a run fails, then bisect once
 * between the last pass and the first failure. `passes(n)` runs the load once; runs happen one after another.
 */
export interface SearchStep {
  streams: number;
  passed: boolean;
}

export async function searchLargest(
  start: number,
  maximum: number,
  passes: (streams: number) => Promise<boolean>,
): Promise<{ best: number; steps: SearchStep[] }> {
  const steps: SearchStep[] = [];
  const attempt = async (streams: number) => {
    const passed = await passes(streams);
    steps.push({ streams, passed });
    return passed;
  };
  let lastPass = 0;
  let streams = start;
  while (streams <= maximum && (await attempt(streams))) {
    lastPass = streams;
    streams *= 2;
  }
  if (streams > maximum) return { best: lastPass, steps };
  const middle = Math.floor((lastPass + streams) / 2);
  if (middle > lastPass && middle < streams && (await attempt(middle))) lastPass = middle;
  return { best: lastPass, steps };
}
