import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { RedisScripts, ScriptRefusedError, type WalkthroughWrite } from '../../src/redis/commands.ts';
import { RedisKeys } from '../../src/redis/keys.ts';
import { ScriptCode } from '../../src/redis/scripts.ts';
import { deletePrefix, randomPrefix, TEST_REDIS_URL } from '../support/redis.ts';

/** The one module that packs every script's arguments names each negative code it returns. */
const prefix = randomPrefix();
const redis = new Redis(TEST_REDIS_URL);
const keys = new RedisKeys(prefix);
const scripts = new RedisScripts(redis);
const where = { workspace: 'T1', conversation: 'CSCRIPTS' };

afterAll(async () => {
  await deletePrefix(redis, prefix);
  redis.disconnect();
});

function write(id: string, version: number): WalkthroughWrite {
  return {
    keys: {
      record: keys.walkthrough(where, id),
      active: keys.activeWalkthroughs(where),
      thread: keys.threadWalkthrough(where, undefined),
      audit: keys.walkthroughAudit(where, id),
    },
    id,
    version,
    json: JSON.stringify({ id, version }),
    ttlSeconds: 60,
    activityMs: Date.now(),
    listed: true,
    threaded: false,
    archived: [],
  };
}

async function refusal(work: Promise<unknown>): Promise<ScriptRefusedError> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ScriptRefusedError);
  return error as ScriptRefusedError;
}

describe('RedisScripts', () => {
  it('names each refusal: a taken id, a missing record, a stale version with the stored record', async () => {
    await scripts.createWalkthrough(write('T1-CSCRIPTS-a', 1));
    const exists = await refusal(scripts.createWalkthrough(write('T1-CSCRIPTS-a', 1)));
    expect([exists.code, exists.message]).toEqual([
      ScriptCode.RecordExists,
      'createWalkthrough refused: RecordExists',
    ]);

    const missing = await refusal(scripts.replaceWalkthrough(write('T1-CSCRIPTS-none', 2), 1));
    expect(missing.code).toBe(ScriptCode.RecordMissing);

    await scripts.replaceWalkthrough(write('T1-CSCRIPTS-a', 2), 1);
    const stale = await refusal(scripts.replaceWalkthrough(write('T1-CSCRIPTS-a', 2), 1));
    expect(stale.code).toBe(ScriptCode.VersionMismatch);
    expect(JSON.parse(stale.stored ?? '{}')).toEqual({ id: 'T1-CSCRIPTS-a', version: 2 });
  });

  it('counts model requests per window and records a feedback answer once per walkthrough', async () => {
    const window = keys.modelRequests('T1', 1);
    expect(await scripts.countModelRequest(window, 60)).toBe(1);
    expect(await scripts.countModelRequest(window, 60)).toBe(2);
    const outcome = { counts: keys.outcomeCounts('T1'), answers: keys.outcomeAnswers('T1') };
    await scripts.recordFeedback(outcome, { walkthrough: 'w1', field: 'p|c|fixed', ttlSeconds: 60 });
    await scripts.recordFeedback(outcome, { walkthrough: 'w1', field: 'p|c|partly', ttlSeconds: 60 });
    expect(await redis.hgetall(outcome.counts)).toEqual({ 'p|c|fixed': '0', 'p|c|partly': '1' });
  });
});
