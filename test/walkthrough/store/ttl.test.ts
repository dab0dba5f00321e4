import { afterAll, describe, expect, it } from 'vitest';
import { RedisKeys } from '../../../src/redis/keys.ts';
import { MemoryWalkthroughStore } from '../../../src/walkthrough/store/memory.ts';
import { RedisWalkthroughStore } from '../../../src/walkthrough/store/redis.ts';
import { deletePrefix, newRedis, randomPrefix } from '../../support/redis.ts';
import { newRecord, play } from '../helpers.ts';

describe('memory store TTL', () => {
  it('expires a walkthrough a TTL after its last write; each write refreshes it', async () => {
    let now = 0;
    const store = new MemoryWalkthroughStore({ ttlSeconds: 100, now: () => now });
    const first = play(newRecord(), [{ type: 'start' }]);
    await store.create(first);
    now = 90_000;
    await store.replace(play(first, [{ type: 'choose', answer: 'heap' }]), first.version);
    now = 180_000;
    expect(await store.get(first.id)).toBeDefined();
    now = 190_000;
    expect(await store.get(first.id)).toBeUndefined();
    expect(await store.listActive({ workspace: 'local', conversation: 'test' })).toEqual([]);
  });
});

describe('redis store TTL', () => {
  const redis = newRedis();
  const prefix = randomPrefix();
  afterAll(async () => {
    await deletePrefix(redis, prefix);
    await redis.quit();
  });

  it('sets the TTL on create and refreshes it on every write', async () => {
    const store = new RedisWalkthroughStore(redis, { prefix, ttlSeconds: 600 });
    const first = play(newRecord(), [{ type: 'start' }]);
    await store.create(first);
    const key = new RedisKeys(prefix).walkthrough(first, first.id);
    const index = new RedisKeys(prefix).activeWalkthroughs(first);
    expect(await redis.ttl(key)).toBeGreaterThan(590);
    await redis.expire(key, 5);
    await redis.expire(index, 5);
    await store.replace(play(first, [{ type: 'choose', answer: 'heap' }]), first.version);
    expect(await redis.ttl(key)).toBeGreaterThan(590);
    expect(await redis.ttl(index)).toBeGreaterThan(590);
  });
});
