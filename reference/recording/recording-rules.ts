import { recordFacts, schemaMaxItems } from '../../generated/types/facts.js';

/** Record.x-recording: a batch is written when it holds this many samples… */
export const flushSamples: number = recordFacts.recording.flushSamples;
/** …or when its oldest sample waited this long (wall clock: a durability bound, not a service schedule). */
export const flushIntervalMilliseconds: number = recordFacts.recording.flushIntervalMilliseconds;
/** A record holds at most this many samples; a session continues in a new record. */
export const maxSamplesPerRecord: number = schemaMaxItems['Record.samples'];
/** A session holds at most this many received but unwritten samples; newer ones are shed (Record.x-recording.backlog). */
export const maxBacklogSamples: number = recordFacts.recording.maxBacklogSamples;
