import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../storage/open-store.js';
import type { Store } from '../storage/store.js';
import {
  flushIntervalMilliseconds,
  flushSamples,
  maxBacklogSamples,
  maxSamplesPerRecord,
} from './recording-rules.js';
import { recordingFixture } from './testing/recording-fixture.js';

const scratchRoot = fileURLToPath(new URL('../../.tmp/', import.meta.url));
let directory: string;
let store: Store;
/** Every write statement of records, counted on the real store. */
const writes = { insert: 0, append: 0 };

beforeAll(async () => {
  await mkdir(scratchRoot, { recursive: true });
  directory = await mkdtemp(path.join(scratchRoot, 'recording-'));
  const real = await openStore({ kind: 'embedded', dataDir: path.join(directory, 'database') });
  const records = real.records;
  store = {
    ...real,
    records: {
      ...records,
      insert: (row) => {
        writes.insert += 1;
        return records.insert(row);
      },
      appendSamples: (accountId, id, samples) => {
        writes.append += 1;
        return records.appendSamples(accountId, id, samples);
      },
    },
  };
});
afterAll(async () => {
  await store?.close();
  await rm(directory, { recursive: true, force: true });
});

const tsOf = (samples: unknown[]) => samples.map((sample) => (sample as { ts: number }).ts);

describe('recording (Record.x-recording)', () => {
  it('writes a session in batches, never one statement per sample, in order', async () => {
    const fixture = await recordingFixture(store);
    const streamId = await fixture.newStream(fixture.reportId);
    const before = writes.insert + writes.append;
    const total = 2_345;
    fixture.publish(streamId, total);
    fixture.idle(streamId);
    await fixture.recorder.close();
    const [record, ...others] = await fixture.records();
    expect(others).toEqual([]);
    expect(record).toMatchObject({ source: 'stream', streamId, status: 'draft', title: null });
    expect(tsOf(record?.samples ?? [])).toEqual(Array.from({ length: total }, (_value, index) => index));
    expect(writes.insert + writes.append - before).toBe(Math.ceil(total / flushSamples));
    expect(fixture.acknowledged.reduce((sum, batch) => sum + batch.samples, 0)).toBe(total);
    expect(fixture.errors).toEqual([]);
  });

  it('sheds the newest samples beyond maxBacklogSamples while the database is behind, and counts them', async () => {
    const fixture = await recordingFixture(store);
    const streamId = await fixture.newStream(fixture.reportId);
    fixture.publish(streamId, 1);
    await expect.poll(() => fixture.acknowledged.length, { timeout: 10_000 }).toBe(1);
    // PGlite is one connection: a transaction that waits holds every other write back, as a stalled database would.
    let release: () => void = () => {};
    let started: () => void = () => {};
    const holding = new Promise<void>((resolve) => (started = resolve));
    const held = store.transaction(
      () =>
        new Promise<void>((resolve) => {
          release = resolve;
          started();
        }),
    );
    await holding;
    const total = maxBacklogSamples + 3_000;
    try {
      fixture.publish(streamId, total, 1);
    } finally {
      release();
    }
    await held;
    expect(fixture.recorder.shed.of(streamId)).toBe(total - maxBacklogSamples);
    expect(fixture.shedReports[0]).toBe(1);
    fixture.idle(streamId);
    await fixture.recorder.close();
    const recorded = (await fixture.records()).flatMap((record) => tsOf(record.samples));
    expect(recorded).toEqual(Array.from({ length: maxBacklogSamples + 1 }, (_value, index) => index));
    // Once the backlog is written, the stream is recorded again.
    expect(fixture.errors).toEqual([]);
  });

  it('writes a batch after flushIntervalMilliseconds without waiting for more samples', async () => {
    const fixture = await recordingFixture(store);
    const streamId = await fixture.newStream(fixture.reportId);
    fixture.publish(streamId, 3);
    await new Promise((resolve) => setTimeout(resolve, flushIntervalMilliseconds));
    await expect.poll(async () => tsOf((await fixture.records())[0]?.samples ?? [])).toEqual([0, 1, 2]);
    await fixture.recorder.close();
  });

  it('starts a new record for each live session and when a record is full', async () => {
    const fixture = await recordingFixture(store);
    const streamId = await fixture.newStream(fixture.reportId);
    fixture.publish(streamId, maxSamplesPerRecord + 5);
    fixture.idle(streamId);
    fixture.publish(streamId, 7, maxSamplesPerRecord + 5);
    fixture.idle(streamId);
    await fixture.recorder.close();
    const records = await fixture.records();
    expect(records.map((record) => record.samples.length)).toEqual([maxSamplesPerRecord, 5, 7]);
    expect(tsOf(records.flatMap((record) => record.samples))).toEqual(
      Array.from({ length: maxSamplesPerRecord + 12 }, (_value, index) => index),
    );
  }, 60_000);

  it('continues a session in a new record once its record is published, and leaves the published one as it was', async () => {
    const fixture = await recordingFixture(store);
    const streamId = await fixture.newStream(fixture.reportId);
    fixture.publish(streamId, 5);
    await expect.poll(() => fixture.acknowledged.length, { timeout: 10_000 }).toBe(1);
    const [first] = await fixture.records();
    await store.records.update(fixture.accountId, first?.id ?? '', {
      status: 'published',
      publishedAt: new Date().toISOString(),
    });
    fixture.publish(streamId, 4, 5);
    fixture.idle(streamId);
    await fixture.recorder.close();
    const records = await fixture.records();
    expect(records.map((record) => [record.status, tsOf(record.samples)])).toEqual([
      ['published', [0, 1, 2, 3, 4]],
      ['draft', [5, 6, 7, 8]],
    ]);
    expect(fixture.errors).toEqual([]);
  });

  it('records nothing for a stream without a recording report, or whose report is archived or gone', async () => {
    const fixture = await recordingFixture(store);
    const unrecorded = await fixture.newStream(null);
    const gone = await fixture.newStream('pod_gone');
    fixture.publish(unrecorded, 10);
    fixture.publish(gone, 10);
    await store.reports.update(fixture.accountId, fixture.reportId, { status: 'archived' });
    const archived = await fixture.newStream(fixture.reportId);
    fixture.publish(archived, 10);
    await fixture.recorder.close();
    expect(await fixture.records()).toEqual([]);
    expect(fixture.errors).toEqual([]);
  });
});
