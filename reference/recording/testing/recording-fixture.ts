import { ManualClock } from '../../clock.js';
import { InProcessFanoutBus } from '../../fanout/in-process-fanout-bus.js';
import { createAccount } from '../../seed.js';
import { newId } from '../../services/ids.js';
import type { Store } from '../../storage/store.js';
import type { AcknowledgedBatch } from '../recording-session.js';
import { StreamRecorder } from '../stream-recorder.js';

/** A recorder on a real store and bus, with one account, a report and a stream recorded into it. */
export async function recordingFixture(store: Store) {
  const clock = new ManualClock();
  const bus = new InProcessFanoutBus();
  const acknowledged: AcknowledgedBatch[] = [];
  const errors: unknown[] = [];
  /** What the recorder reported as shed, one entry per report. */
  const shedReports: number[] = [];
  const { accountId } = await createAccount(store, clock, 'paid', 'local-1');
  const report = await store.reports.insert({
    id: newId('ReportId'),
    accountId,
    title: 'Recorded',
    status: 'draft',
    createdAt: new Date(clock.now()).toISOString(),
  });
  const newStream = async (recordingReportId: string | null) =>
    (
      await store.streams.insert({
        id: newId('StreamId'),
        accountId,
        title: 'Recorded stream',
        status: 'live',
        quality: 'high',
        format: 'json',
        region: 'local-1',
        streamKeyHash: 'unused',
        subscriberCount: 0,
        metadata: {},
        startedAt: null,
        recordingReportId,
        createdAt: new Date(clock.now()).toISOString(),
      })
    ).id;
  const recorder = new StreamRecorder({
    store,
    clock,
    bus,
    onAcknowledged: (batch) => acknowledged.push(batch),
    onError: (error) => errors.push(error),
    onShed: (_streamId, samples) => shedReports.push(samples),
  });
  return {
    accountId,
    reportId: report.id,
    bus,
    recorder,
    acknowledged,
    errors,
    shedReports,
    newStream,
    /** Publishes samples `from`, `from + 1`, … as telemetry messages (ts is the index). */
    publish(streamId: string, count: number, from = 0) {
      for (let index = from; index < from + count; index++)
        bus.publish({
          type: 'telemetry',
          streamId,
          receivedAt: index,
          sample: { ts: index, values: { v: index } },
        });
    },
    idle: (streamId: string) => bus.publish({ type: 'status', streamId, status: 'idle', subscriberCount: 0 }),
    /** Every recorded record of the report, oldest first. */
    async records() {
      const page = await store.records.list(accountId, { limit: 100 }, { reportId: report.id });
      return (page?.items ?? []).reverse();
    },
  };
}
