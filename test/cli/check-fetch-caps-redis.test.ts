import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FetchLimits, FetchSlot } from '../../src/diagnosis/fetch-limits.ts';
import { RedisFetchSlots } from '../../src/diagnosis/fetch-slots-redis.ts';
import { RedisKeys } from '../../src/redis/keys.ts';
import { FLINK_JOB, flinkFake } from '../connectors/fakes/systems.ts';
import { useFake } from '../connectors/support.ts';
import { mcpInProcess } from '../mcp/in-process.ts';
import { textOf } from '../mcp/mcp-client.ts';
import { countPrefix, deletePrefix, randomPrefix, TEST_REDIS_URL } from '../support/redis.ts';
import { cli } from './in-process.ts';

// Issue 35: `memdoctor check` and `memdoctor mcp`'s check count their fetches where `serve` counts
// its (the configured Redis), so a person's terminal checks and another replica's fetches meet one
// cap. Here "another replica" is a RedisFetchSlots on its own connection holding places, as serve's
// gate does while its fetches run. On the code before, each terminal process counted only itself,
// and every check below went through.

const LIMITS: FetchLimits = { perUser: 2, perUserPerMinute: 10, total: 8 };
const me = `terminal:${userInfo().username}`;

describe('a terminal’s checks under the caps shared through Redis', () => {
  const flink = useFake(flinkFake);
  let prefix = randomPrefix();
  const connections: Redis[] = [];

  /** Another memdoctor on the same Redis, holding `count` places for `who` until released. */
  async function elsewhere(who: string, count: number): Promise<() => void> {
    const redis = new Redis(TEST_REDIS_URL);
    connections.push(redis);
    const slots = new RedisFetchSlots(redis, new RedisKeys(prefix), LIMITS);
    const held: FetchSlot[] = [];
    for (let i = 0; i < count; i++) held.push(await slots.take(who));
    expect(held.every((slot) => 'release' in slot)).toBe(true);
    return () => {
      for (const slot of held) if ('release' in slot) slot.release();
    };
  }

  beforeEach(() => {
    prefix = randomPrefix();
    const yaml = join(mkdtempSync(join(tmpdir(), 'check-caps-')), 'connectors.yaml');
    writeFileSync(yaml, `flink: { url: ${flink.url}, timeoutMs: 2000 }\n`);
    vi.stubEnv('MEMDOCTOR_CONNECTORS', yaml);
    vi.stubEnv('REDIS_URL', TEST_REDIS_URL);
    vi.stubEnv('MEMDOCTOR_REDIS_PREFIX', prefix);
    vi.stubEnv('MEMDOCTOR_FETCH_AS', '');
    vi.stubEnv('OPENAI_API_KEY', '');
    vi.stubEnv('MEMDOCTOR_PLAYBOOKS_DIR', '');
    vi.stubEnv('LOG_LEVEL', 'silent');
  });
  afterEach(async () => {
    vi.unstubAllEnvs();
    const redis = new Redis(TEST_REDIS_URL);
    await deletePrefix(redis, prefix);
    redis.disconnect();
    for (const c of connections.splice(0)) c.disconnect();
  });

  it('check is refused while another process holds the OS user’s places, and goes through once they are back', async () => {
    const release = await elsewhere(me, 2);
    const refused = await cli(['check', 'flink', '--job', FLINK_JOB]);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain('You already have 2 fetches running; wait for them to finish');
    expect(flink.fake.seen).toEqual([]);
    release();
    await vi.waitFor(async () => expect((await cli(['check', 'flink', '--job', FLINK_JOB])).code).toBe(0));
    expect(flink.fake.seen.map((s) => s.path)).toContain(`/jobs/${FLINK_JOB}`);
  });

  it('check gives its place back to Redis before it exits, so the next checks are not held up', async () => {
    const release = await elsewhere(me, 1);
    for (let i = 0; i < 3; i++) expect((await cli(['check', 'flink', '--job', FLINK_JOB])).code).toBe(0);
    const redis = new Redis(TEST_REDIS_URL);
    connections.push(redis);
    const keys = new RedisKeys(prefix);
    expect(await redis.zcard(keys.fetchesRunningBy(me))).toBe(1);
    expect(await redis.zcard(keys.fetchesRunning())).toBe(1);
    release();
  });

  it('the total held by Slack people on other replicas refuses a terminal’s check too', async () => {
    vi.stubEnv('MEMDOCTOR_FETCHES_TOTAL', '3');
    await elsewhere('T1:UALICE', 2);
    await elsewhere('T1:UBOB', 1);
    const { code, err } = await cli(['check', 'flink', '--job', FLINK_JOB]);
    expect(code).toBe(2);
    expect(err).toContain('memdoctor is already running 3 fetches, its limit');
    expect(flink.fake.seen).toEqual([]);
  });

  it('MEMDOCTOR_FETCH_AS=TEAM:MEMBER counts the terminal as that Slack person', async () => {
    vi.stubEnv('MEMDOCTOR_FETCH_AS', 'T1:UALICE');
    await elsewhere('T1:UALICE', 2);
    expect((await cli(['check', 'flink', '--job', FLINK_JOB])).err).toContain(
      'You already have 2 fetches running',
    );
    vi.stubEnv('MEMDOCTOR_FETCH_AS', 'T1:UBOB');
    expect((await cli(['check', 'flink', '--job', FLINK_JOB])).code).toBe(0);
  });

  it('mcp’s check is refused while the places are held elsewhere, then fetches once they are back', async () => {
    const release = await elsewhere(me, 2);
    const mcp = await mcpInProcess();
    try {
      const refused = await mcp.call('check', { system: 'flink', id: FLINK_JOB });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toContain('You already have 2 fetches running');
      expect(flink.fake.seen).toEqual([]);
      release();
      await vi.waitFor(async () =>
        expect((await mcp.call('check', { system: 'flink', id: FLINK_JOB })).isError).toBeFalsy(),
      );
    } finally {
      expect(await mcp.close()).toBe(0);
    }
    await vi.waitFor(async () => {
      const redis = new Redis(TEST_REDIS_URL);
      connections.push(redis);
      expect(await redis.zcard(new RedisKeys(prefix).fetchesRunningBy(me))).toBe(0);
    });
  });

  it('walk’s Fetch (the console’s) is refused while the places are held elsewhere', async () => {
    await elsewhere(me, 2);
    // flink-pending-slots up to its job-slots step, then a fetch of that step (test/cli/console-fetch-caps).
    const input = ['2', '1', '1', '2', `fetch ${FLINK_JOB}`, 'quit', ''].join('\n');
    const { code, out } = await cli(['walk', 'flink-pending-slots'], input);
    expect(code).toBe(0);
    expect(out).toContain('You already have 2 fetches running');
    expect(flink.fake.seen).toEqual([]);
  });

  it('a Redis that cannot be reached does not stop a check: it counts in the process and says so', async () => {
    vi.stubEnv('REDIS_URL', 'redis://127.0.0.1:1');
    const { code, err } = await cli(['check', 'flink', '--job', FLINK_JOB]);
    expect(code).toBe(0);
    expect(err).toContain('the fetch caps (MEMDOCTOR_FETCHES_*) are counted in this process alone');
    const redis = new Redis(TEST_REDIS_URL);
    connections.push(redis);
    expect(await countPrefix(redis, prefix)).toBe(0);
  });
});
