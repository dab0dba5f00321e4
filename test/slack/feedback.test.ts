import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RedisKeys } from '../../src/redis/keys.ts';
import { MemoryOutcomeStore } from '../../src/stats/memory.ts';
import { RedisOutcomeStore } from '../../src/stats/redis.ts';
import { RedisWalkthroughStore } from '../../src/walkthrough/store/redis.ts';
import { memdoctor, testEnv } from '../cli/spawn-helpers.ts';
import { deletePrefix, randomPrefix, TEST_REDIS_URL } from '../support/redis.ts';
import { buttonsOf, click, threadReplies } from './support/clicks.ts';
import { FakeSlack, type StoredMessage } from './support/fake-slack.ts';
import { BOT_TOKEN, type Harness, startHarness, waitFor } from './support/harness.ts';
import { slashCommand, viewSubmission } from './support/payloads.ts';
import { testWalkthroughs } from './support/walkthroughs.ts';

const HEAP_OOM = 'Running Spark version 3.5.1\njava.lang.OutOfMemoryError: Java heap space\n';
const OWNER = 'UALICE01';

/** Diagnoses with /memdoctor on `via`, walks Done -> "No" to the "more memory" conclusion. */
async function walkToConclusion(via: Harness, fake: FakeSlack, channel: string) {
  const before = fake.messages.length;
  await via.sender.command(slashCommand(HEAP_OOM, { user: OWNER, channel, responseUrl: fake.responseUrl }));
  const root = await waitFor(() =>
    fake.messages.slice(before).find((m) => m.channel === channel && !m.thread_ts),
  );
  const reply = (n: number) => waitFor(() => threadReplies(via, channel, root.ts)[n]);
  await click(via, root, 'Start walkthrough', OWNER);
  await click(via, await reply(0), 'Done', OWNER);
  await click(via, await reply(1), 'No', OWNER);
  const conclusion = await reply(2);
  const prompt = await waitFor(() =>
    threadReplies(via, channel, root.ts).find((m) => m.text === 'Did this fix it?'),
  );
  return { root, conclusion, prompt };
}

/** `/memdoctor stats` on `via`; the ephemeral answer that came back through response_url. */
async function stats(via: Harness, fake: FakeSlack, channel: string): Promise<string> {
  const url = fake.responseUrl;
  await via.sender.command(slashCommand('stats', { user: OWNER, channel, responseUrl: url }));
  const answer = await waitFor(() =>
    fake.responses.find((r) => JSON.stringify(r.blocks ?? '').includes('Outcomes')),
  );
  fake.responses.splice(fake.responses.indexOf(answer), 1);
  return JSON.stringify(answer.blocks);
}

