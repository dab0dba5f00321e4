import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type Asker, FetchGate } from '../../src/diagnosis/fetch-access.ts';
import type { FetchLimits, FetchSlot } from '../../src/diagnosis/fetch-limits.ts';
import { RedisFetchSlots } from '../../src/diagnosis/fetch-slots-redis.ts';
import { RedisKeys } from '../../src/redis/keys.ts';
import { ROOT } from '../cli/spawn-helpers.ts';
import { waitFor } from '../slack/support/harness.ts';
import { countPrefix, deletePrefix, randomPrefix, TEST_REDIS_URL } from '../support/redis.ts';

// Issue 35: the fetch caps held in Redis, so two replicas on one Redis share them, and a replica that
// dies holding a place gives it back when its lease lapses. Each test has a key prefix of its own.

const slack = (user: string): Asker => ({ surface: 'slack', workspace: 'T1', user, channel: 'C0001' });
const check = { connector: 'flink', kind: 'check' } as const;
const connections: Redis[] = [];
let prefix = randomPrefix();

function connection(): Redis {
  const redis = new Redis(TEST_REDIS_URL);
  connections.push(redis);
  return redis;
}

/** One replica's gate: its own connection to the shared Redis, the same caps and prefix. */
function replica(limits: FetchLimits, leaseMs?: number): FetchGate {
  const slots = new RedisFetchSlots(connection(), new RedisKeys(prefix), limits, leaseMs ? { leaseMs } : {});
  return new FetchGate(undefined, undefined, slots);
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => 'allowed',
    (error: Error) => error.message,
  );

afterEach(async () => {
  const redis = connection();
  await deletePrefix(redis, prefix);
  for (const c of connections.splice(0)) c.disconnect();
  prefix = randomPrefix();
});
afterAll(() => {
  for (const c of connections.splice(0)) c.disconnect();
});

