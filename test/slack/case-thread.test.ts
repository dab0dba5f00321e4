import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { MemoryCaseStore } from '../../src/cases/store/memory.ts';
import { RedisCaseStore } from '../../src/cases/store/redis.ts';
import { loadPlaybooks, PLAYBOOKS_DIR } from '../../src/playbooks/load.ts';
import { EnginePool } from '../../src/setup/engine-pool.ts';
import { deletePrefix, newRedis, randomPrefix } from '../support/redis.ts';
import { CASES, JOBMANAGER, NODEMANAGER, ROOMY, withCases } from './support/cases.ts';
import { click, threadReplies } from './support/clicks.ts';
import { FakeSlack } from './support/fake-slack.ts';
import {
  BOT_TOKEN,
  diagnoseInChannel,
  type Harness,
  harnessPerTest,
  startHarness,
  waitFor,
} from './support/harness.ts';
import { eventEnvelope, fileShareEvent, TEAM, threadReply } from './support/payloads.ts';

const NMT_B = readFileSync(join(CASES, 'jvm-threads-b', 'nmt.txt'));
const USER = 'UALICE01';

const harness = harnessPerTest(() => withCases());

/** The first answer of a thread is posted, then its file starts the case: wait for both. */
async function firstAnswer(h: Harness, channel: string, thread: string) {
  await waitFor(() => h.logs.lines.some((l) => l.msg === 'case started'));
  return waitFor(() => threadReplies(h, channel, thread)[0]);
}

async function upload(h: Harness, channel: string, thread: string, id: string, name: string, bytes: Buffer) {
  const file = h.fake.addFile(id, name, bytes);
  await h.sender.event(
    eventEnvelope(
      fileShareEvent({
        user: USER,
        channel,
        threadTs: thread,
        parentUserId: h.fake.botUserId,
        files: [file],
      }),
    ),
  );
}

function blockText(blocks: unknown): string {
  return JSON.stringify(blocks);
}

