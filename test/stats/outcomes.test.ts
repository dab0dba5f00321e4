import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { RedisKeys } from '../../src/redis/keys.ts';
import { MemoryOutcomeStore } from '../../src/stats/memory.ts';
import { fixRate, type OutcomeStore } from '../../src/stats/outcomes.ts';
import { RedisOutcomeStore } from '../../src/stats/redis.ts';
import { statsTable } from '../../src/stats/report.ts';
import { deletePrefix, randomPrefix, TEST_REDIS_URL } from '../support/redis.ts';

const redis = new Redis(TEST_REDIS_URL);
const prefix = randomPrefix();
afterAll(async () => {
  await deletePrefix(redis, prefix);
  redis.disconnect();
});

const STORES: [string, () => OutcomeStore][] = [
  ['memory', () => new MemoryOutcomeStore()],
  [
    'redis',
    () => new RedisOutcomeStore(redis, new RedisKeys(`${prefix}:${Math.random().toString(36).slice(2)}`)),
  ],
];

const answer = (walkthrough: string, a: 'fixed' | 'not_fixed' | 'partly', workspace = 'T1') => ({
  workspace,
  walkthrough,
  playbook: 'spark-heap-oom',
  conclusion: 'more-memory',
  answer: a,
});

describe.each(STORES)('the %s outcome store', (_kind, make) => {
  it('counts per workspace, playbook and cause', async () => {
    const store = make();
    await store.count({ workspace: 'T1', playbook: 'spark-heap-oom', cause: 'skew' }, 'diagnosed');
    await store.count({ workspace: 'T1', playbook: 'spark-heap-oom', cause: 'skew' }, 'diagnosed');
    await store.count({ workspace: 'T1', playbook: 'spark-heap-oom' }, 'started');
    await store.count({ workspace: 'T2', playbook: 'spark-heap-oom', cause: 'skew' }, 'diagnosed');
    const rows = await store.rows('T1');
    expect(rows.map((r) => [r.playbook, r.cause, r.counts.diagnosed, r.counts.started])).toEqual([
      ['spark-heap-oom', '-', 0, 1],
      ['spark-heap-oom', 'skew', 2, 0],
    ]);
    expect((await store.rows('T2'))[0]?.counts.diagnosed).toBe(1);
    expect(await store.rows('T3')).toEqual([]);
  });

  it('keeps one answer per walkthrough: answering again moves the count', async () => {
    const store = make();
    await store.feedback(answer('w1', 'not_fixed'));
    await store.feedback(answer('w1', 'not_fixed'));
    await store.feedback(answer('w2', 'fixed'));
    await store.feedback(answer('w3', 'partly'));
    await store.feedback(answer('w3', 'fixed'));
    const rows = await store.rows('T1');
    expect(rows).toHaveLength(1);
    expect(rows[0]?.counts).toMatchObject({ fixed: 2, not_fixed: 1, partly: 0 });
    expect(fixRate(rows, 'spark-heap-oom', 'more-memory')).toEqual({ fixed: 2, answered: 3 });
    expect(fixRate(rows, 'spark-heap-oom', 'other')).toEqual({ fixed: 0, answered: 0 });
  });

  it('counts every one of many simultaneous answers exactly once', async () => {
    const store = make();
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        store.feedback(answer(`w${i % 10}`, i % 2 ? 'fixed' : 'not_fixed')),
      ),
    );
    const counts = (await store.rows('T1'))[0]?.counts;
    expect((counts?.fixed ?? 0) + (counts?.not_fixed ?? 0)).toBe(10);
  });
});

describe('the Redis outcome store', () => {
  it('keeps figures in the workspace’s hash-tagged keys, with an expiry, and no pasted text', async () => {
    const keys = new RedisKeys(`${prefix}:keys`);
    const store = new RedisOutcomeStore(redis, keys);
    await store.feedback(answer('w1', 'fixed'));
    await store.note('T1', 'w1', 'x'.repeat(900));
    expect(await redis.ttl(keys.outcomeCounts('T1'))).toBeGreaterThan(300 * 24 * 3600);
    expect(await redis.hgetall(keys.outcomeAnswers('T1'))).toEqual({
      w1: 'spark-heap-oom\tmore-memory\tfixed',
    });
    expect((await redis.hget(keys.outcomeNotes('T1'), 'w1'))?.length).toBe(500);
    // Another process over the same keys reads the same figures.
    const other = new Redis(TEST_REDIS_URL);
    try {
      expect(await new RedisOutcomeStore(other, keys).rows('T1')).toEqual(await store.rows('T1'));
    } finally {
      other.disconnect();
    }
  });
});

describe('statsTable', () => {
  it('lines up one row per playbook and cause under its headings', async () => {
    const store = new MemoryOutcomeStore();
    await store.count({ workspace: 'T1', playbook: 'glue-heap-oom', cause: 'collect' }, 'diagnosed');
    await store.feedback({ ...answer('w1', 'partly'), playbook: 'glue-heap-oom', conclusion: 'collect' });
    const [head, row] = statsTable(await store.rows('T1'));
    expect(head).toMatch(
      /^playbook \/ cause\s+diag\s+not-mem\s+started\s+done\s+abandon\s+fixed\s+notfix\s+partly$/,
    );
    expect(row?.split(/\s+/)).toEqual([
      'glue-heap-oom',
      '/',
      'collect',
      '1',
      '0',
      '0',
      '0',
      '0',
      '0',
      '0',
      '1',
    ]);
  });
});
