import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createLlmAssist } from '../../src/llm/assist.ts';
import { MemoryLlmStore } from '../../src/llm/store.ts';
import { createLogger } from '../../src/log.ts';
import { EnginePool } from '../../src/setup/engine-pool.ts';
import { apiError, FakeOpenAI, responseJson } from '../llm/fake-openai.ts';
import { blockKitProblems } from './support/block-kit.ts';
import { buttonsOf, click, threadReplies } from './support/clicks.ts';
import { type Harness, startHarness, testPlaybooks, waitFor } from './support/harness.ts';
import { eventEnvelope, fileShareEvent, slashCommand, threadReply } from './support/payloads.ts';

// A failure no test playbook covers: the engine recognises nothing, so the model is asked.
const UNKNOWN = [
  'WARN TaskSetManager: Lost task 3.0 in stage 4.0 (TID 91): FetchFailed(BlockManagerId(2, 10.0.3.7, 7337))',
  'org.apache.spark.shuffle.FetchFailedException: Failed to connect to 10.0.3.7:7337',
].join('\n');
const HEAP_OOM = 'Running Spark version 3.5.1\njava.lang.OutOfMemoryError: Java heap space\n';
const OWNER = 'UALICE01';
const CHANNEL = 'CINCIDENT';

let h: Harness;
let openai: FakeOpenAI;
let assist: ReturnType<typeof createLlmAssist>;

beforeEach(async () => {
  openai = new FakeOpenAI();
  const baseURL = await openai.start();
  const config = loadConfig({ OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: baseURL, OPENAI_MAX_RETRIES: '0' });
  assist = createLlmAssist(config, { log: createLogger('silent'), store: new MemoryLlmStore() });
  h = await startHarness({ extend: (deps) => ({ ...deps, ...(assist ? { assist } : {}) }) });
});
afterEach(async () => {
  await h.stop();
  await openai.close();
  expect(h.fake.rejections).toEqual([]);
});

async function diagnose(text: string) {
  await h.sender.command(
    slashCommand(text, { user: OWNER, channel: CHANNEL, responseUrl: h.fake.responseUrl }),
  );
  return waitFor(() => h.fake.messages.find((m) => m.channel === CHANNEL && !m.thread_ts));
}

describe("a model's suggestion in Slack", () => {
  it('shows apart from the engine result, labelled, with a button that starts its walkthrough', async () => {
    openai.reply(
      responseJson({
        playbook: 'test-heap-oom',
        confidence: 0.4,
        rationale: 'The executor was lost, which can follow a heap exhaustion.',
        evidence: [{ line: 1, quote: 'Lost task 3.0' }],
      }),
    );
    const root = await diagnose(UNKNOWN);
    const body = JSON.stringify(root.blocks);
    expect(body).toContain('memdoctor found no known memory problem');
    expect(body).toContain("A model's suggestion");
    expect(body).toContain('test-heap-oom');
    expect(body).toContain('The executor was lost');
    // The engine's result comes first; the suggestion follows a divider.
    expect(body.indexOf('no known memory problem')).toBeLessThan(body.indexOf("A model's suggestion"));
    expect(blockKitProblems(root.blocks)).toEqual([]);
    expect(openai.requests).toHaveLength(1);

    await click(h, root, 'Walk through test-heap-oom', OWNER);
    const step1 = await waitFor(() => threadReplies(h, CHANNEL, root.ts)[0]);
    expect(step1.text).toContain('Step 1');
    const record = await h.deps.walkthroughs.findByThread(
      { workspace: 'T1', conversation: CHANNEL },
      root.ts,
    );
    expect(record?.playbook.id).toBe('test-heap-oom');
  });

  it('comes with a diagnosis of an uploaded gzipped log, from lines selected as it streamed', async () => {
    openai.reply(
      responseJson({
        playbook: 'none',
        confidence: 0.8,
        rationale: 'A shuffle fetch failure points at the network, not memory.',
        evidence: [{ line: 2, quote: 'FetchFailedException' }],
      }),
    );
    const file = h.fake.addFile('F300', 'driver.log.gz', gzipSync(Buffer.from(UNKNOWN)));
    const thread = '1700000000.000001';
    const event = fileShareEvent({
      user: OWNER,
      channel: CHANNEL,
      threadTs: thread,
      parentUserId: h.fake.botUserId,
      files: [file],
    });
    await h.sender.event(eventEnvelope(event));
    const post = await waitFor(() => h.fake.messages.find((m) => m.thread_ts === thread));
    const body = JSON.stringify(post.blocks);
    expect(body).toContain("A model's suggestion");
    expect(body).toContain('The model found no playbook that fits.');
    expect(body).toContain('FetchFailedException: Failed to connect');
    // "none" names no playbook, so there is nothing to walk through.
    expect(buttonsOf(post)).toEqual([]);
    expect(JSON.stringify(openai.requests[0]?.body?.input)).toContain('L2: org.apache.spark.shuffle');
  });

  it('sees every line of an upload streamed to the diagnosis pool, though its chunks move to the thread', async () => {
    const engines = new EnginePool({ playbooks: testPlaybooks(), threads: 1 });
    await h.stop();
    h = await startHarness({ extend: (deps) => ({ ...deps, ...(assist ? { assist } : {}), engines }) });
    try {
      openai.reply(
        responseJson({
          playbook: 'none',
          confidence: 0.8,
          rationale: 'A shuffle fetch failure points at the network, not memory.',
          evidence: [{ line: 4002, quote: 'FetchFailedException' }],
        }),
      );
      // Several of fetch's 64 KiB chunks, each moved to the thread once the selector has had it.
      const ordinary = 'INFO BlockManagerInfo: Added broadcast_7_piece0 in memory on 10.0.3.9:41234\n';
      const file = h.fake.addFile('F301', 'driver.log', Buffer.from(ordinary.repeat(4000) + UNKNOWN));
      const thread = '1700000000.000002';
      const event = fileShareEvent({
        user: OWNER,
        channel: CHANNEL,
        threadTs: thread,
        parentUserId: h.fake.botUserId,
        files: [file],
      });
      await h.sender.event(eventEnvelope(event));
      const post = await waitFor(() => h.fake.messages.find((m) => m.thread_ts === thread), 20_000);
      expect(JSON.stringify(post.blocks)).toContain("A model's suggestion");
      expect(JSON.stringify(openai.requests[0]?.body?.input)).toContain(
        'L4002: org.apache.spark.shuffle.FetchFailedException',
      );
    } finally {
      await engines.close();
    }
  }, 30_000);

  it('still posts the diagnosis, without a suggestion, when the model fails', async () => {
    openai.reply(apiError(500, 'the model is down'));
    const root = await diagnose(UNKNOWN);
    const body = JSON.stringify(root.blocks);
    expect(body).toContain('memdoctor found no known memory problem');
    expect(body).not.toContain("A model's suggestion");
    expect(buttonsOf(root)).toEqual([]);
    expect(openai.requests.length).toBeGreaterThan(0);
  });

  it('is not asked when the engine is confident', async () => {
    const root = await diagnose(HEAP_OOM);
    expect(root.text).toContain('heap');
    expect(JSON.stringify(root.blocks)).not.toContain("A model's suggestion");
    expect(openai.requests).toEqual([]);
  });
});

