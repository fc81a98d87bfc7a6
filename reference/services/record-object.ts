import type { Record as RecordObject, TelemetrySample } from '../../generated/types/schemas.js';
import type { RecordRow } from '../storage/rows.js';

/** The Record object of the spec for a stored row; reports and records both answer with it. */
export function recordObject(row: RecordRow): RecordObject {
  return {
    id: row.id,
    object: 'record',
    reportId: row.reportId,
    status: row.status as RecordObject['status'],
    source: row.source as RecordObject['source'],
    streamId: row.streamId,
    title: row.title,
    sampleCount: row.samples.length,
    samples: row.samples as TelemetrySample[],
    createdAt: row.createdAt,
    publishedAt: row.publishedAt,
  };
}

export function eventDataForRecord(record: RecordObject) {
  return { object: record };
}
