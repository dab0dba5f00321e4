import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import { RedisScripts } from '../redis/commands.ts';
import type { RedisConnection } from '../redis/connect.ts';
import { RedisKeys } from '../redis/keys.ts';

/** Where the assist keeps cached answers and per-workspace request counts. */
export interface LlmStore {
  get(hash: string): Promise<string | undefined>;
  set(hash: string, value: string, ttlSeconds: number): Promise<void>;
  /** Counts one request for `workspace` in the current window; resolves to the count so far. */
  hit(workspace: string, windowSeconds: number, now?: number): Promise<number>;
}

/** Process-local store: used without Redis, and as the fallback when Redis fails. */
export class MemoryLlmStore implements LlmStore {
  // Bounded for a long-running bot without Redis: past maxEntries the least recently used answer goes.
  private readonly values: LRUCache<string, string>;
  private readonly counts = new Map<string, number>();

  /** `now` (milliseconds) replaces the cache's monotonic clock in tests. */
  constructor(maxEntries = 1000, now?: () => number) {
    this.values = new LRUCache<string, string>({
      max: maxEntries,
      // A test's clock jumps; without this the cache would keep reading the time it cached for 1 ms.
      ...(now ? { perf: { now }, ttlResolution: 0 } : {}),
    });
  }

  async get(hash: string): Promise<string | undefined> {
    return this.values.get(hash);
  }

  async set(hash: string, value: string, ttlSeconds: number): Promise<void> {
    // lru-cache reads a TTL of 0 as "never expires"; an answer given no time is not kept at all.
    if (ttlSeconds <= 0) {
      this.values.delete(hash);
      return;
    }
    this.values.set(hash, value, { ttl: ttlSeconds * 1000 });
  }

  async hit(workspace: string, windowSeconds: number, now = Date.now()): Promise<number> {
    const key = `${workspace}:${Math.floor(now / 1000 / windowSeconds)}`;
    const count = (this.counts.get(key) ?? 0) + 1;
    // Old windows are never read again; keep the map from growing in a long-running bot.
    if (count === 1)
      for (const old of this.counts.keys()) if (old.startsWith(`${workspace}:`)) this.counts.delete(old);
    this.counts.set(key, count);
    return count;
  }
}

/**
 * Redis-backed store shared by every bot process. A Redis failure never stops the assist: the
 * operation falls back to a process-local store and the failure is logged.
 */
export class RedisLlmStore implements LlmStore {
  private readonly keys: RedisKeys;
  private readonly scripts: RedisScripts;
  private readonly fallback = new MemoryLlmStore();

  constructor(
    private readonly redis: RedisConnection,
    private readonly log: Logger,
    prefix?: string,
  ) {
    this.keys = new RedisKeys(prefix);
    this.scripts = new RedisScripts(redis);
  }

  async get(hash: string): Promise<string | undefined> {
    try {
      return (await this.redis.get(this.keys.modelAnswer(hash))) ?? undefined;
    } catch (error) {
      this.warn('cache read', error);
      return this.fallback.get(hash);
    }
  }

  async set(hash: string, value: string, ttlSeconds: number): Promise<void> {
    try {
      await this.redis.set(this.keys.modelAnswer(hash), value, 'EX', ttlSeconds);
    } catch (error) {
      this.warn('cache write', error);
      await this.fallback.set(hash, value, ttlSeconds);
    }
  }

  async hit(workspace: string, windowSeconds: number, now = Date.now()): Promise<number> {
    const key = this.keys.modelRequests(workspace, Math.floor(now / 1000 / windowSeconds));
    try {
      return await this.scripts.countModelRequest(key, windowSeconds);
    } catch (error) {
      this.warn('rate count', error);
      return this.fallback.hit(workspace, windowSeconds, now);
    }
  }

  private warn(what: string, error: unknown): void {
    this.log.warn({ err: error }, `redis ${what} failed; using the in-process store instead`);
  }
}
