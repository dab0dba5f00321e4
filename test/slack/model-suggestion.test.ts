import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createLlmAssist } from '../../src/llm/assist.ts';
import { MemoryLlmStore } from '../../src/llm/store.ts';
import { createLogger } from '../../src/log.ts';
import { apiError, FakeOpenAI, responseJson } from '../llm/fake-openai.ts';
import { blockKitProblems } from './support/block-kit.ts';
import { buttonsOf, click, threadReplies } from './support/clicks.ts';
import { type Harness, startHarness, waitFor } from './support/harness.ts';
import { slashCommand } from './support/payloads.ts';

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

beforeEach(async () => {
  openai = new FakeOpenAI();
  const baseURL = await openai.start();
  const config = loadConfig({ OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: baseURL, OPENAI_MAX_RETRIES: '0' });
  const assist = createLlmAssist(config, { log: createLogger('silent'), store: new MemoryLlmStore() });
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
