/**
 * Loss, reordering and duplicates of one subscriber's view of one stream, from the per-stream sequence numbers the
 * driver put in the samples (1, 2, 3, …). Missing numbers are kept as ranges, so a long outage costs one entry.
 * A number that fills a gap was reordered; a number seen before is a duplicate; what is still missing at the end, and
 * everything after the highest number received up to the number sent, is lost.
 */
export interface SequenceCounts {
  received: number;
  unique: number;
  reordered: number;
  duplicated: number;
  /** Highest sequence number received. */
  highest: number;
  /** Numbers below `highest` not received (so far). */
  gaps: number;
}

export class SequenceTracker {
  #received = 0;
  #reordered = 0;
  #duplicated = 0;
  #highest = 0;
  /** Disjoint, sorted, inclusive ranges of missing numbers below `#highest`. */
  readonly #missing: Array<[number, number]> = [];
  #gaps = 0;

  record(sequence: number): void {
    this.#received += 1;
    if (sequence > this.#highest) {
      if (sequence > this.#highest + 1) {
        this.#missing.push([this.#highest + 1, sequence - 1]);
        this.#gaps += sequence - 1 - this.#highest;
      }
      this.#highest = sequence;
      return;
    }
    const index = this.#rangeHolding(sequence);
    if (index === -1) {
      this.#duplicated += 1;
      return;
    }
    this.#reordered += 1;
    this.#gaps -= 1;
    this.#fill(index, sequence);
  }

  counts(): SequenceCounts {
    return {
      received: this.#received,
      unique: this.#received - this.#duplicated,
      reordered: this.#reordered,
      duplicated: this.#duplicated,
      highest: this.#highest,
      gaps: this.#gaps,
    };
  }

  /** Samples lost once `sent` were sent: the gaps plus everything after the highest received. */
  lost(sent: number): number {
    return this.#gaps + Math.max(0, sent - this.#highest);
  }

  #rangeHolding(sequence: number): number {
    let low = 0;
    let high = this.#missing.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const [start, end] = this.#missing[middle] as [number, number];
      if (sequence < start) high = middle - 1;
      else if (sequence > end) low = middle + 1;
      else return middle;
    }
    return -1;
  }

  #fill(index: number, sequence: number): void {
    const [start, end] = this.#missing[index] as [number, number];
    if (start === end) this.#missing.splice(index, 1);
    else if (sequence === start) this.#missing[index] = [start + 1, end];
    else if (sequence === end) this.#missing[index] = [start, end - 1];
    else this.#missing.splice(index, 1, [start, sequence - 1], [sequence + 1, end]);
  }
}
