// @ts-nocheck
import type { Conversation, WalkthroughRecord } from '../record.ts';

/**
 * Where walkthroughs live. Two implementations with the same semantics (one contract test suite):
 * memory (the embedded default) and Redis (shared by replicas, survives restarts).
 */
export interface WalkthroughStore {
  readonly kind: 'memory' | 'redis';
  /** Saves a new walkthrough; throws WalkthroughConflictError when the id is taken. */
  create(record: WalkthroughRecord): Promise<void>;
  /** The walkthrough, or undefined when there is none (or it expired). */
  get(id: string): Promise<WalkthroughRecord | undefined>;
  /**
   * Writes `next` only if the stored version is still `expectedVersion`, atomically, and refreshes
   * the TTL. Throws WalkthroughConflictError ("already answered by X") when someone wrote first,
   * WalkthroughNotFoundError when it is gone.
   */
  replace(next: WalkthroughRecord, expectedVersion: number): Promise<void>;
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
