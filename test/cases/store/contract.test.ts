import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import type { Cluster, Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CaseWhere } from '../../../src/cases/record.ts';
import { MemoryCaseStore } from '../../../src/cases/store/memory.ts';
import { RedisCaseStore } from '../../../src/cases/store/redis.ts';
import type { CaseStore } from '../../../src/cases/store/types.ts';
import { readCase, type StoredInput, storedInput } from '../../../src/engine/case/index.ts';
import { ErrorCode, MemdoctorError } from '../../../src/errors.ts';
import {
  CLUSTER_NODES,
  CLUSTER_SKIPPED,
  clusterPrefix,
  deleteClusterPrefix,
  newClusterClient,
} from '../../support/cluster.ts';
import { deletePrefix, newRedis, randomPrefix } from '../../support/redis.ts';

// Real inputs (test/fixtures/case/SOURCES.md), read into what a case keeps.
const CASES = join(import.meta.dirname, '..', '..', 'fixtures', 'case');
const FILES = [
  join(CASES, 'hudi-9339', 'jobmanager.log'),
  join(CASES, 'hudi-9339', 'nodemanager.log'),
  join(CASES, 'jvm-threads-b', 'nmt.txt'),
];
let inputs: StoredInput[] = [];
beforeAll(async () => {
  const read = await readCase(
    FILES.map((file) => ({ source: file, chunks: createReadStream(file) })),
    { maxInputs: 8, maxBytes: 1 << 26 },
  );
  inputs = read.inputs.map(storedInput);
});

const LIMITS = { maxInputs: 8, maxBytes: 1 << 26 };
const AT = '2026-12-03T18:00:00.000Z';
let counter = 0;
function where(): CaseWhere {
  counter++;
  return {
    workspace: 'T1',
    conversation: `C${counter}`,
    thread: `1700000000.${String(counter).padStart(6, '0')}`,
  };
}
function input(i: number): StoredInput {
  return structuredClone(inputs[i] as StoredInput);
}

async function errorOf(promise: Promise<unknown>): Promise<MemdoctorError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof MemdoctorError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

/** One connection per kind, opened on first use; every store gets a fresh key prefix on it. */
function onRedis(open: () => Redis | Cluster, clear: (c: Redis | Cluster, prefix: string) => Promise<void>) {
  let connection: Redis | Cluster | undefined;
  return () => {
    if (!connection) {
      const opened = open();
      connection = opened;
      cleanups.push(async () => {
        await opened.quit();
      });
    }
    const redis = connection;
    const prefix = CLUSTER_NODES ? clusterPrefix() : randomPrefix();
    cleanups.unshift(() => clear(redis, prefix));
    return {
      store: new RedisCaseStore(redis, { prefix }),
      reopen: () => new RedisCaseStore(redis, { prefix }),
    };
  };
}

type Factory = () => { store: CaseStore; reopen?: () => CaseStore };
const factories: [string, Factory][] = [
  ['memory', () => ({ store: new MemoryCaseStore() })],
  ['redis', onRedis(newRedis, (r, p) => deletePrefix(r as Redis, p))],
];
if (CLUSTER_NODES)
  factories.push([
    'redis cluster',
    onRedis(newClusterClient, (c, p) => deleteClusterPrefix(c as Cluster, p)),
  ]);
else describe.skip(`redis cluster case store contract${CLUSTER_SKIPPED}`, () => {});

