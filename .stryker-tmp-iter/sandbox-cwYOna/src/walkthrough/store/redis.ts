// @ts-nocheck
import type { Cluster, Redis } from 'ioredis';
import {
  ErrorCode,
  MemdoctorError,
  StoreUnavailableError,
  WalkthroughConflictError,
  WalkthroughNotFoundError,
} from '../../errors.ts';
import { type Conversation, parseWalkthroughId, type WalkthroughRecord } from '../record.ts';
import { conflictError, readRecord } from './conflict.ts';
import { WalkthroughKeys } from './keys.ts';
import { defineScripts, ScriptCode } from './scripts.ts';
import { byCreation, DEFAULT_TTL_SECONDS, type WalkthroughStore } from './types.ts';

/** Options for the Redis store. */
export interface RedisStoreOptions {
  /** Key prefix; tests use a random one each. Default `memdoctor`. */
  prefix?: string;
  ttlSeconds?: number;
  /** Close the connection on `close()` (true when the store opened it). */
  ownsConnection?: boolean;
}

/**
 * Walkthroughs in Redis: one hash per walkthrough, an active index per conversation and a thread
 * lookup, all under the conversation's hash tag. Each write is one Lua script (check version, write,
 * refresh TTL, update the index) so concurrent answers give exactly one transition.
 */
export class RedisWalkthroughStore implements WalkthroughStore {
  readonly kind = 'redis' as const;
  readonly keys: WalkthroughKeys;
  private readonly ttlSeconds: number;
  private readonly run: ReturnType<typeof defineScripts>;

  /** `redis` may be a single server or a Cluster: every script's keys share one hash slot. */
  constructor(
    private readonly redis: Redis | Cluster,
    private readonly options: RedisStoreOptions = {},
  ) {
    this.keys = new WalkthroughKeys(options.prefix);
    this.ttlSeconds = options.ttlSeconds ?? DEFAULT_TTL_SECONDS;
    this.run = defineScripts(redis);
  }

  /** Runs a Redis call; a lost connection becomes a StoreUnavailableError a person can act on. */
  private async call<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      if (error instanceof MemdoctorError) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      throw new StoreUnavailableError(
        `Redis (REDIS_URL) did not answer: ${reason}. Check that Redis is up, then look at the walkthrough (status) before answering again.`,
        { cause: error },
      );
    }
  }

  private keysOf(record: WalkthroughRecord): string[] {
    return [
      this.keys.record(record, record.id),
      this.keys.active(record),
      this.keys.thread(record, record.thread),
    ];
  }

  async create(record: WalkthroughRecord): Promise<void> {
    const code = await this.call(() =>
      this.run('createWalkthrough', this.keysOf(record), [
        JSON.stringify(record),
        record.version,
        this.ttlSeconds,
        record.id,
        Date.parse(record.updatedAt),
        record.status === 'active' ? '1' : '0',
        record.thread ? '1' : '0',
      ]),
    );
    if (code === ScriptCode.RecordExists)
      throw new WalkthroughConflictError(`a walkthrough with id "${record.id}" already exists.`);
  }

  async get(id: string): Promise<WalkthroughRecord | undefined> {
    const where = parseWalkthroughId(id);
    if (!where) return undefined;
    const json = await this.call(() => this.redis.hget(this.keys.record(where, id), 'data'));
    return json === null ? undefined : readRecord(json, id);
  }

  async replace(next: WalkthroughRecord, expectedVersion: number): Promise<void> {
    const reply = (await this.call(() =>
      this.run('replaceWalkthrough', this.keysOf(next), [
        expectedVersion,
        next.version,
        JSON.stringify(next),
        this.ttlSeconds,
        next.id,
        Date.parse(next.updatedAt),
        next.status === 'active' ? '1' : '0',
        next.thread ? '1' : '0',
      ]),
    )) as [number, string?];
    const [code, stored] = reply;
    if (code === ScriptCode.RecordMissing)
      throw new WalkthroughNotFoundError(next.id, 'it expired or was never saved; start a new one.');
    if (code === ScriptCode.VersionMismatch && stored !== undefined)
      throw conflictError(readRecord(stored, next.id));
    if (code !== next.version)
      throw new MemdoctorError(
        ErrorCode.Internal,
        `unexpected reply from replaceWalkthrough: ${JSON.stringify(reply)}`,
      );
  }

  async listActive(where: Conversation): Promise<WalkthroughRecord[]> {
    const ids = await this.call(() => this.redis.zrange(this.keys.active(where), '0', '-1'));
    if (ids.length === 0) return [];
    const pipeline = this.redis.pipeline();
    for (const id of ids) pipeline.hget(this.keys.record(where, id), 'data');
    const replies = (await this.call(() => pipeline.exec())) ?? [];
    const found: WalkthroughRecord[] = [];
    replies.forEach(([error, json], i) => {
      if (error) throw error;
      if (typeof json === 'string') found.push(readRecord(json, ids[i] ?? ''));
    });
    return found.filter((r) => r.status === 'active').sort(byCreation);
  }

  async findByThread(where: Conversation, thread: string): Promise<WalkthroughRecord | undefined> {
    const id = await this.call(() => this.redis.get(this.keys.thread(where, thread)));
    return id ? this.get(id) : undefined;
  }

  async close(): Promise<void> {
    if (this.options.ownsConnection) await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
