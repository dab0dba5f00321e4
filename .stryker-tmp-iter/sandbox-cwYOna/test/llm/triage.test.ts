// @ts-nocheck
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { selectLines } from '../../src/llm/select.ts';
import { needsSuggestion, suggestPlaybook, triageSchema } from '../../src/llm/triage.ts';
import { apiError, FakeOpenAI, responseJson, responseText } from './fake-openai.ts';
import { PLAYBOOKS, testDeps } from './helpers.ts';

const LOG = [
  '26/11/29 10:01:02 INFO SparkContext: Running Spark version 3.5.1', // 1
  '26/11/29 10:05:44 WARN TaskSetManager: Lost task 3.0 in stage 4.0 (TID 91) (10.0.3.7 executor 2)', // 2
  'java.lang.IllegalStateException: unexpected shuffle block state', // 3
  '\tat org.apache.spark.storage.BlockManager.get(BlockManager.scala:1201)', // 4
  '\tat org.apache.spark.executor.Executor$TaskRunner.run(Executor.scala:551)', // 5
  '26/11/29 10:05:45 INFO Executor: heap used 7.8 GB of 8 GB', // 6
  '26/11/29 10:05:46 INFO DAGScheduler: Job 4 finished', // 7
].join('\n');

const GOOD = {
  playbook: 'spark-heap-oom',
  confidence: 0.62,
  rationale: 'The executor reports 7.8 GB of its 8 GB heap in use right after a task was lost.',
  evidence: [
    { line: 6, quote: 'heap used 7.8 GB of 8 GB' },
    { line: 2, quote: 'Lost task 3.0 in stage 4.0' },
  ],
};

function request() {
  return { workspace: 'T-test', playbooks: PLAYBOOKS, diagnoses: [], selection: selectLines(LOG) };
}

describe('suggestPlaybook against a fake OpenAI server', () => {
  let fake: FakeOpenAI;
  let baseURL: string;

  beforeEach(async () => {
    fake = new FakeOpenAI();
    baseURL = await fake.start();
  });
  afterEach(async () => {
    await fake.close();
  });

  it('sends the Responses API request with the strict json_schema and keeps a good answer', async () => {
    fake.reply(responseJson(GOOD));
    const { deps } = testDeps(baseURL);
    const outcome = await suggestPlaybook(deps, request());

    expect(outcome.note).toBeUndefined();
    expect(outcome.value).toEqual({
      playbook: 'spark-heap-oom',
      confidence: 0.62,
      rationale: GOOD.rationale,
      evidence: [
        { line: 2, text: LOG.split('\n')[1] },
        { line: 6, text: LOG.split('\n')[5] },
      ],
    });
    expect(fake.requests).toHaveLength(1);
    const [sent] = fake.requests;
    expect(sent?.headers.authorization).toBe('Bearer sk-test-fake-key');
    const body = sent?.body;
    if (!body) throw new Error(`the fake refused the request body: ${sent?.raw}`);
    expect(body.model).toBe('memdoctor-test-model');
    expect(body.store).toBe(false);
    expect(body.max_output_tokens).toBe(800);
    expect(body.instructions).toContain('Choose the single playbook');
    expect(body.input).toHaveLength(1);
    expect(body.input[0]?.role).toBe('user');
    expect(body.input[0]?.content).toContain('- spark-heap-oom: Spark executor ran out of heap.');
    expect(body.input[0]?.content).toContain('L6: 26/11/29 10:05:45 INFO Executor: heap used 7.8 GB of 8 GB');
    expect(body.input[0]?.content).not.toContain('L7:');
    expect(body.text.format).toMatchObject({ type: 'json_schema', name: 'memdoctor_triage', strict: true });
    const schema = body.text.format.schema;
    expect(schema.type).toBe('object');
    expect(schema.additionalProperties).toBe(false);
    expect(schema.required).toEqual(['playbook', 'confidence', 'rationale', 'evidence']);
    expect(schema.properties.playbook?.enum).toEqual([
      'none',
      'spark-heap-oom',
      'spark-executor-overhead-killed',
      'flink-pending-slots',
    ]);
  });

  it('drops an answer that breaks the schema (unknown playbook id) and logs why', async () => {
    fake.reply(responseJson({ ...GOOD, playbook: 'made-up-playbook' }));
    const { deps, logs } = testDeps(baseURL);
    const outcome = await suggestPlaybook(deps, request());
    expect(outcome.value).toBeUndefined();
    expect(outcome.note).toMatch(/did not follow the expected answer schema/);
    expect(logs.some((l) => l.code === 'LLM_INVALID_ANSWER' && l.msg === 'model answer dropped')).toBe(true);
  });

  it('drops an answer that is not JSON at all', async () => {
    fake.reply(responseText('I think it is a heap problem.'));
    const { deps } = testDeps(baseURL);
    const outcome = await suggestPlaybook(deps, request());
    expect(outcome.value).toBeUndefined();
    expect(outcome.note).toMatch(/schema/);
  });

  it('drops an answer whose only cited line does not exist', async () => {
    fake.reply(responseJson({ ...GOOD, evidence: [{ line: 999, quote: 'heap used' }] }));
    const { deps, logs } = testDeps(baseURL);
    const outcome = await suggestPlaybook(deps, request());
    expect(outcome.value).toBeUndefined();
    expect(outcome.note).toMatch(/none of the lines it cited are in the input/);
    expect(logs.some((l) => l.line === 999 && String(l.msg).includes('not given this line'))).toBe(true);
    // A dropped answer is not cached: asking again reaches the model and can succeed.
    fake.reply(responseJson(GOOD));
    const again = await suggestPlaybook(deps, request());
    expect(again.value?.playbook).toBe('spark-heap-oom');
    expect(fake.requests).toHaveLength(2);
  });

  it('keeps the verifiable citations and drops a misquoted or invented one', async () => {
    fake.reply(
      responseJson({
        ...GOOD,
        evidence: [
          { line: 6, quote: 'heap used 7.8 GB' },
          { line: 3, quote: 'java.lang.OutOfMemoryError' },
          { line: 42, quote: 'GC overhead limit exceeded' },
        ],
      }),
    );
    const { deps, logs } = testDeps(baseURL);
    const outcome = await suggestPlaybook(deps, request());
    expect(outcome.value?.evidence).toEqual([{ line: 6, text: LOG.split('\n')[5] }]);
    expect(logs.filter((l) => String(l.msg).startsWith('cited line dropped'))).toHaveLength(2);
  });

  it('accepts "none" as an answer', async () => {
    fake.reply(
      responseJson({ playbook: 'none', confidence: 0.2, rationale: 'Nothing here is memory.', evidence: [] }),
    );
    const { deps } = testDeps(baseURL);
    const outcome = await suggestPlaybook(deps, request());
    expect(outcome.value).toMatchObject({ playbook: 'none', evidence: [] });
  });

  it('waits for Retry-After on 429, then uses the answer', async () => {
    fake.reply(apiError(429, 'Rate limit reached', { 'retry-after': '0' }), responseJson(GOOD));
    const { deps } = testDeps(baseURL);
    const outcome = await suggestPlaybook(deps, request());
    expect(outcome.value?.playbook).toBe('spark-heap-oom');
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[1]?.headers['x-stainless-retry-count']).toBe('1');
  });

  it('gives a note, not an exception, when the server keeps failing with 500', async () => {
    fake.reply(apiError(500, 'boom'));
    const { deps } = testDeps(baseURL, { maxRetries: 1 });
    const outcome = await suggestPlaybook(deps, request());
    expect(outcome.value).toBeUndefined();
    expect(outcome.note).toMatch(/answered HTTP 500/);
    expect(fake.requests).toHaveLength(2);
  });

  it('gives a note when the model does not answer in time', async () => {
    fake.reply({ ...responseJson(GOOD), delayMs: 5_000 });
    const { deps } = testDeps(baseURL, { timeoutMs: 150, maxRetries: 0 });
    const outcome = await suggestPlaybook(deps, request());
    expect(outcome.value).toBeUndefined();
    expect(outcome.note).toMatch(/no answer within/);
  });

  it('answers the same input from the cache without a second request', async () => {
    fake.reply(responseJson(GOOD));
    const { deps } = testDeps(baseURL);
    await suggestPlaybook(deps, request());
    const again = await suggestPlaybook(deps, request());
    expect(again.value?.playbook).toBe('spark-heap-oom');
    expect(again.value === undefined ? undefined : again.cached).toBe(true);
    expect(fake.requests).toHaveLength(1);
  });

  it('stops at the per-workspace hourly limit', async () => {
    fake.reply(responseJson(GOOD));
    const { deps } = testDeps(baseURL, { requestsPerHour: 1 });
    await suggestPlaybook(deps, request());
    const other = {
      ...request(),
      selection: selectLines(`${LOG}\njava.lang.OutOfMemoryError: Java heap space`),
    };
    const limited = await suggestPlaybook(deps, other);
    expect(limited.note).toMatch(/limit of 1 model requests per hour/);
    const otherWorkspace = await suggestPlaybook(deps, { ...other, workspace: 'T-other' });
    expect(otherWorkspace.value?.playbook).toBe('spark-heap-oom');
    expect(fake.requests).toHaveLength(2);
  });
});