describe('fetch caps shared through Redis', () => {
  it('two replicas share one person’s running cap; a finished fetch gives its place back', async () => {
    const limits = { perUser: 2, perUserPerMinute: 100, total: 100 };
    const [a, b] = [replica(limits), replica(limits)];
    const first = await a.admit(check, slack('UALICE'));
    await b.admit(check, slack('UALICE'));
    expect(await refusal(a.admit(check, slack('UALICE')))).toContain('You already have 2 fetches running');
    expect(await refusal(b.admit(check, slack('UALICE')))).toContain('You already have 2 fetches running');
    expect(await refusal(b.admit(check, slack('UBOB')))).toBe('allowed');
    first.done({ paths: [] });
    await waitFor(async () => (await refusal(b.admit(check, slack('UALICE')))) === 'allowed');
  });

  it('two replicas share the total and the starts per minute', async () => {
    const total = [
      replica({ perUser: 5, perUserPerMinute: 100, total: 2 }),
      replica({ perUser: 5, perUserPerMinute: 100, total: 2 }),
    ];
    await total[0]?.admit(check, slack('U1'));
    await total[1]?.admit(check, slack('U2'));
    expect(await refusal(total[0]?.admit(check, slack('U3')) ?? Promise.resolve())).toContain(
      'memdoctor is already running 2 fetches, its limit',
    );
    const perMinute = { perUser: 5, perUserPerMinute: 3, total: 100 };
    const [a, b] = [replica(perMinute), replica(perMinute)];
    for (const gate of [a, b, a]) (await gate.admit(check, slack('UCAROL'))).done({ paths: [] });
    expect(await refusal(b.admit(check, slack('UCAROL')))).toMatch(
      /You started 3 fetches in the last minute; try again in (59|60) s/,
    );
  });

  it('the last place goes to exactly one of many asking at once', async () => {
    const limits = { perUser: 50, perUserPerMinute: 100, total: 3 };
    const gates = [replica(limits), replica(limits), replica(limits)];
    const asked = Array.from({ length: 12 }, (_, i) =>
      refusal(gates[i % 3]?.admit(check, slack(`U${i}`)) ?? Promise.resolve()),
    );
    const outcomes = await Promise.all(asked);
    expect(outcomes.filter((o) => o === 'allowed')).toHaveLength(3);
  });

  it('a replica that dies holding a place gives it back when its lease lapses, not before', async () => {
    const limits = { perUser: 1, perUserPerMinute: 100, total: 100 };
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', HOLDER, TEST_REDIS_URL, prefix],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const [held] = await once(child.stdout, 'data');
    expect(String(held)).toContain('held');
    const survivor = replica(limits);
    expect(await refusal(survivor.admit(check, slack('UALICE')))).toContain(
      'You already have 1 fetch running',
    );
    child.kill('SIGKILL');
    await once(child, 'exit');
    // Still refused right after the death: the place is the dead replica's until its lease lapses.
    expect(await refusal(survivor.admit(check, slack('UALICE')))).toContain(
      'You already have 1 fetch running',
    );
    await waitFor(async () => (await refusal(survivor.admit(check, slack('UALICE')))) === 'allowed');
  });

  it('with Redis out of reach, a replica counts its own fetches and says so in the log', async () => {
    const down = new Redis('redis://127.0.0.1:1', {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    connections.push(down);
    const warnings: string[] = [];
    const log = { warn: (_: unknown, msg: string) => warnings.push(msg) } as unknown as import('pino').Logger;
    const limits = { perUser: 1, perUserPerMinute: 100, total: 100 };
    const gate = new FetchGate(
      undefined,
      undefined,
      new RedisFetchSlots(down, new RedisKeys(prefix), limits, { log }),
    );
    expect(await refusal(gate.admit(check, slack('UALICE')))).toBe('allowed');
    expect(await refusal(gate.admit(check, slack('UALICE')))).toContain('You already have 1 fetch running');
    expect(warnings).toContain('redis fetch caps failed; counting in this process instead');
  });

  it('a held lease is renewed while its fetch runs; once none runs, no key outlives its window', async () => {
    const redis = connection();
    const keys = new RedisKeys(prefix);
    const limits = { perUser: 1, perUserPerMinute: 100, total: 100 };
    const slots = new RedisFetchSlots(redis, keys, limits, { leaseMs: 3_000 });
    const place: FetchSlot = await slots.take('T1:UALICE');
    if (!('release' in place)) throw new Error(place.refused);
    const [lease = '', lapses = '0'] = await redis.zrange(keys.fetchesRunning(), '0', '0', 'WITHSCORES');
    // Its process moves the lapse on (every third of the lease) while the fetch runs.
    await waitFor(
      async () => Number(await redis.zscore(keys.fetchesRunningBy('T1:UALICE'), lease)) > Number(lapses),
    );
    place.release();
    await waitFor(
      async () => (await redis.exists(keys.fetchesRunning(), keys.fetchesRunningBy('T1:UALICE'))) === 0,
    );
    const started = await redis.pttl(keys.fetchesStartedBy('T1:UALICE'));
    expect(started).toBeGreaterThan(0);
    expect(started).toBeLessThanOrEqual(60_000);
    expect(await countPrefix(redis, prefix)).toBe(1);
  });
});

/** A replica that takes one place for T1:UALICE on a 3 s lease, says so, and runs until killed. */
const HOLDER = `
import { Redis } from 'ioredis';
import { RedisFetchSlots } from './src/diagnosis/fetch-slots-redis.ts';
import { RedisKeys } from './src/redis/keys.ts';
const [url, prefix] = process.argv.slice(1);
const slots = new RedisFetchSlots(new Redis(url), new RedisKeys(prefix), { perUser: 1, perUserPerMinute: 100, total: 100 }, { leaseMs: 3000 });
const place = await slots.take('T1:UALICE');
if (!('release' in place)) throw new Error(place.refused);
process.stdout.write('held\\n');
setInterval(() => {}, 1000);
`;
