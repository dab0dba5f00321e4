import {
  ErrorCode,
  MemdoctorError,
  WalkthroughConflictError,
  WalkthroughNotFoundError,
} from '../../errors.ts';
import { RedisScripts, ScriptRefusedError, type WalkthroughWrite } from '../../redis/commands.ts';
import { type RedisConnection, targetOf } from '../../redis/connect.ts';
import { storeFailure } from '../../redis/failure.ts';
import { RedisKeys } from '../../redis/keys.ts';
import { ScriptCode } from '../../redis/scripts.ts';
import type { RedisTarget } from '../../redis/target.ts';
import { type AuditEntry, type Conversation, parseWalkthroughId, type WalkthroughRecord } from '../record.ts';
import { conflictError, readAuditLog, readRecord } from './conflict.ts';
import {
  byCreation,
  type CreateOptions,
  DEFAULT_TTL_SECONDS,
  type WalkthroughStore,
  type WalkthroughWithAudit,
} from './types.ts';

/** Options for the Redis store. */
export interface RedisStoreOptions {
  /** Key prefix; tests use a random one each. Default `memdoctor`. */
  prefix?: string;
  ttlSeconds?: number;
  /** Close the connection on `close()` (true when the store opened it). */
  ownsConnection?: boolean;
  /** What the configuration named, for error messages; read from the connection when unset. */
  target?: RedisTarget;
}

/**
 * Walkthroughs in Redis: one hash per walkthrough, its audit log (a list), an active index per
 * conversation and a thread lookup, all under the conversation's hash tag. Each write is one Lua
 * script (check version, write, append to the audit log, refresh TTLs, update the index) so
 * concurrent answers give exactly one transition, in one round trip.
 */
export class RedisWalkthroughStore implements WalkthroughStore {
  readonly kind = 'redis' as const;
  readonly keys: RedisKeys;
  private readonly ttlSeconds: number;
  private readonly scripts: RedisScripts;
  private readonly target: RedisTarget;

  /** `redis` may be a single server or a Cluster: every script's keys share one hash slot. */
  constructor(
    private readonly redis: RedisConnection,
    private readonly options: RedisStoreOptions = {},
  ) {
    this.keys = new RedisKeys(options.prefix);
    this.ttlSeconds = options.ttlSeconds ?? DEFAULT_TTL_SECONDS;
    this.scripts = new RedisScripts(redis);
    this.target = options.target ?? targetOf(redis);
  }

  /** A failed Redis call as a StoreUnavailableError a person can act on. */
  private unavailable(error: unknown): Promise<MemdoctorError> {
    return storeFailure(error, this.redis, this.target);
  }

  /** Runs a Redis call; its failure becomes a StoreUnavailableError (a script's refusal stays one). */
  private async call<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      if (error instanceof ScriptRefusedError) throw error;
      throw await this.unavailable(error);
    }
  }

  private writeOf(
    record: WalkthroughRecord,
    listed: boolean,
    archived: readonly AuditEntry[],
  ): WalkthroughWrite {
    return {
      keys: {
        record: this.keys.walkthrough(record, record.id),
        active: this.keys.activeWalkthroughs(record),
        thread: this.keys.threadWalkthrough(record, record.thread),
        audit: this.keys.walkthroughAudit(record, record.id),
      },
      id: record.id,
      version: record.version,
      json: JSON.stringify(record),
      ttlSeconds: this.ttlSeconds,
      activityMs: Date.parse(record.updatedAt),
      listed,
      threaded: Boolean(record.thread),
      archived: archived.map((e) => JSON.stringify(e)),
    };
  }

  async create(record: WalkthroughRecord, options: CreateOptions = {}): Promise<void> {
    const listed = record.status === 'active' && options.listed !== false;
    try {
      await this.call(() =>
        this.scripts.createWalkthrough(this.writeOf(record, listed, options.archived ?? [])),
      );
    } catch (error) {
      if (error instanceof ScriptRefusedError && error.code === ScriptCode.RecordExists)
        throw new WalkthroughConflictError(`a walkthrough with id "${record.id}" already exists.`);
      throw error;
    }
  }

  async get(id: string): Promise<WalkthroughRecord | undefined> {
    const where = parseWalkthroughId(id);
    if (!where) return undefined;
    const json = await this.call(() => this.redis.hget(this.keys.walkthrough(where, id), 'data'));
    return json === null ? undefined : readRecord(json, id);
  }

  async getWithAudit(id: string): Promise<WalkthroughWithAudit | undefined> {
    const where = parseWalkthroughId(id);
    if (!where) return undefined;
    // One transaction: a write between the two reads would move entries from the record to the log.
    const replies = await this.call(() =>
      this.redis
        .multi()
        .hget(this.keys.walkthrough(where, id), 'data')
        .lrange(this.keys.walkthroughAudit(where, id), 0, -1)
        .exec(),
    );
    const [[recordError, json] = [], [logError, log] = []] = replies ?? [];
    if (recordError || logError) throw await this.unavailable(recordError ?? logError);
    if (typeof json !== 'string') return undefined;
    const record = readRecord(json, id);
    return { record, audit: [...readAuditLog(log as string[], id), ...record.audit] };
  }

  async replace(
    next: WalkthroughRecord,
    expectedVersion: number,
    archived: readonly AuditEntry[] = [],
  ): Promise<void> {
    const write = this.writeOf(next, next.status === 'active', archived);
    try {
      await this.call(() => this.scripts.replaceWalkthrough(write, expectedVersion));
    } catch (error) {
      if (!(error instanceof ScriptRefusedError)) throw error;
      if (error.code === ScriptCode.RecordMissing)
        throw new WalkthroughNotFoundError(next.id, 'it expired or was never saved; start a new one.');
      if (error.code === ScriptCode.VersionMismatch && error.stored !== undefined)
        throw conflictError(readRecord(error.stored, next.id));
      throw new MemdoctorError(ErrorCode.Internal, error.message);
    }
  }

  async listActive(where: Conversation): Promise<WalkthroughRecord[]> {
    const ids = await this.call(() => this.redis.zrange(this.keys.activeWalkthroughs(where), '0', '-1'));
    if (ids.length === 0) return [];
    const pipeline = this.redis.pipeline();
    for (const id of ids) pipeline.hget(this.keys.walkthrough(where, id), 'data');
    const replies = (await this.call(() => pipeline.exec())) ?? [];
    const failed = replies.find(([error]) => error)?.[0];
    if (failed) throw await this.unavailable(failed);
    const found: WalkthroughRecord[] = [];
    replies.forEach(([, json], i) => {
      if (typeof json === 'string') found.push(readRecord(json, ids[i] ?? ''));
    });
    return found.filter((r) => r.status === 'active').sort(byCreation);
  }

  async findByThread(where: Conversation, thread: string): Promise<WalkthroughRecord | undefined> {
    const id = await this.call(() => this.redis.get(this.keys.threadWalkthrough(where, thread)));
    return id ? this.get(id) : undefined;
  }

  async close(): Promise<void> {
    if (this.options.ownsConnection) await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
