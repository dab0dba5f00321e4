import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisEventDedupe } from '../../src/dedupe/redis.ts';
import { RedisKeys } from '../../src/redis/keys.ts';
import { RedisWalkthroughStore } from '../../src/walkthrough/store/redis.ts';
import { deletePrefix, randomPrefix, TEST_REDIS_URL } from '../support/redis.ts';
import { click, threadReplies } from './support/clicks.ts';
import { FakeSlack } from './support/fake-slack.ts';
import { BOT_TOKEN, type Harness, startHarness, waitFor } from './support/harness.ts';
import { eventEnvelope, fileShareEvent, slashCommand } from './support/payloads.ts';
import { testWalkthroughs } from './support/walkthroughs.ts';

const OWNER = 'UALICE01';
const ONCALL = 'UONCALL1';
const CHANNEL = 'CREPLICA';

describe('two replicas sharing one Redis', () => {
  const prefix = randomPrefix();
  const connections = [new Redis(TEST_REDIS_URL), new Redis(TEST_REDIS_URL)];
  const fake = new FakeSlack(BOT_TOKEN);
  const replicas: Harness[] = [];

  beforeAll(async () => {
    await fake.start();
    for (const redis of connections)
      replicas.push(
        await startHarness({
          fake,
          oncallUsers: [ONCALL],
          walkthroughs: testWalkthroughs(new RedisWalkthroughStore(redis, { prefix })),
          dedupe: new RedisEventDedupe(redis, new RedisKeys(prefix)),
        }),
      );
  });

  afterAll(async () => {
    for (const r of replicas) await r.stop();
    await fake.stop();
    await deletePrefix(connections[0] as Redis, prefix);
    for (const c of connections) c.disconnect();
  });

  it('finish one walkthrough with requests alternating between them, with one consistent history', async () => {
    const [a, b] = replicas as [Harness, Harness];
    const reply = (root: { ts: string }, n: number) => waitFor(() => threadReplies(a, CHANNEL, root.ts)[n]);

    await a.sender.command(
      slashCommand('java.lang.OutOfMemoryError: Java heap space', {
        user: OWNER,
        channel: CHANNEL,
        responseUrl: fake.responseUrl,
      }),
    );
    const root = await waitFor(() => fake.messages.find((m) => m.channel === CHANNEL && !m.thread_ts));
    await click(b, root, 'Start walkthrough', OWNER);
    await click(a, await reply(root, 0), 'Done', OWNER);
    const step2 = await reply(root, 1);
    const step2Copy = structuredClone(step2);
    await click(b, step2, 'Yes', ONCALL);
    await reply(root, 2);
    // The same click arriving at the other replica is stale there too: state is only in Redis.
    await click(a, step2Copy, 'No', OWNER);
    await waitFor(() =>
      fake.callsTo('chat.postEphemeral').find((c) => (c.args.text ?? '').includes('already answered')),
    );

    // An upload event delivered to replica A, then retried to replica B, is handled once.
    const file = fake.addFile('F500', 'samples.txt', Buffer.from('# samples\ngrowth=40\n'));
    const envelope = eventEnvelope(
      fileShareEvent({
        user: OWNER,
        channel: CHANNEL,
        threadTs: root.ts,
        parentUserId: fake.botUserId,
        files: [file],
      }),
      'EvREPLICA1',
    );
    await a.sender.event(envelope);
    await b.sender.event(envelope, 1);
    const conclusion = await reply(root, 3);
    expect(conclusion.text).toContain('Split the skewed partition');
    await reply(root, 4);

    // Read back through replica B's service, from Redis.
    const record = await b.deps.walkthroughs.findByThread(
      { workspace: 'T1', conversation: CHANNEL },
      root.ts,
    );
    expect(record?.status).toBe('done');
    expect(record?.path.map((e) => [e.step, e.by])).toEqual([
      ['check-ui', OWNER],
      ['skew', ONCALL],
      ['samples', OWNER],
    ]);
    expect(record?.version).toBe(4);
    expect(record?.audit.map((e) => e.event)).toEqual(['start', 'done', 'choose', 'paste']);
    expect(threadReplies(a, CHANNEL, root.ts)).toHaveLength(5);
    expect(fake.rejections).toEqual([]);
  });
});
