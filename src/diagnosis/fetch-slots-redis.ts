import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { type FetchSlotKeys, RedisScripts } from '../redis/commands.ts';
import type { RedisConnection } from '../redis/connection.ts';
import type { RedisKeys } from '../redis/keys.ts';
import { ScriptCode } from '../redis/scripts.ts';
import {
  FetchLimiter,
  type FetchLimits,
  type FetchSlot,
  type FetchSlots,
  MINUTE_MS,
  refusal,
} from './fetch-limits.ts';

/** How long a running fetch's place outlives its process when the process dies without giving it back. */
export const DEFAULT_LEASE_MS = 30_000;

export interface RedisFetchSlotsOptions {
  /** A lease's length; its holder renews it every third of it while the fetch runs. */
  leaseMs?: number;
  log?: Logger;
}

/**
 * The fetch caps held in Redis, so replicas share them: one person's twenty checks spread over three
 * replicas still meet the per-person cap. Each running fetch holds a lease its process renews; a
 * process that dies stops renewing and its place comes back when the lease lapses. When Redis cannot
 * be reached, this process's own counts stand in (a warning in the log), so fetches go on.
 */
export class RedisFetchSlots implements FetchSlots {
  private readonly scripts: RedisScripts;
  private readonly leaseMs: number;
  private readonly fallback: FetchLimiter;
  /** Releases sent and not yet answered: a process about to close its connection waits for them. */
  private readonly releasing = new Set<Promise<void>>();

  constructor(
    redis: RedisConnection,
    private readonly keys: RedisKeys,
    private readonly limits: FetchLimits,
    private readonly options: RedisFetchSlotsOptions = {},
  ) {
    this.scripts = new RedisScripts(redis);
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    this.fallback = new FetchLimiter(limits);
  }

  async take(who: string): Promise<FetchSlot> {
    const keys = this.keysOf(who);
    const lease = randomUUID();
    const { perUser, perUserPerMinute, total } = this.limits;
    try {
      const reply = await this.scripts.takeFetchSlot(keys, {
        lease,
        leaseMs: this.leaseMs,
        perUser,
        perUserPerWindow: perUserPerMinute,
        total,
        windowMs: MINUTE_MS,
      });
      if ('taken' in reply) return { release: this.hold(keys, lease) };
      if (reply.refused === ScriptCode.FetchPerUser)
        return { refused: refusal.running(reply.count, perUser) };
      if (reply.refused === ScriptCode.FetchPerWindow)
        return { refused: refusal.started(reply.count, reply.waitMs, perUserPerMinute) };
      return { refused: refusal.total(reply.count) };
    } catch (error) {
      this.options.log?.warn({ err: error }, 'redis fetch caps failed; counting in this process instead');
      return this.fallback.take(who);
    }
  }

  private keysOf(who: string): FetchSlotKeys {
    return {
      running: this.keys.fetchesRunning(),
      runningBy: this.keys.fetchesRunningBy(who),
      startedBy: this.keys.fetchesStartedBy(who),
    };
  }

  /** Renews the lease while the fetch runs; the release stops that and gives the place back, once. */
  private hold(keys: FetchSlotKeys, lease: string): () => void {
    const renew = setInterval(() => {
      this.scripts.renewFetchSlot(keys, lease, this.leaseMs).catch((error: unknown) => {
        this.options.log?.warn({ err: error }, 'redis fetch lease renewal failed');
      });
    }, this.leaseMs / 3);
    renew.unref();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      clearInterval(renew);
      const sent = this.scripts.releaseFetchSlot(keys, lease).catch((error: unknown) => {
        this.options.log?.warn(
          { err: error },
          'redis fetch release failed; the place comes back when its lease lapses',
        );
      });
      this.releasing.add(sent);
      void sent.finally(() => this.releasing.delete(sent));
    };
  }

  /**
   * Resolves once every place given back has reached Redis. A one-shot `memdoctor check` closes its
   * connection right after its fetch: without this wait its place would stay taken until the lease
   * lapsed, and the person's next checks would be refused for it.
   */
  async settled(): Promise<void> {
    await Promise.all([...this.releasing]);
  }
}
