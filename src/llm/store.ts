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
  private readonly values = new Map<string, { value: string; expires: number }>();
  private readonly counts = new Map<string, number>();

  constructor(private readonly maxEntries = 1000) {}

  async get(hash: string): Promise<string | undefined> {
    const entry = this.values.get(hash);
    if (!entry) return undefined;
    if (entry.expires <= Date.now()) {
      this.values.delete(hash);
      return undefined;
    }
    return entry.value;
  }

  async set(hash: string, value: string, ttlSeconds: number): Promise<void> {
    this.values.delete(hash);
    this.values.set(hash, { value, expires: Date.now() + ttlSeconds * 1000 });
    // Bounded for a long-running bot without Redis: a Map iterates oldest first.
    for (const oldest of this.values.keys()) {
      if (this.values.size <= this.maxEntries) break;
      this.values.delete(oldest);
    }
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
