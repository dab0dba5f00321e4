import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { type EventDedupe, MemoryEventDedupe } from '../../src/dedupe/event-dedupe.ts';
import { RedisEventDedupe } from '../../src/dedupe/redis.ts';
import { RedisKeys } from '../../src/redis/keys.ts';
import { CLUSTER_NODES, CLUSTER_SKIPPED, deleteClusterPrefix, newClusterClient } from '../support/cluster.ts';

const redis = new Redis('redis://127.0.0.1:6379', { lazyConnect: true });
const prefix = `test-${randomUUID()}`;
const keys = new RedisKeys(prefix);

const cluster = CLUSTER_NODES ? newClusterClient() : undefined;

afterAll(async () => {
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
  if (cluster) {
    await deleteClusterPrefix(cluster, prefix);
    await cluster.quit();
  }
});

const DEDUPES: [string, () => EventDedupe][] = [
  ['memory', () => new MemoryEventDedupe()],
  ['redis', () => new RedisEventDedupe(redis, keys, 60)],
];
if (cluster) DEDUPES.push(['redis cluster', () => new RedisEventDedupe(cluster, keys, 60)]);
else describe.skip(`redis cluster event dedupe${CLUSTER_SKIPPED}`, () => {});

describe.each(DEDUPES)('%s event dedupe', (_name, make) => {
  it('says yes once per id', async () => {
    const dedupe = make();
    const id = randomUUID();
    expect(await dedupe.firstTime(id)).toBe(true);
    expect(await dedupe.firstTime(id)).toBe(false);
    expect(await dedupe.firstTime(`${id}-other`)).toBe(true);
  });

  it('says yes to exactly one of many concurrent claims', async () => {
    const dedupe = make();
    const id = randomUUID();
    const answers = await Promise.all(Array.from({ length: 20 }, () => dedupe.firstTime(id)));
    expect(answers.filter(Boolean)).toHaveLength(1);
  });
});

describe('memory dedupe expiry', () => {
  // The clock starts past 0: lru-cache reads a start time of 0 as "no TTL" (a monotonic clock never is 0).
  it('forgets an id after its time, and not before', async () => {
    let now = 1_000;
    const dedupe = new MemoryEventDedupe(10, () => now);
    expect(await dedupe.firstTime('a')).toBe(true);
    now = 10_000;
    expect(await dedupe.firstTime('a')).toBe(false);
    now = 12_000;
    expect(await dedupe.firstTime('a')).toBe(true);
  });

  it('keeps a shorter window asked for by the caller', async () => {
    let now = 1_000;
    const dedupe = new MemoryEventDedupe(3600, () => now);
    expect(await dedupe.firstTime('b', 5)).toBe(true);
    now = 7_000;
    expect(await dedupe.firstTime('b')).toBe(true);
  });
});

describe('memory dedupe bound', () => {
  it('remembers at most maxIds ids, forgetting the least recently seen first', async () => {
    const dedupe = new MemoryEventDedupe(3600, undefined, 2);
    for (const id of ['a', 'b', 'c']) expect(await dedupe.firstTime(id)).toBe(true);
    expect(await dedupe.firstTime('c')).toBe(false);
    expect(await dedupe.firstTime('b')).toBe(false);
    expect(await dedupe.firstTime('a')).toBe(true);
  });
});

describe('redis dedupe keys', () => {
  it('expire, so the store does not grow forever', async () => {
    await new RedisEventDedupe(redis, keys, 60).firstTime('ttl-check');
    const ttl = await redis.ttl(keys.claim('ttl-check'));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60);
  });
});

describe.skipIf(!cluster)(`redis cluster claims${CLUSTER_SKIPPED}`, () => {
  it('land on the masters their hash tags name, and each expires', async () => {
    const client = cluster as NonNullable<typeof cluster>;
    const dedupe = new RedisEventDedupe(client, keys, 60);
    const ids = Array.from({ length: 12 }, (_, i) => `event:Ev${i}${randomUUID()}`);
    for (const id of ids) expect(await dedupe.firstTime(id)).toBe(true);
    for (const id of ids) expect(await dedupe.firstTime(id)).toBe(false);
    const slots = await Promise.all(ids.map((id) => client.cluster('KEYSLOT', keys.claim(id))));
    expect(new Set(slots).size).toBeGreaterThan(1);
    for (const id of ids) expect(await client.ttl(keys.claim(id))).toBeGreaterThan(0);
  });
});
