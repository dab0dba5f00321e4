// @ts-nocheck
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { diagnoseStream } from '../../src/engine/index.ts';
import { DiagnoseAssist, renderSuggestion } from '../../src/llm/diagnose-assist.ts';
import { MemoryLlmStore } from '../../src/llm/store.ts';
import { apiError, FakeOpenAI, responseJson } from './fake-openai.ts';
import { logSink, PLAYBOOKS } from './helpers.ts';

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

/** The same three calls `memdoctor diagnose` makes, returning what it would print with --json. */
async function diagnoseJson(
  assist: DiagnoseAssist,
  source: string,
  data: Buffer,
): Promise<Record<string, unknown>> {
  const { book: _book, ...report } = await diagnoseStream(
    source,
    assist.input(source, bytes(data)),
    PLAYBOOKS,
  );
  const suggestion = await assist.suggestion(report);
  return JSON.parse(JSON.stringify(suggestion ? { ...report, suggestion } : report));
}

describe('DiagnoseAssist (the diagnose command with a model)', () => {
  let fake: FakeOpenAI;
  let baseURL: string;
  let stderr: string[];
  const notes = { write: (t: string) => stderr.push(t) };

  beforeEach(async () => {
    fake = new FakeOpenAI();
    baseURL = await fake.start();
    stderr = [];
  });
  afterEach(async () => {
    await fake.close();
  });

  function assistWith(env: Record<string, string>) {
    const config = () => loadConfig({ OPENAI_BASE_URL: baseURL, OPENAI_MAX_RETRIES: '0', ...env });
    return DiagnoseAssist.create(PLAYBOOKS, notes, config, {
      store: new MemoryLlmStore(),
      log: logSink().log,
    });
  }

  it('adds "suggestion" beside the untouched diagnoses when the engine recognised nothing (gzip input)', async () => {
    fake.reply(responseJson(ANSWER));
    const assist = assistWith({ OPENAI_API_KEY: 'sk-test' });
    const out = await diagnoseJson(assist, 'job.log.gz', gzipSync(UNKNOWN));
    expect(out.diagnoses).toEqual([]);
    expect(out.suggestion).toEqual({
      playbook: 'spark-executor-overhead-killed',
      confidence: 0.55,
      rationale: ANSWER.rationale,
      evidence: [{ line: 3, text: 'INFO Executor: 11.2 GB used of 12 GB container' }],
    });
    expect(Object.keys(out)).toEqual(['source', 'input', 'diagnoses', 'suggestion']);
    await assist.close();
  });

  it('asks nothing and adds nothing when the engine is confident', async () => {
    fake.reply(responseJson(ANSWER));
    const assist = assistWith({ OPENAI_API_KEY: 'sk-test' });
    const out = await diagnoseJson(assist, 'clear.log', Buffer.from(CLEAR));
    expect(out.suggestion).toBeUndefined();
    expect((out.diagnoses as unknown[]).length).toBeGreaterThan(0);
    expect(fake.requests).toHaveLength(0);
  });

  it('not configured: no OPENAI_API_KEY, no request, no suggestion, no note', async () => {
    fake.reply(responseJson(ANSWER));
    const assist = assistWith({});
    const out = await diagnoseJson(assist, 'job.log', Buffer.from(UNKNOWN));
    expect(out).toEqual({ source: 'job.log', input: { bytes: UNKNOWN.length, lines: 3 }, diagnoses: [] });
    expect(fake.requests).toHaveLength(0);
    expect(stderr).toEqual([]);
  });

  it('a failing model leaves the report as it was and writes a short note to stderr', async () => {
    fake.reply(apiError(503, 'overloaded'));
    const assist = assistWith({ OPENAI_API_KEY: 'sk-test' });
    const out = await diagnoseJson(assist, 'job.log', Buffer.from(UNKNOWN));
    expect(out).toEqual({ source: 'job.log', input: { bytes: UNKNOWN.length, lines: 3 }, diagnoses: [] });
    expect(stderr.join('')).toMatch(/^memdoctor: no model suggestion: the model is unavailable: .*HTTP 503/);
  });

  it('a bad configuration turns the assist off with a note instead of failing the diagnosis', async () => {
    const readConfig = () => loadConfig({ OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: 'not a url' });
    const assist = DiagnoseAssist.create(PLAYBOOKS, notes, readConfig);
    const out = await diagnoseJson(assist, 'job.log', Buffer.from(UNKNOWN));
    expect(out.suggestion).toBeUndefined();
    expect(out.diagnoses).toEqual([]);
    expect(stderr.join('')).toMatch(/model assist off: configuration error:[\s\S]*OPENAI_BASE_URL/);
    expect(fake.requests).toHaveLength(0);
  });
});

describe('renderSuggestion', () => {
  it('labels the block as a model suggestion and offers the walkthrough', () => {
    const text = renderSuggestion({ ...ANSWER, evidence: [{ line: 3, text: 'INFO 11.2 GB used' }] });
    expect(text).toContain("A model's suggestion");
    expect(text).toContain('Playbook: spark-executor-overhead-killed  [model confidence 55%]');
    expect(text).toContain('  line 3: INFO 11.2 GB used');
    expect(text).toContain('memdoctor walk spark-executor-overhead-killed');
  });

  it('says when the model found no playbook, without a walkthrough', () => {
    const text = renderSuggestion({
      playbook: 'none',
      confidence: 0.3,
      rationale: 'Not memory.',
      evidence: [],
    });
    expect(text).toContain('found no playbook that fits');
    expect(text).not.toContain('memdoctor walk');
  });

  it('is empty without a suggestion', () => {
    expect(renderSuggestion(undefined)).toBe('');
  });
});
