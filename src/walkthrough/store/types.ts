import type { AuditEntry, Conversation, WalkthroughRecord } from '../record.ts';

/** How a new walkthrough is saved. */
export interface CreateOptions {
  /** Audit entries that are not in the record (oldest first). */
  archived?: readonly AuditEntry[];
  /** False: hidden from listActive until the next write. Default true. */
  listed?: boolean;
}

/** A walkthrough with its whole audit trail: the store's audit log, then the record's recent entries. */
export interface WalkthroughWithAudit {
  record: WalkthroughRecord;
  audit: AuditEntry[];
}

/**
 * Where walkthroughs live. Two implementations with the same semantics (one contract test suite):
 * memory (the embedded default) and Redis (shared by replicas, survives restarts).
 */
export interface WalkthroughStore {
  readonly kind: 'memory' | 'redis';
  /**
   * Saves a new walkthrough, and `archived` (audit entries no longer in the record) to its audit
   * log; throws WalkthroughConflictError when the id is taken. With `listed: false` listActive does
   * not show it until its next write (a walkthrough waiting for its chat thread to be linked).
   */
  create(record: WalkthroughRecord, options?: CreateOptions): Promise<void>;
  /** The walkthrough, or undefined when there is none (or it expired). */
  get(id: string): Promise<WalkthroughRecord | undefined>;
  /** The walkthrough and its whole audit trail, read together (for the transcript). */
  getWithAudit(id: string): Promise<WalkthroughWithAudit | undefined>;
  /**
   * Writes `next` only if the stored version is still `expectedVersion`, and appends `archived` to
   * its audit log, atomically and in one round trip; refreshes the TTL. Throws
   * WalkthroughConflictError ("already answered by X") when someone wrote first, and
   * WalkthroughNotFoundError when it is gone; then nothing was written.
   */
  replace(next: WalkthroughRecord, expectedVersion: number, archived?: readonly AuditEntry[]): Promise<void>;
  /** Active walkthroughs of one conversation (a Slack channel, the console), oldest first. */
  listActive(where: Conversation): Promise<WalkthroughRecord[]>;
  /** The latest walkthrough started in a chat thread. */
  findByThread(where: Conversation, thread: string): Promise<WalkthroughRecord | undefined>;
  close(): Promise<void>;
}

/** Seven days: long enough for a hand-over across a weekend; refreshed on every answer. */
export const DEFAULT_TTL_SECONDS = 7 * 24 * 3600;

/** Sorts walkthroughs oldest first, then by id, so listings are stable. */
export function byCreation(a: WalkthroughRecord, b: WalkthroughRecord): number {
  return a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id);
}