describe('token budget for triage', () => {
  let fake: FakeOpenAI;
  let baseURL: string;
  beforeEach(async () => {
    fake = new FakeOpenAI();
    baseURL = await fake.start();
  });
  afterEach(async () => {
    await fake.close();
  });

  it('drops lines from the middle, keeps the first and last errors, and refuses citations of dropped lines', async () => {
    const big = Array.from({ length: 100 }, (_, i) => `ERROR stage ${i + 1} failed: ${'x'.repeat(150)}`).join(
      '\n',
    );
    const selection = selectLines(big);
    fake.reply(responseJson({ ...GOOD, evidence: [{ line: 50, quote: 'stage 50 failed' }] }));
    const { deps } = testDeps(baseURL, { maxInputTokens: 2000 });
    const outcome = await suggestPlaybook(deps, { ...request(), selection });
    const sent = fake.requests[0]?.body?.input[0]?.content ?? '';
    expect(sent.length).toBeLessThanOrEqual(2000 * 3);
    expect(sent).toContain('L1: ERROR stage 1 failed');
    expect(sent).toContain('L100: ERROR stage 100 failed');
    expect(sent).not.toContain('L50:');
    expect(sent).not.toContain('cut to fit');
    expect(outcome.value).toBeUndefined();
  });
});

describe('needsSuggestion', () => {
  it.each([
    [[], true],
    [[{ confidence: 0.49 }], true],
    [[{ confidence: 0.5 }], false],
    [[{ confidence: 0.9 }, { confidence: 0.1 }], false],
  ])('%j -> %s', (diagnoses, expected) => {
    expect(needsSuggestion(diagnoses)).toBe(expected);
  });
});

describe('triageSchema', () => {
  it('refuses confidences outside 0..1', () => {
    expect(triageSchema(['a']).safeParse({ ...GOOD, playbook: 'a', confidence: 1.5 }).success).toBe(false);
  });
});
