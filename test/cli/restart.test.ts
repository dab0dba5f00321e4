import { afterAll, describe, expect, it } from 'vitest';
import { RedisWalkthroughStore } from '../../src/walkthrough/store/redis.ts';
import { countPrefix, deletePrefix, newRedis, randomPrefix, TEST_REDIS_URL } from '../support/redis.ts';
import { memdoctor, npmStart, testEnv } from './spawn-helpers.ts';

describe('walkthroughs in Redis survive the process', () => {
  const redis = newRedis();
  const prefix = randomPrefix();
  afterAll(async () => {
    await deletePrefix(redis, prefix);
    await redis.quit();
  });

  it('picks up after the process is killed mid-walkthrough', async () => {
    const env = testEnv({ REDIS_URL: TEST_REDIS_URL, MEMDOCTOR_REDIS_PREFIX: prefix });
    const first = memdoctor(['walk', 'test-walk'], env);
    const [, id = ''] = await first.waitFor(/Walkthrough (\S+) \(Test heap trouble\), kept in Redis/);
    await first.waitFor(/-- Step 1: Which limit was hit\?/);
    first.type('1');
    await first.waitFor(/Heap after a full GC/);
    first.type('40');
    await first.waitFor(/Round 1/);
    first.type('1');
    await first.waitFor(/Round 2/);
    first.child.kill('SIGKILL');
    await first.exited;

    const stored = await new RedisWalkthroughStore(redis, { prefix }).get(id);
    expect(stored).toMatchObject({
      status: 'active',
      current: 'find-leak',
      version: 4,
      rounds: [{ tested: ['read', 'parse'], leak: true }],
    });

    const second = memdoctor(['resume', id], env);
    await second.waitFor(/Round 2: 2 of 4 candidates still suspected\.\nRun with only: read/);
    second.type('2');
    await second.waitFor(/== Conclusion: Stage parse leaks/);
    second.type('transcript');
    await second.waitFor(
      /1\. \*\*Which limit was hit\?\*\*: The Java heap[\s\S]*- Round 1: symptom with read, parse\n {3}- Round 2: no symptom with read/,
    );
    expect(await second.end()).toBe(0);
    expect((await new RedisWalkthroughStore(redis, { prefix }).get(id))?.status).toBe('done');
  });
});

describe('Redis unreachable', () => {
  it.each([
    ['memdoctor walk', (env: NodeJS.ProcessEnv) => memdoctor(['walk', 'test-walk'], env)],
    ['npm start', (env: NodeJS.ProcessEnv) => npmStart(env)],
  ])('%s fails with an error naming REDIS_URL and writes nothing', async (_name, start) => {
    const redis = newRedis();
    const prefix = randomPrefix();
    try {
      const app = start(testEnv({ REDIS_URL: 'redis://127.0.0.1:1', MEMDOCTOR_REDIS_PREFIX: prefix }));
      app.type('1', '40');
      expect(await app.end()).toBe(2);
      expect(app.stderr).toMatch(
        /memdoctor: cannot reach Redis at REDIS_URL=redis:\/\/127\.0\.0\.1:1 .*Nothing was saved\./,
      );
      expect(app.stdout).not.toMatch(/Walkthrough \S+/);
      expect(await countPrefix(redis, prefix)).toBe(0);
    } finally {
      await redis.quit();
    }
  });
});
