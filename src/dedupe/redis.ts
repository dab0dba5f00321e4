import { type RedisConnection, targetOf } from '../redis/connect.ts';
import { storeUnavailable } from '../redis/failure.ts';
import type { RedisKeys } from '../redis/keys.ts';
import { DEDUPE_TTL_SECONDS, type EventDedupe } from './event-dedupe.ts';

/** Shared by every replica: `SET key 1 NX EX ttl` succeeds for exactly one delivery of an event. */
export class RedisEventDedupe implements EventDedupe {
  constructor(
    private readonly redis: RedisConnection,
    private readonly keys: RedisKeys,
    private readonly ttlSeconds = DEDUPE_TTL_SECONDS,
  ) {}

  /** Throws StoreUnavailableError when Redis cannot say. */
  async firstTime(eventId: string, ttlSeconds = this.ttlSeconds): Promise<boolean> {
    try {
      const reply = await this.redis.set(this.keys.claim(eventId), '1', 'EX', ttlSeconds, 'NX');
      return reply === 'OK';
    } catch (error) {
      throw storeUnavailable(error, targetOf(this.redis));
    }
  }
}