describe.each(factories)('%s case store contract', (kind, make) => {
  let store: CaseStore;
  let reopen: (() => CaseStore) | undefined;
  beforeEach(() => {
    ({ store, reopen } = make());
  });

  it('knows no case of a thread nothing was posted in', async () => {
    expect(await store.get(where())).toBeUndefined();
  });

  it('starts a case at version 1 with the input, the answer ts and the engine, and returns copies', async () => {
    const here = where();
    const added = await store.add(
      here,
      { input: input(0), limits: LIMITS, answerTs: '1700000000.000900', engine: 'flink', at: AT },
      0,
    );
    expect(added.added).toBe(true);
    expect(added.record).toMatchObject({
      version: 1,
      answerTs: '1700000000.000900',
      engine: 'flink',
      bytes: input(0).bytes,
      createdAt: AT,
      leftOutCount: 0,
    });
    expect(added.record.inputs).toEqual([input(0)]);
    const loaded = await store.get(here);
    expect(loaded).toEqual(added.record);
    if (loaded) loaded.inputs.pop();
    expect((await store.get(here))?.inputs).toHaveLength(1);
  });

  it('adds inputs in order, keeping the answer ts and the first engine hint', async () => {
    const here = where();
    await store.add(here, { input: input(0), limits: LIMITS, answerTs: '1.1', engine: 'flink', at: AT }, 0);
    const second = await store.add(here, { input: input(1), limits: LIMITS, engine: 'spark', at: AT }, 1);
    expect(second.record.version).toBe(2);
    expect(second.record.inputs.map((i) => i.name)).toEqual([FILES[0], FILES[1]]);
    expect(second.record).toMatchObject({
      answerTs: '1.1',
      engine: 'flink',
      bytes: input(0).bytes + input(1).bytes,
    });
  });

  it('refuses a change over a version it did not read, writing nothing', async () => {
    const here = where();
    await store.add(here, { input: input(0), limits: LIMITS, at: AT }, 0);
    const before = await store.get(here);
    expect((await errorOf(store.add(here, { input: input(1), limits: LIMITS, at: AT }, 0))).code).toBe(
      ErrorCode.CaseConflict,
    );
    expect((await errorOf(store.add(where(), { input: input(1), limits: LIMITS, at: AT }, 3))).code).toBe(
      ErrorCode.CaseConflict,
    );
    expect(await store.get(here)).toEqual(before);
  });

  it('lets exactly one of two changes over the same version through', async () => {
    const here = where();
    const results = await Promise.allSettled([
      store.add(here, { input: input(0), limits: LIMITS, at: AT }, 0),
      store.add(here, { input: input(1), limits: LIMITS, at: AT }, 0),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const lost = results.find((r) => r.status === 'rejected');
    expect((lost as PromiseRejectedResult).reason.code).toBe(ErrorCode.CaseConflict);
    expect((await store.get(here))?.inputs).toHaveLength(1);
  });

  it('leaves out an input past the inputs limit, says why, and keeps what it held', async () => {
    const here = where();
    const limits = { maxInputs: 1, maxBytes: LIMITS.maxBytes };
    await store.add(here, { input: input(0), limits, at: AT }, 0);
    const refused = await store.add(here, { input: input(1), limits, at: AT }, 1);
    expect(refused.added).toBe(false);
    expect(refused.leftOut).toEqual({ source: FILES[1], reason: 'a case holds at most 1 inputs' });
    expect(refused.record).toMatchObject({ version: 2, leftOutCount: 1, bytes: input(0).bytes });
    expect(refused.record.inputs).toEqual([input(0)]);
    expect(refused.record.leftOut).toEqual([refused.leftOut]);
  });

  it('leaves out an input that would pass the bytes limit', async () => {
    const here = where();
    const limits = { maxInputs: 8, maxBytes: input(0).bytes + 10 };
    await store.add(here, { input: input(0), limits, at: AT }, 0);
    const refused = await store.add(here, { input: input(2), limits, at: AT }, 1);
    expect(refused.leftOut).toEqual({
      source: FILES[2],
      reason: `the case would pass its limit of ${limits.maxBytes} bytes (${input(0).bytes} held before it)`,
    });
    expect(refused.record.inputs).toHaveLength(1);
  });

  it('records an input left out while it was read, with the reason given', async () => {
    const here = where();
    const leftOut = {
      source: 'huge.log',
      reason: 'the case would pass its limit of 10 bytes (0 held before it)',
    };
    const result = await store.add(here, { leftOut, limits: LIMITS, answerTs: '2.2', at: AT }, 0);
    expect(result).toMatchObject({ added: false, leftOut });
    expect(result.record).toMatchObject({
      version: 1,
      inputs: [],
      leftOut: [leftOut],
      leftOutCount: 1,
      answerTs: '2.2',
    });
  });

  it('refuses malformed or oversized facts whole, with what is wrong, and loses nothing stored', async () => {
    const here = where();
    await store.add(here, { input: input(0), limits: LIMITS, at: AT }, 0);
    const before = await store.get(here);
    const malformed = { ...input(1), lines: -1 };
    const bad = await errorOf(store.add(here, { input: malformed, limits: LIMITS, at: AT }, 1));
    expect(bad.code).toBe(ErrorCode.CaseInputInvalid);
    expect(bad.message).toMatch(/nodemanager\.log: not added to the case: .*lines/s);
    const huge = input(1);
    huge.keys.links = Array.from({ length: 80_000 }, (_, i) => [`pid ${i}`, `pid ${i + 1}`]);
    const big = await errorOf(store.add(here, { input: huge, limits: LIMITS, at: AT }, 1));
    expect(big.message).toMatch(/more than the 1048576 a case keeps per input/);
    expect(await store.get(here)).toEqual(before);
  });

  it('keeps the case over a restart (a new store object over the same store)', async () => {
    if (!reopen) return expect(kind).toBe('memory');
    const here = where();
    await store.add(here, { input: input(0), limits: LIMITS, answerTs: '3.3', at: AT }, 0);
    await store.add(here, { input: input(1), limits: LIMITS, at: AT }, 1);
    const again = reopen();
    expect(await again.get(here)).toEqual(await store.get(here));
    const third = await again.add(here, { input: input(2), limits: LIMITS, at: AT }, 2);
    expect(third.record.inputs).toHaveLength(3);
  });

  it('lets one of two racing claims on a first answer win, and the winner claim again', async () => {
    const here = where();
    const other = reopen?.() ?? store;
    const claims = await Promise.all([
      store.claimAnswer(here, 'replica-a', 30),
      other.claimAnswer(here, 'replica-b', 30),
    ]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    const winner = claims[0] ? 'replica-a' : 'replica-b';
    expect(await other.claimAnswer(here, winner, 30)).toBe(true);
    expect(await store.claimAnswer(here, 'replica-c', 30)).toBe(false);
    expect(await store.claimAnswer(where(), 'replica-c', 30)).toBe(true);
    expect(await store.get(here)).toBeUndefined();
  });
});

describe('memory case store', () => {
  it('forgets a case a TTL after its last change, and each change renews it', async () => {
    let now = 1_000_000;
    const store = new MemoryCaseStore({ ttlSeconds: 60, now: () => now });
    const here = where();
    await store.add(here, { input: input(0), limits: LIMITS, at: AT }, 0);
    now += 50_000;
    await store.add(here, { input: input(1), limits: LIMITS, at: AT }, 1);
    now += 50_000;
    expect((await store.get(here))?.inputs).toHaveLength(2);
    now += 11_000;
    expect(await store.get(here)).toBeUndefined();
  });

  it('lets another owner claim a first answer once the claim has lapsed', async () => {
    let now = 1_000_000;
    const store = new MemoryCaseStore({ now: () => now });
    const here = where();
    expect(await store.claimAnswer(here, 'replica-a', 30)).toBe(true);
    now += 29_999;
    expect(await store.claimAnswer(here, 'replica-b', 30)).toBe(false);
    now += 1;
    expect(await store.claimAnswer(here, 'replica-b', 30)).toBe(true);
  });
});

describe('redis case store', () => {
  it('keeps one hash per case under the conversation hash tag, with a TTL', async () => {
    const redis = newRedis();
    const prefix = randomPrefix();
    try {
      const store = new RedisCaseStore(redis, { prefix, ttlSeconds: 120 });
      const here = where();
      await store.add(here, { input: input(1), limits: LIMITS, at: AT }, 0);
      const key = store.keys.case(here);
      expect(key).toBe(`${prefix}:{T1:${here.conversation}}:case:${here.thread}`);
      const keys = await redis.keys(`${prefix}:*`);
      expect(keys).toEqual([key]);
      expect(await redis.ttl(key)).toBeGreaterThan(100);
      expect(await redis.hget(key, 'n')).toBe('1');
      expect(await store.claimAnswer(here, 'replica-a', 30)).toBe(true);
      const claim = store.keys.caseAnswerClaim(here);
      expect(claim).toBe(`${key}:claim`);
      expect(await redis.get(claim)).toBe('replica-a');
      expect(await redis.ttl(claim)).toBeGreaterThan(25);
    } finally {
      await deletePrefix(redis, prefix);
      await redis.quit();
    }
  });
});
