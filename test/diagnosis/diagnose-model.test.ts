import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { loadConfig, loadConfigLeniently } from '../../src/config.ts';
import { type DiagnosisInput, diagnose } from '../../src/diagnosis/index.ts';
import { MemoryLlmStore } from '../../src/llm/store.ts';
import { openAssist } from '../../src/setup/assist.ts';
import { apiError, fakeOpenAIPerTest, responseJson } from '../llm/fake-openai.ts';
import { logSink, PLAYBOOKS } from '../llm/helpers.ts';

const UNKNOWN = [
  'INFO Executor: starting task 12',
  'ERROR Executor: task 12 failed: shuffle fetch failed after 4 attempts',
  'INFO Executor: 11.2 GB used of 12 GB container',
].join('\n');
const CLEAR = 'java.lang.OutOfMemoryError: Java heap space\n';

const ANSWER = {
  playbook: 'spark-executor-overhead-killed',
  confidence: 0.55,
  rationale: 'The container was close to its memory limit when the task failed.',
  evidence: [{ line: 3, quote: '11.2 GB used of 12 GB container' }],
};

async function* bytes(data: Buffer): AsyncGenerator<Uint8Array> {
  yield data;
}

const stream = (source: string, data: Buffer): DiagnosisInput => ({ source, chunks: bytes(data) });

describe('the diagnosis use case with a model', () => {
  const server = fakeOpenAIPerTest();

  function assistWith(env: Record<string, string>) {
    const config = loadConfig({ OPENAI_BASE_URL: server.baseURL, OPENAI_MAX_RETRIES: '0', ...env });
    return openAssist(config, { store: new MemoryLlmStore(), log: logSink().log });
  }

  it('adds a suggestion beside the untouched report when the engine recognised nothing (gzip input)', async () => {
    server.fake.reply(responseJson(ANSWER));
    const { assist } = assistWith({ OPENAI_API_KEY: 'sk-test' });
    const result = await diagnose(
      { input: stream('job.log.gz', gzipSync(UNKNOWN)), workspace: 'cli' },
      { playbooks: PLAYBOOKS, assist },
    );
    expect(result.report).toEqual({
      source: 'job.log.gz',
      input: { bytes: UNKNOWN.length, lines: 3 },
      diagnoses: [],
    });
    expect(result.suggestion).toEqual({
      playbook: 'spark-executor-overhead-killed',
      confidence: 0.55,
      rationale: ANSWER.rationale,
      evidence: [{ line: 3, text: 'INFO Executor: 11.2 GB used of 12 GB container' }],
    });
    expect(result.notes).toEqual([]);
    await assist?.close();
  });

  it('selects the lines of pasted text the same way, and passes the engine hint on', async () => {
    server.fake.reply(responseJson(ANSWER));
    const { assist } = assistWith({ OPENAI_API_KEY: 'sk-test' });
    const result = await diagnose(
      { input: { source: 'paste', text: UNKNOWN }, engine: 'glue', workspace: 'T1' },
      { playbooks: PLAYBOOKS, assist },
    );
    expect(result.suggestion?.evidence).toEqual([
      { line: 3, text: 'INFO Executor: 11.2 GB used of 12 GB container' },
    ]);
    const content = server.fake.requests[0]?.body?.input[0]?.content ?? '';
    expect(content).toContain('The user says the log comes from glue.');
    expect(content).toContain('L3: INFO Executor: 11.2 GB used of 12 GB container');
  });

  it('shows the report before the model is asked', async () => {
    server.fake.reply(responseJson(ANSWER));
    const { assist } = assistWith({ OPENAI_API_KEY: 'sk-test' });
    const seen: number[] = [];
    await diagnose(
      {
        input: { source: 'paste', text: UNKNOWN },
        workspace: 'console',
        onReport: (r) => seen.push(server.fake.requests.length, r.report.diagnoses.length),
      },
      { playbooks: PLAYBOOKS, assist },
    );
    expect(seen).toEqual([0, 0]);
    expect(server.fake.requests).toHaveLength(1);
  });

  it('asks nothing and adds nothing when the engine is confident', async () => {
    server.fake.reply(responseJson(ANSWER));
    const { assist } = assistWith({ OPENAI_API_KEY: 'sk-test' });
    const result = await diagnose(
      { input: stream('clear.log', Buffer.from(CLEAR)), workspace: 'cli' },
      { playbooks: PLAYBOOKS, assist },
    );
    expect(result.suggestion).toBeUndefined();
    expect(result.report.diagnoses.length).toBeGreaterThan(0);
    expect(server.fake.requests).toHaveLength(0);
  });

  it('not configured: no OPENAI_API_KEY, no assist, no request, no note', async () => {
    const choice = assistWith({});
    expect(choice).toEqual({});
    const result = await diagnose(
      { input: stream('job.log', Buffer.from(UNKNOWN)), workspace: 'cli' },
      { playbooks: PLAYBOOKS },
    );
    expect(result).toEqual({
      report: { source: 'job.log', input: { bytes: UNKNOWN.length, lines: 3 }, diagnoses: [] },
      findings: expect.any(Array),
      notes: [],
    });
    expect(server.fake.requests).toHaveLength(0);
  });

  it('a failing model leaves the report as it was and says why in a note', async () => {
    server.fake.reply(apiError(503, 'overloaded'));
    const { assist } = assistWith({ OPENAI_API_KEY: 'sk-test' });
    const result = await diagnose(
      { input: stream('job.log', Buffer.from(UNKNOWN)), workspace: 'cli' },
      { playbooks: PLAYBOOKS, assist },
    );
    expect(result.report).toEqual({
      source: 'job.log',
      input: { bytes: UNKNOWN.length, lines: 3 },
      diagnoses: [],
    });
    expect(result.suggestion).toBeUndefined();
    expect(result.notes).toEqual([
      expect.stringMatching(/^no model suggestion: the model is unavailable: .*HTTP 503/),
    ]);
  });

  it('an assist that throws is a note too, never a failed diagnosis', async () => {
    const assist = {
      suggest: async () => {
        throw new Error('bug in the assist');
      },
    };
    const result = await diagnose(
      { input: { source: 'paste', text: UNKNOWN }, workspace: 'cli' },
      { playbooks: PLAYBOOKS, assist },
    );
    expect(result.report.diagnoses).toEqual([]);
    expect(result.notes).toEqual([expect.stringContaining('no model suggestion: ')]);
  });
});

describe('openAssist', () => {
  it('a bad configuration turns the assist off with the reason instead of failing', () => {
    const { config, problem } = loadConfigLeniently({
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: 'not a url',
    });
    expect(config.OPENAI_BASE_URL).toBeUndefined();
    const choice = openAssist(config, problem ? { problem } : {});
    expect(choice.assist).toBeUndefined();
    expect(choice.off).toMatch(/^configuration error:[\s\S]*OPENAI_BASE_URL/);
  });
});
