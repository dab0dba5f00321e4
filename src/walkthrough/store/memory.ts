import { WalkthroughConflictError, WalkthroughNotFoundError } from '../../errors.ts';
import type { AuditEntry, Conversation, WalkthroughRecord } from '../record.ts';
import { conflictError, readAuditLog, readRecord } from './conflict.ts';
import {
  byCreation,
  type CreateOptions,
  DEFAULT_TTL_SECONDS,
  type WalkthroughStore,
  type WalkthroughWithAudit,
} from './types.ts';

interface Entry {
  json: string;
  version: number;
  expiresAt: number;
  /** The audit log: entries no longer in the record, as JSON, oldest first. */
  archived: string[];
  /** Shown by listActive (every write but an unlisted create lists it). */
  listed: boolean;
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

  private write(record: WalkthroughRecord, archived: string[], listed = true): void {
    this.entries.set(record.id, {
      json: JSON.stringify(record),
      version: record.version,
      expiresAt: this.now() + this.ttlMs,
      archived,
      listed,
    });
    if (record.thread) this.threads.set(threadKey(record, record.thread), record.id);
  }

  async create(record: WalkthroughRecord, options: CreateOptions = {}): Promise<void> {
    if (this.live(record.id))
      throw new WalkthroughConflictError(`a walkthrough with id "${record.id}" already exists.`);
    const archived = (options.archived ?? []).map((e) => JSON.stringify(e));
    this.write(record, archived, options.listed ?? true);
  }

  async get(id: string): Promise<WalkthroughRecord | undefined> {
    const entry = this.live(id);
    return entry ? readRecord(entry.json, id) : undefined;
  }

  async getWithAudit(id: string): Promise<WalkthroughWithAudit | undefined> {
    const entry = this.live(id);
    if (!entry) return undefined;
    const record = readRecord(entry.json, id);
    return { record, audit: [...readAuditLog(entry.archived, id), ...record.audit] };
  }

  async replace(
    next: WalkthroughRecord,
    expectedVersion: number,
    archived: readonly AuditEntry[] = [],
  ): Promise<void> {
    const entry = this.live(next.id);
    if (!entry)
      throw new WalkthroughNotFoundError(next.id, 'it expired or was never saved; start a new one.');
    if (entry.version !== expectedVersion) throw conflictError(readRecord(entry.json, next.id));
    this.write(next, [...entry.archived, ...archived.map((e) => JSON.stringify(e))]);
  }

  async listActive(where: Conversation): Promise<WalkthroughRecord[]> {
    const found: WalkthroughRecord[] = [];
    for (const id of [...this.entries.keys()]) {
      const entry = this.live(id);
      if (!entry?.listed) continue;
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
