import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../src/cli/main.ts';
import { FakeOpenAI, responseJson } from './fake-openai.ts';

// A real failure the playbooks do not cover (a shuffle fetch failure), with a memory figure.
const PASTE = [
  '26/11/29 10:05:44 WARN TaskSetManager: Lost task 3.0 in stage 4.0 (TID 91): FetchFailed(BlockManagerId(2, 10.0.3.7, 7337))',
  'org.apache.spark.shuffle.FetchFailedException: Failed to connect to 10.0.3.7:7337',
  '26/11/29 10:05:45 INFO MemoryStore: MemoryStore started with capacity 2.1 GiB',
].join('\n');

async function diagnose(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(['diagnose', ...args, '-'], {
    stdin: Readable.from([Buffer.from(PASTE)]),
    stdout: { write: (t: string) => out.push(t) },
    stderr: { write: (t: string) => err.push(t) },
  });
  return { code, out: out.join(''), err: err.join('') };
}

describe('memdoctor diagnose with a model configured', () => {
  let fake: FakeOpenAI;
  beforeEach(async () => {
    fake = new FakeOpenAI();
    const baseURL = await fake.start();
    vi.stubEnv('OPENAI_API_KEY', 'sk-test');
    vi.stubEnv('OPENAI_BASE_URL', baseURL);
    vi.stubEnv('OPENAI_MAX_RETRIES', '0');
    vi.stubEnv('REDIS_URL', '');
    vi.stubEnv('LOG_LEVEL', 'silent');
  });
  afterEach(async () => {
    vi.unstubAllEnvs();
    await fake.close();
  });

  it('--json: "suggestion" beside the untouched diagnoses', async () => {
    fake.reply(
      responseJson({
        playbook: 'none',
        confidence: 0.7,
        rationale: 'A shuffle fetch failure is a network or node problem, not memory.',
        evidence: [{ line: 2, quote: 'FetchFailedException' }],
      }),
    );
    const { code, out, err } = await diagnose(['--json']);
    expect(err).toBe('');
    expect(code).toBe(0);
    const report = JSON.parse(out);
    expect(report.diagnoses).toEqual([]);
    expect(report.suggestion).toEqual({
      playbook: 'none',
      confidence: 0.7,
      rationale: 'A shuffle fetch failure is a network or node problem, not memory.',
      evidence: [
        {
          line: 2,
          text: 'org.apache.spark.shuffle.FetchFailedException: Failed to connect to 10.0.3.7:7337',
        },
      ],
    });
    const content = fake.requests[0]?.body?.input[0]?.content ?? '';
    expect(content).toContain('- spark-heap-oom:');
    expect(content).not.toContain('The user says');
    expect(content).toContain('L2: org.apache.spark.shuffle.FetchFailedException');
  });

  it('human output: the deterministic result, then the suggestion set apart and labelled', async () => {
    fake.reply(
      responseJson({
        playbook: 'spark-executor-overhead-killed',
        confidence: 0.4,
        rationale: 'An executor became unreachable, which often follows a container kill.',
        evidence: [{ line: 1, quote: 'Lost task 3.0' }],
      }),
    );
    const { out } = await diagnose([]);
    const [deterministic, model] = out.split("-- A model's suggestion");
    expect(deterministic).toContain('No known memory problem recognised.');
    expect(model).toContain('Playbook: spark-executor-overhead-killed  [model confidence 40%]');
    expect(model).toContain('memdoctor walk spark-executor-overhead-killed');
  });

  it('passes --engine on to the model as what the user said', async () => {
    fake.reply(responseJson({ playbook: 'none', confidence: 0.5, rationale: 'Not memory.', evidence: [] }));
    await diagnose(['--json', '--engine', 'glue']);
    expect(fake.requests[0]?.body?.input[0]?.content).toContain('The user says the log comes from glue.');
  });

  it('a model failure: same report as without a model, and a one-line note on stderr', async () => {
    fake.reply({ status: 500, body: { error: { message: 'down', type: 'server_error' } } });
    const { code, out, err } = await diagnose(['--json']);
    expect(code).toBe(0);
    expect(JSON.parse(out)).toEqual({ source: '-', input: { bytes: PASTE.length, lines: 3 }, diagnoses: [] });
    expect(err).toMatch(/^memdoctor: no model suggestion: the model is unavailable: .*HTTP 500.*\n$/);
  });

  it('a bad setting switches the model off with a note; the diagnosis still runs', async () => {
    vi.stubEnv('OPENAI_BASE_URL', 'not a url');
    const { code, out, err } = await diagnose(['--json']);
    expect(code).toBe(0);
    expect(JSON.parse(out)).toEqual({ source: '-', input: { bytes: PASTE.length, lines: 3 }, diagnoses: [] });
    expect(err).toMatch(/^memdoctor: model assist off: configuration error:[\s\S]*OPENAI_BASE_URL/);
    expect(fake.requests).toHaveLength(0);
  });
});
