import { LRUCache } from 'lru-cache';
import type { WalkthroughRecord } from './record.ts';

/** Enough for every walkthrough a busy workspace has open at once; one record is a few KB. */
export const DEFAULT_RECENT_RECORDS = 500;

/**
 * The records this process last read or wrote, so a click on a step it just posted needs no read
 * before its write: the write itself checks the version in the store, and a record another replica
 * changed meanwhile is refused there and read again. A hint, never the truth: nothing is decided on
 * a cached record that the store has not confirmed by accepting the write.
 */
export class RecentRecords {
  private readonly records: LRUCache<string, WalkthroughRecord>;

  constructor(max = DEFAULT_RECENT_RECORDS) {
    this.records = new LRUCache({ max });
  }

  /** A copy, so a caller changing what it got cannot change what the next click starts from. */
  get(id: string): WalkthroughRecord | undefined {
    const record = this.records.get(id);
    return record ? structuredClone(record) : undefined;
  }

  remember(record: WalkthroughRecord): void {
    this.records.set(record.id, structuredClone(record));
  }

  forget(id: string): void {
    this.records.delete(id);
  }
}