describe('a thread is one case', () => {
  it('two uploads in one thread: one answer message, edited, citing both files', async () => {
    const h = harness();
    const root = await diagnoseInChannel(h, 'nothing to see here', USER, 'CCASE01');
    await upload(h, 'CCASE01', root.ts, 'F901', 'jobmanager.log', JOBMANAGER);
    const answer = await firstAnswer(h, 'CCASE01', root.ts);
    expect(blockText(answer.blocks)).not.toContain('nodemanager.log');
    await upload(h, 'CCASE01', root.ts, 'F902', 'nodemanager.log', NODEMANAGER);
    const update = await waitFor(() => h.fake.callsTo('chat.update')[0]);
    expect(update.args).toMatchObject({ channel: 'CCASE01', ts: answer.ts });
    const edited = blockText(JSON.parse(update.args.blocks ?? '[]'));
    expect(edited).toContain('jobmanager.log:');
    expect(edited).toContain('nodemanager.log:1:');
    expect(edited).toContain('read together: jobmanager.log, nodemanager.log');
    expect(update.args.text).toMatch(/new evidence from jobmanager\.log, nodemanager\.log\.$/);
    // Still one answer in the thread: the second file edited it, posted nothing new.
    expect(threadReplies(h, 'CCASE01', root.ts)).toHaveLength(1);
    expect(blockText(threadReplies(h, 'CCASE01', root.ts)[0]?.blocks)).toContain('nodemanager.log:1:');
  });

  it('a walkthrough started from the edited answer knows the facts of both files', async () => {
    const h = harness();
    const root = await diagnoseInChannel(h, 'nothing to see here', USER, 'CCASE05');
    await upload(h, 'CCASE05', root.ts, 'F907', 'jobmanager.log', JOBMANAGER);
    const answer = await firstAnswer(h, 'CCASE05', root.ts);
    const alone = await h.deps.cases?.store.get({
      workspace: TEAM,
      conversation: 'CCASE05',
      thread: root.ts,
    });
    await upload(h, 'CCASE05', root.ts, 'F908', 'nodemanager.log', NODEMANAGER);
    await waitFor(() => h.fake.callsTo('chat.update')[0]);
    await click(h, answer, 'Start walkthrough', USER);
    const where = { workspace: TEAM, conversation: 'CCASE05' };
    const walk = await waitFor(() => h.deps.walkthroughs.findByThread(where, root.ts));
    const kinds = new Set(walk.facts.map((f) => f.kind));
    const fromFirst = new Set(alone?.inputs[0]?.book.groups.map((g) => g.kind));
    // The NodeManager's kill line gave facts the JobManager log alone did not.
    expect([...kinds].filter((k) => !fromFirst.has(k)).length).toBeGreaterThan(0);
  });

  it('a paste replying in the thread joins the case as a file does', async () => {
    const h = harness();
    const root = await diagnoseInChannel(h, 'nothing to see here', USER, 'CCASE04');
    await upload(h, 'CCASE04', root.ts, 'F906', 'jobmanager.log', JOBMANAGER);
    const answer = await firstAnswer(h, 'CCASE04', root.ts);
    const text = `\`\`\`${NODEMANAGER.toString('utf8')}\`\`\``;
    await h.sender.event(
      eventEnvelope(
        threadReply({
          user: USER,
          channel: 'CCASE04',
          threadTs: root.ts,
          parentUserId: h.fake.botUserId,
          text,
        }),
      ),
    );
    const update = await waitFor(() => h.fake.callsTo('chat.update')[0]);
    expect(update.args.ts).toBe(answer.ts);
    expect(blockText(JSON.parse(update.args.blocks ?? '[]'))).toContain('paste:1:');
  });

  it('two unrelated logs in one thread are not merged, and the answer says so', async () => {
    const h = harness();
    const root = await diagnoseInChannel(h, 'nothing to see here', USER, 'CCASE02');
    await upload(h, 'CCASE02', root.ts, 'F903', 'jobmanager.log', JOBMANAGER);
    await firstAnswer(h, 'CCASE02', root.ts);
    await upload(h, 'CCASE02', root.ts, 'F904', 'nmt.txt', NMT_B);
    const update = await waitFor(() => h.fake.callsTo('chat.update')[0]);
    const edited = blockText(JSON.parse(update.args.blocks ?? '[]'));
    expect(edited).toContain('share no container, application, executor, TaskManager, pod or process id');
    expect(update.args.text).toMatch(/nmt\.txt shares no container.* so it is read apart/);
    expect(edited).not.toContain('nmt.txt:');
  });

  it('says which upload was left out past the case’s limits, and keeps the answer', async () => {
    const h = harness();
    if (h.deps.cases) h.deps.cases.limits = { maxInputs: 1, maxBytes: 1 << 26 };
    const root = await diagnoseInChannel(h, 'nothing to see here', USER, 'CCASE06');
    await upload(h, 'CCASE06', root.ts, 'F909', 'nodemanager.log', NODEMANAGER);
    const answer = await firstAnswer(h, 'CCASE06', root.ts);
    const before = blockText(answer.blocks);
    await upload(h, 'CCASE06', root.ts, 'F910', 'jobmanager.log', JOBMANAGER);
    const update = await waitFor(() => h.fake.callsTo('chat.update')[0]);
    expect(update.args.text).toMatch(
      /· Left out jobmanager\.log: a case holds at most 1 inputs; the answer is unchanged\.$/,
    );
    const edited = blockText(JSON.parse(update.args.blocks ?? '[]'));
    expect(edited).toContain('Left out jobmanager.log: a case holds at most 1 inputs.');
    expect(edited).toContain('nodemanager.log:1:');
    expect(before).not.toContain('Left out');
  });

  it('answers the first file of a thread exactly as an app without cases does', async () => {
    const answers = [];
    for (const h of [harness(), await startHarness({ playbooks: loadPlaybooks(PLAYBOOKS_DIR) })]) {
      const root = await diagnoseInChannel(h, 'nothing to see here', USER, 'CCASE03');
      await upload(h, 'CCASE03', root.ts, 'F905', 'nodemanager.log', NODEMANAGER);
      answers.push(await waitFor(() => threadReplies(h, 'CCASE03', root.ts)[0]));
      expect(h.fake.callsTo('chat.update')).toEqual([]);
      if (h !== harness()) await h.stop();
    }
    const [withCases, without] = answers;
    expect(withCases?.text).toMatch(/confidence/);
    expect(withCases?.text).toBe(without?.text);
    expect(withCases?.blocks).toEqual(without?.blocks);
  });
});

