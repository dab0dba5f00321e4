import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisIncidentQueue } from '../../src/incidents/redis.ts';
import { connectRedis } from '../../src/redis/connect.ts';
import { deletePrefix, newRedis, randomPrefix, snapshotPrefix, TEST_REDIS_URL } from '../support/redis.ts';
import { TcpProxy } from '../support/tcp-proxy.ts';
import { routedAlert } from './alerts.ts';
import { queueContract } from './queue-contract.ts';

const prefixes: string[] = [];
let admin: Redis;
const opened: Redis[] = [];

beforeAll(() => {
  admin = newRedis();
});

afterAll(async () => {
  for (const prefix of prefixes) await deletePrefix(admin, prefix);
  for (const redis of opened) redis.disconnect();
  admin.disconnect();
});

async function openQueue(url = TEST_REDIS_URL, leaseMs = 300, now: () => number = Date.now) {
  const prefix = randomPrefix();
  prefixes.push(prefix);
  const redis = await connectRedis(url);
  opened.push(redis);
  return { queue: new RedisIncidentQueue(redis, { prefix, leaseMs, now }), prefix, redis };
}

queueContract('redis', async () => {
  let offset = 0;
  const { queue } = await openQueue(TEST_REDIS_URL, 300, () => Date.now() + offset);
  return {
    queue,
    leaseMs: 300,
    pass: async (ms) => {
      offset += ms;
    },
    // Waiting longer than asked (a loaded machine) only makes the delivery idler: never flaky.
    idle: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  };
});

describe('the Redis queue', () => {
  it('rejects an alert while Redis is down and has written nothing of it; takes it once Redis is back', async () => {
    const proxy = await TcpProxy.start(Number(new URL(TEST_REDIS_URL).port || 6379));
    try {
      const { queue, prefix } = await openQueue(proxy.url);
      await queue.accept(routedAlert({ deliveryId: 'before' }));
      const before = await snapshotPrefix(admin, prefix);
      await proxy.cut();
      await expect(queue.accept(routedAlert({ deliveryId: 'during' }))).rejects.toThrow(/Redis|REDIS/);
      expect(await snapshotPrefix(admin, prefix)).toEqual(before);
      await proxy.restore();
      // The sender retries the same delivery: it is queued now, once.
      await expect
        .poll(() => queue.accept(routedAlert({ deliveryId: 'during' })).catch(() => 'down'), {
          timeout: 10_000,
        })
        .toBe('queued');
      expect(await queue.accept(routedAlert({ deliveryId: 'during' }))).toBe('duplicate');
      expect(await queue.backlog()).toBe(2);
    } finally {
      await proxy.cut();
    }
  });

  it('loses none of 1,000 alerts accepted in a burst, duplicates included, read by two consumers', async () => {
    const { queue } = await openQueue(TEST_REDIS_URL, 60_000);
    const alerts = Array.from({ length: 1000 }, (_, i) =>
      routedAlert({ incidentKey: `burst:${i % 100}`, deliveryId: `burst-delivery-${i}` }),
    );
    const outcomes = await Promise.all([...alerts, ...alerts.slice(0, 200)].map((a) => queue.accept(a)));
    expect(outcomes.filter((o) => o === 'queued')).toHaveLength(1000);
    expect(outcomes.filter((o) => o === 'duplicate')).toHaveLength(200);
    const seen: string[] = [];
    for (;;) {
      const batch = [...(await queue.take('a', 64)), ...(await queue.take('b', 64))];
      if (batch.length === 0) break;
      for (const delivery of batch) {
        seen.push(delivery.alert.event.deliveryId);
        await queue.done(delivery);
      }
    }
    expect(new Set(seen).size).toBe(1000);
    expect(seen).toHaveLength(1000);
    expect(await queue.backlog()).toBe(0);
  });

  it('counts an incident’s deliveries under its key, from the same script that queues them', async () => {
    const { queue, redis } = await openQueue();
    await queue.accept(routedAlert({ deliveryId: 'x1' }));
    await queue.accept(routedAlert({ deliveryId: 'x2', status: 'resolved' }));
    await queue.accept(routedAlert({ deliveryId: 'x2', status: 'resolved' }));
    const key = queue.keys.incident(routedAlert().event.incidentKey);
    expect(await redis.hget(key, 'deliveries')).toBe('2');
    expect(await redis.ttl(key)).toBeGreaterThan(0);
  });

  it('sets a stored alert it cannot read back aside as a dead letter, named, and hands out the others', async () => {
    const { queue, redis } = await openQueue();
    const unreadable: string[] = [];
    const named = new RedisIncidentQueue(redis, {
      prefix: queue.keys.prefix,
      onUnreadable: (_id, reason) => unreadable.push(reason),
    });
    await redis.xadd(queue.keys.alertStream(), '*', 'alert', '{"event":{}}', 'attempts', '0');
    await named.accept(routedAlert());
    const taken = await named.take('a', 10);
    expect(taken.map((d) => d.alert.event.deliveryId)).toEqual([routedAlert().event.deliveryId]);
    expect(unreadable).toEqual([expect.stringMatching(/stored alert .* does not hold what memdoctor wrote/)]);
    const [letter] = await named.deadLetters(5);
    expect(letter).toMatchObject({ raw: '{"event":{}}', attempts: 0 });
    expect(await named.backlog()).toBe(1);
  });
});
