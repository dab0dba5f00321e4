// @ts-nocheck
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { type EventDedupe, MemoryEventDedupe, RedisEventDedupe } from '../../src/slack/dedupe.ts';

const redis = new Redis('redis://127.0.0.1:6379', { lazyConnect: true });
const prefix = `test:${randomUUID()}:`;

afterAll(async () => {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
});

describe.each([
  ['memory', () => new MemoryEventDedupe()],
  ['redis', () => new RedisEventDedupe(redis, prefix, 60)],
] as const)('%s event dedupe', (_name, make: () => EventDedupe) => {
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
  it('forgets an id after its time', async () => {
    let now = 0;
    const dedupe = new MemoryEventDedupe(10, () => now);
    expect(await dedupe.firstTime('a')).toBe(true);
    now = 11_000;
    expect(await dedupe.firstTime('a')).toBe(true);
  });
});

describe('redis dedupe keys', () => {
  it('expire, so the store does not grow forever', async () => {
    await new RedisEventDedupe(redis, prefix, 60).firstTime('ttl-check');
    const ttl = await redis.ttl(`${prefix}slack:seen:ttl-check`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60);
  });
});