describe('a thread’s case with the worker pool', () => {
  it('reads each later upload in a pool thread, never on the event loop', async () => {
    const playbooks = loadPlaybooks(PLAYBOOKS_DIR);
    const pool = new EnginePool({ playbooks, threads: 1 });
    const reads = vi.spyOn(pool, 'readCase');
    const h = await startHarness({
      playbooks,
      extend: (deps) => ({
        ...deps,
        engines: pool,
        cases: { store: new MemoryCaseStore(), limits: ROOMY },
      }),
    });
    try {
      const root = await diagnoseInChannel(h, 'nothing to see here', USER, 'CCASE08');
      await upload(h, 'CCASE08', root.ts, 'F913', 'jobmanager.log', JOBMANAGER);
      await firstAnswer(h, 'CCASE08', root.ts);
      await upload(h, 'CCASE08', root.ts, 'F914', 'nodemanager.log', NODEMANAGER);
      const update = await waitFor(() => h.fake.callsTo('chat.update')[0]);
      const edited = blockText(JSON.parse(update.args.blocks ?? '[]'));
      expect(edited).toContain('nodemanager.log:1:');
      // The first file's kept bytes were read again whole: its lines are cited beside the second's.
      expect(edited).toMatch(/jobmanager\.log:\d+:/);
      expect(reads.mock.calls.map(([job]) => job.source)).toEqual(['jobmanager.log', 'nodemanager.log']);
      expect(h.fake.rejections).toEqual([]);
    } finally {
      await h.stop();
      await pool.close();
    }
  });

  it('leaves out an upload the thread reads past the bytes limit', async () => {
    const pool = new EnginePool({ playbooks: [], threads: 1 });
    try {
      const chunks = (async function* () {
        yield Buffer.from(NMT_B);
      })();
      await expect(pool.readCase({ source: 'nmt.txt', chunks, maxBytes: 100 })).rejects.toMatchObject({
        code: 'INPUT_TOO_LARGE',
      });
    } finally {
      await pool.close();
    }
  });
});

describe('a thread’s case in Redis', () => {
  it('outlives a restart: a new app over the same Redis edits the answer the first one posted', async () => {
    const redis = newRedis();
    const prefix = randomPrefix();
    const fake = new FakeSlack(BOT_TOKEN);
    await fake.start();
    const app = () =>
      startHarness({
        fake,
        playbooks: loadPlaybooks(PLAYBOOKS_DIR),
        extend: (deps) => ({
          ...deps,
          cases: {
            store: new RedisCaseStore(redis, { prefix }),
            limits: ROOMY,
          },
        }),
      });
    try {
      const first = await app();
      const root = await diagnoseInChannel(first, 'nothing to see here', USER, 'CCASE07');
      await upload(first, 'CCASE07', root.ts, 'F911', 'jobmanager.log', JOBMANAGER);
      const answer = await firstAnswer(first, 'CCASE07', root.ts);
      await first.stop();
      const second = await app();
      await upload(second, 'CCASE07', root.ts, 'F912', 'nodemanager.log', NODEMANAGER);
      const update = await waitFor(() => fake.callsTo('chat.update')[0]);
      expect(update.args.ts).toBe(answer.ts);
      expect(blockText(JSON.parse(update.args.blocks ?? '[]'))).toContain('jobmanager.log:2:');
      await second.stop();
      expect(fake.rejections).toEqual([]);
    } finally {
      await fake.stop();
      await deletePrefix(redis, prefix);
      await redis.quit();
    }
  });
});
