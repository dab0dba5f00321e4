// @ts-nocheck
import { WalkthroughConflictError, WalkthroughNotFoundError } from '../../errors.ts';
import type { Conversation, WalkthroughRecord } from '../record.ts';
import { conflictError, readRecord } from './conflict.ts';
import { byCreation, DEFAULT_TTL_SECONDS, type WalkthroughStore } from './types.ts';

interface Entry {
  json: string;
  version: number;
  expiresAt: number;
}

/** Options for the memory store; `now` lets tests move time to check expiry. */
export interface MemoryStoreOptions {
  ttlSeconds?: number;
  now?: () => number;
}

/**
 * The embedded default: same semantics as the Redis store (version check, TTL refreshed on writes,
 * JSON copies so callers cannot change stored state), lost when the process exits.
 */
export class MemoryWalkthroughStore implements WalkthroughStore {
  readonly kind = 'memory' as const;
  private readonly entries = new Map<string, Entry>();
  private readonly threads = new Map<string, string>();
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(options: MemoryStoreOptions = {}) {
    this.ttlMs = (options.ttlSeconds ?? DEFAULT_TTL_SECONDS) * 1000;
    this.now = options.now ?? Date.now;
  }

  private live(id: string): Entry | undefined {
    const entry = this.entries.get(id);
    if (entry && entry.expiresAt <= this.now()) {
      this.entries.delete(id);
      return undefined;
    }
    return entry;
  }

  private write(record: WalkthroughRecord): void {
    this.entries.set(record.id, {
      json: JSON.stringify(record),
      version: record.version,
      expiresAt: this.now() + this.ttlMs,
    });
    if (record.thread) this.threads.set(threadKey(record, record.thread), record.id);
  }

  async create(record: WalkthroughRecord): Promise<void> {
    if (this.live(record.id))
      throw new WalkthroughConflictError(`a walkthrough with id "${record.id}" already exists.`);
    this.write(record);
  }

  async get(id: string): Promise<WalkthroughRecord | undefined> {
    const entry = this.live(id);
    return entry ? readRecord(entry.json, id) : undefined;
  }

  async replace(next: WalkthroughRecord, expectedVersion: number): Promise<void> {
    const entry = this.live(next.id);
    if (!entry)
      throw new WalkthroughNotFoundError(next.id, 'it expired or was never saved; start a new one.');
    if (entry.version !== expectedVersion) throw conflictError(readRecord(entry.json, next.id));
    this.write(next);
  }

  async listActive(where: Conversation): Promise<WalkthroughRecord[]> {
    const found: WalkthroughRecord[] = [];
    for (const id of [...this.entries.keys()]) {
      const entry = this.live(id);
      if (!entry) continue;
      const record = readRecord(entry.json, id);
      if (record.status === 'active' && sameConversation(record, where)) found.push(record);
    }
    return found.sort(byCreation);
  }

  async findByThread(where: Conversation, thread: string): Promise<WalkthroughRecord | undefined> {
    const id = this.threads.get(threadKey(where, thread));
    return id ? this.get(id) : undefined;
  }

  async close(): Promise<void> {}
}

function sameConversation(record: WalkthroughRecord, where: Conversation): boolean {
  return record.workspace === where.workspace && record.conversation === where.conversation;
}

function threadKey(where: Conversation, thread: string): string {
  return `${where.workspace}/${where.conversation}/${thread}`;
}