/** The stats row of one playbook and cause: its eight figures. */
function row(table: string, name: string): number[] {
  const text = JSON.parse(table)
    .map((b: { text?: { text: string } }) => b.text?.text ?? '')
    .join('\n')
    .replace(/`/g, '');
  const line = text.split('\n').find((l: string) => l.startsWith(`${name} `));
  if (!line) throw new Error(`no row "${name}" in:\n${text}`);
  return line.slice(name.length).trim().split(/\s+/).map(Number);
}

describe('"Did this fix it?" in one process', () => {
  let h: Harness;
  afterEach(async () => {
    await h.stop();
    expect(h.fake.rejections).toEqual([]);
  });

  it('asks at the conclusion, keeps the answer once, takes a note, and /memdoctor stats shows it', async () => {
    const outcomes = new MemoryOutcomeStore();
    h = await startHarness({ outcomes });
    const { prompt } = await walkToConclusion(h, h.fake, 'CFEED01');
    expect(buttonsOf(prompt).map((b) => b.button.text.text)).toEqual(['Fixed', 'Not fixed', 'Partly']);

    await click(h, prompt, 'Not fixed', OWNER);
    await waitFor(() => JSON.stringify(prompt.blocks).includes(`<@${OWNER}> answered: *Not fixed*`));
    // Changing one's mind moves the answer; it is not counted twice.
    await click(h, prompt, 'Partly', OWNER);
    await waitFor(() => JSON.stringify(prompt.blocks).includes('answered: *Partly*'));

    const table = await stats(h, h.fake, 'CFEED01');
    // diag, not-mem, started, done, abandon, fixed, notfix, partly
    expect(row(table, 'test-heap-oom / more-memory')).toEqual([0, 0, 0, 1, 0, 0, 0, 1]);
    expect(row(table, 'test-heap-oom / -')).toEqual([0, 0, 1, 0, 0, 0, 0, 0]);
    expect(table).toMatch(/test-heap-oom \/ \S+ +1 /);

    await click(h, prompt, 'Add a note', OWNER);
    const opened = await waitFor(() => h.fake.callsTo('views.open')[0]);
    const modal = JSON.parse(opened.args.view ?? '{}') as { callback_id: string; private_metadata: string };
    await h.sender.interaction(
      viewSubmission({
        user: OWNER,
        callbackId: modal.callback_id,
        privateMetadata: modal.private_metadata,
        values: {
          'memdoctor.feedback.note_text': { note: { type: 'plain_text_input', value: 'heap 8g held' } },
        },
      }),
    );
    await waitFor(() => outcomes.notes.size > 0);
    expect([...outcomes.notes.values()]).toEqual(['heap 8g held']);
  });

  it('counts an abandoned walkthrough, and asks nothing when it ends that way', async () => {
    h = await startHarness({ outcomes: new MemoryOutcomeStore() });
    await h.sender.command(
      slashCommand(HEAP_OOM, { user: OWNER, channel: 'CFEED03', responseUrl: h.fake.responseUrl }),
    );
    const root = await waitFor(() => h.fake.messages.find((m) => m.channel === 'CFEED03'));
    await click(h, root, 'Start walkthrough', OWNER);
    await click(h, await waitFor(() => threadReplies(h, 'CFEED03', root.ts)[0]), 'Abandon', OWNER);
    await waitFor(() =>
      threadReplies(h, 'CFEED03', root.ts).find((m) => (m.text ?? '').includes('abandoned')),
    );
    expect(row(await stats(h, h.fake, 'CFEED03'), 'test-heap-oom / -')).toEqual([0, 0, 1, 0, 1, 0, 0, 0]);
    expect(threadReplies(h, 'CFEED03', root.ts).some((m) => m.text === 'Did this fix it?')).toBe(false);
  });

  it('counts "Not a memory problem" for the playbook it dismissed', async () => {
    h = await startHarness({ outcomes: new MemoryOutcomeStore() });
    await h.sender.command(
      slashCommand(HEAP_OOM, { user: OWNER, channel: 'CFEED02', responseUrl: h.fake.responseUrl }),
    );
    const root = await waitFor(() => h.fake.messages.find((m) => m.channel === 'CFEED02'));
    await click(h, root, 'Not a memory problem', OWNER);
    await waitFor(() => JSON.stringify(root.blocks).includes('marked this as not a memory problem'));
    expect(row(await stats(h, h.fake, 'CFEED02'), 'test-heap-oom / -')).toEqual([0, 1, 0, 0, 0, 0, 0, 0]);
  });
});

describe('outcomes shared by two app processes on one Redis', () => {
  const prefix = randomPrefix();
  const connections = [new Redis(TEST_REDIS_URL), new Redis(TEST_REDIS_URL)];
  const fake = new FakeSlack(BOT_TOKEN);
  const apps: Harness[] = [];

  beforeAll(async () => {
    await fake.start();
    for (const redis of connections)
      apps.push(
        await startHarness({
          fake,
          walkthroughs: testWalkthroughs(new RedisWalkthroughStore(redis, { prefix })),
          outcomes: new RedisOutcomeStore(redis, new RedisKeys(prefix)),
        }),
      );
  });

  afterAll(async () => {
    for (const a of apps) await a.stop();
    await fake.stop();
    await deletePrefix(connections[0] as Redis, prefix);
    for (const c of connections) c.disconnect();
  });

  it('see the same figures, warn at a conclusion that rarely fixed things, and the CLI reads them too', async () => {
    const [a, b] = apps as [Harness, Harness];
    let last: StoredMessage | undefined;
    for (let i = 0; i < 3; i++) {
      const { prompt, conclusion } = await walkToConclusion(i % 2 ? b : a, fake, `CSHARE0${i}`);
      expect(JSON.stringify(conclusion.blocks)).not.toContain('In this workspace this fixed');
      // The answer goes to the other process than the one that posted the prompt.
      await click(i % 2 ? a : b, prompt, 'Not fixed', OWNER);
      await waitFor(() => JSON.stringify(prompt.blocks).includes('answered: *Not fixed*'));
      last = prompt;
    }
    expect(last).toBeDefined();
    const fromA = await stats(a, fake, 'CSHARE09');
    const fromB = await stats(b, fake, 'CSHARE09');
    expect(fromA).toBe(fromB);
    expect(row(fromA, 'test-heap-oom / more-memory')).toEqual([0, 0, 0, 3, 0, 0, 3, 0]);
    expect(row(fromA, 'test-heap-oom / -')).toEqual([0, 0, 3, 0, 0, 0, 0, 0]);

    const { conclusion } = await walkToConclusion(b, fake, 'CSHARE04');
    expect(JSON.stringify(conclusion.blocks)).toContain('In this workspace this fixed 0 of 3 cases.');

    const cli = memdoctor(
      ['stats', 'T1'],
      testEnv({ REDIS_URL: TEST_REDIS_URL, MEMDOCTOR_REDIS_PREFIX: prefix }),
    );
    expect(await cli.exited).toBe(0);
    const line = cli.stdout.split('\n').find((l) => l.startsWith('test-heap-oom / more-memory '));
    expect(line?.split(/\s+/).slice(3).map(Number)).toEqual([0, 0, 0, 4, 0, 0, 3, 0]);
  });
});