const INCIDENT = {
  title: 'Executor heap too small for a skewed partition',
  what_happened: 'One task ran out of heap on a skewed partition.',
  evidence: ['java.lang.OutOfMemoryError: Java heap space'],
  tried: [{ action: 'checked the Spark UI', result: 'one slow task' }],
  fix: 'Give the executors more memory.',
  follow_ups: ['Alert on task skew'],
};

/** Runs the test walkthrough of a confident diagnosis to its conclusion; returns the thread root. */
async function walkToTheEnd() {
  const root = await diagnose(HEAP_OOM);
  await click(h, root, 'Start walkthrough', OWNER);
  const reply = (n: number) => waitFor(() => threadReplies(h, CHANNEL, root.ts)[n]);
  await click(h, await reply(0), 'Done', OWNER);
  await click(h, await reply(1), 'Yes', OWNER);
  await reply(2);
  const paste = threadReply({
    user: OWNER,
    channel: CHANNEL,
    threadTs: root.ts,
    parentUserId: h.fake.botUserId,
    text: '```# samples\ngrowth=3```',
  });
  await h.sender.event(eventEnvelope(paste));
  await reply(3);
  const transcript = await reply(4);
  expect(transcript.text).toContain('Transcript');
  return root;
}

describe('the draft incident note in Slack', () => {
  it('follows the transcript, labelled as a draft by a model, made from the transcript', async () => {
    openai.reply(responseJson(INCIDENT));
    const root = await walkToTheEnd();
    const draft = await waitFor(() => threadReplies(h, CHANNEL, root.ts)[5]);
    const body = JSON.stringify(draft.blocks);
    expect(body).toContain('Draft incident note written by a model');
    expect(body).toContain('# Executor heap too small for a skewed partition');
    expect(body).toContain('Alert on task skew');
    expect(blockKitProblems(draft.blocks)).toEqual([]);
    // What the model was given is the transcript the thread shows.
    const sent = openai.requests[0]?.body?.input.map((m) => m.content).join('\n') ?? '';
    expect(sent).toContain('growth');
  });

  it('leaves the transcript alone when the model fails', async () => {
    openai.reply(apiError(500, 'the model is down'));
    const root = await walkToTheEnd();
    await waitFor(() => (openai.requests.length > 0 ? true : undefined));
    // Give the handler its turn to (not) post; the log says why there is no draft.
    await waitFor(() => h.logs.lines.find((l) => l.msg === 'no incident draft'));
    expect(threadReplies(h, CHANNEL, root.ts)).toHaveLength(5);
  });
});

describe('Explain on a diagnosis', () => {
  it("posts the model's explanation in the thread, labelled, from the diagnosis' evidence", async () => {
    const root = await diagnose(HEAP_OOM);
    expect(blockKitProblems(root.blocks)).toEqual([]);
    openai.reply(responseJson({ explanation: 'The executor kept more objects than its heap could hold.' }));
    await click(h, root, 'Explain', OWNER);
    const reply = await waitFor(() => threadReplies(h, CHANNEL, root.ts)[0]);
    const body = JSON.stringify(reply.blocks);
    expect(body).toContain('Explained by a model');
    expect(body).toContain('more objects than its heap could hold');
    expect(JSON.stringify(openai.requests[0]?.body?.input)).toContain('Java heap space');
  });

  it('tells only the clicker when the model fails', async () => {
    const root = await diagnose(HEAP_OOM);
    openai.reply(apiError(500, 'the model is down'));
    await click(h, root, 'Explain', OWNER);
    await waitFor(() =>
      h.fake
        .callsTo('chat.postEphemeral')
        .find((c) => c.args.user === OWNER && String(c.args.text).includes('could not explain')),
    );
    expect(threadReplies(h, CHANNEL, root.ts)).toEqual([]);
  });
});
