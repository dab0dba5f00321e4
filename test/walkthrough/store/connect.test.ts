import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.ts';
import { ErrorCode, MemdoctorError } from '../../../src/errors.ts';
import { connectRedis, redactUrl } from '../../../src/redis/connect.ts';
import { storeSettings } from '../../../src/setup/walkthroughs.ts';
import { openStore } from '../../../src/walkthrough/index.ts';

async function failure(promise: Promise<unknown>): Promise<MemdoctorError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (error instanceof MemdoctorError) return error;
  throw new Error(`expected a MemdoctorError, got ${String(error)}`);
}

describe('connecting to Redis', () => {
  it('fails fast with a message naming REDIS_URL when nothing listens', async () => {
    const error = await failure(connectRedis('redis://:secret@127.0.0.1:1/0', { connectTimeoutMs: 1000 }));
    expect(error.code).toBe(ErrorCode.StoreUnavailable);
    expect(error.message).toMatch(
      /^cannot reach Redis at REDIS_URL=redis:\/\/:\*\*\*@127\.0\.0\.1:1\/0 \(connect ECONNREFUSED 127\.0\.0\.1:1\)\. Start Redis there/,
    );
    expect(error.message).not.toContain('secret');
  });

  it('opens a memory store without REDIS_URL and a Redis store with it', async () => {
    const memory = await openStore(storeSettings(loadConfig({})));
    expect(memory.kind).toBe('memory');
    const redis = await openStore(storeSettings(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379' })));
    expect(redis.kind).toBe('redis');
    await redis.close();
  });

  it('redacts passwords in URLs', () => {
    expect(redactUrl('redis://user:pw@host:6379')).toBe('redis://user:***@host:6379');
    expect(redactUrl('nonsense')).toBe('(unparseable URL)');
  });
});

describe('losing Redis after connecting', () => {
  it('turns failed calls into StoreUnavailableError naming REDIS_URL and saying nothing was lost', async () => {
    const { RedisWalkthroughStore } = await import('../../../src/walkthrough/store/redis.ts');
    const redis = await connectRedis('redis://127.0.0.1:6379');
    const store = new RedisWalkthroughStore(redis, { prefix: 'mdtest-gone' });
    redis.disconnect();
    const error = await failure(store.get('T1-C1-abcdef'));
    expect(error.code).toBe(ErrorCode.StoreUnavailable);
    expect(error.message).toMatch(
      /^Redis is unavailable: .*\. Check that Redis is up at REDIS_URL=redis:\/\/127\.0\.0\.1:6379\/0\. Nothing was lost/,
    );
  });
});
