// @ts-nocheck
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createLlmAssist, type LlmAssist } from '../../src/llm/assist.ts';
import { MemoryLlmStore } from '../../src/llm/store.ts';
import { createLogger } from '../../src/log.ts';
import { apiError, FakeOpenAI, responseJson } from '../llm/fake-openai.ts';
import { runConsole } from './console-harness.ts';

// Nothing the test playbook recognises, so the engine is unsure and the model is asked.
const UNKNOWN = [
  'WARN TaskSetManager: Lost task 3.0 in stage 4.0 (TID 91): FetchFailed(BlockManagerId(2, 10.0.3.7, 7337))',
  'org.apache.spark.shuffle.FetchFailedException: Failed to connect to 10.0.3.7:7337',
];

let openai: FakeOpenAI;
let assist: LlmAssist | undefined;

beforeEach(async () => {
  openai = new FakeOpenAI();
  const baseURL = await openai.start();
  const config = loadConfig({ OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: baseURL, OPENAI_MAX_RETRIES: '0' });
  assist = createLlmAssist(config, { log: createLogger('silent'), store: new MemoryLlmStore() });
});
afterEach(async () => {
  await assist?.close();
  await openai.close();
});

describe("the console with a model's suggestion", () => {
  it('prints it after the report, labelled, and walks it with "walk suggested"', async () => {
    openai.reply(
      responseJson({
        playbook: 'test-leak',
        confidence: 0.35,
        rationale: 'Lost executors can follow a slow leak.',
        evidence: [{ line: 1, quote: 'Lost task 3.0' }],
      }),
    );
    const out = await runConsole([...UNKNOWN, '.', 'walk suggested'], assist);
    const report = out.indexOf('No known memory problem recognised.');
    const label = out.indexOf("-- A model's suggestion");
    expect(report).toBeGreaterThanOrEqual(0);
    expect(label).toBeGreaterThan(report);
    expect(out).toContain('Playbook: test-leak  [model confidence 35%]');
    expect(out).toContain('Type walk suggested to go through "Test leak" step by step.');
    expect(out).toMatch(/Walkthrough local-console-\w+ \(Test leak\)/);
  });

  it('keeps the plain report when the model fails, and says there is nothing to walk', async () => {
    openai.reply(apiError(500, 'the model is down'));
    const out = await runConsole([...UNKNOWN, '.', 'walk suggested'], assist);
    expect(out).toContain('No known memory problem recognised.');
    expect(out).toContain('(no model suggestion:');
    expect(out).not.toContain("A model's suggestion");
    expect(out).toContain('No model suggestion to walk through');
  });

  it('calls no model without an assist', async () => {
    const out = await runConsole([...UNKNOWN, '.'], undefined);
    expect(out).toContain('No known memory problem recognised.');
    expect(openai.requests).toEqual([]);
  });
});

describe('the draft incident note in the console', () => {
  const TO_THE_END = ['INFO starting', 'java.lang.OutOfMemoryError: Java heap space', '.', 'walk', '95'];

  it('follows the transcript at a conclusion, labelled as a draft by a model', async () => {
    openai.reply(
      responseJson({
        title: 'Driver heap too small',
        what_happened: 'The heap filled up.',
        evidence: ['java.lang.OutOfMemoryError: Java heap space'],
        tried: [],
        fix: 'A bigger heap.',
        follow_ups: [],
      }),
    );
    const out = await runConsole([...TO_THE_END, 'transcript'], assist);
    expect(out).toContain('== Conclusion: The heap is too small');
    const transcript = out.lastIndexOf('The heap is too small');
    const draft = out.indexOf('-- Draft incident note, written by a model');
    expect(draft).toBeGreaterThan(transcript);
    expect(out).toContain('# Driver heap too small');
    expect(openai.requests).toHaveLength(1);
    expect(JSON.stringify(openai.requests[0]?.body?.input)).toContain('Java heap');
  });

  it('prints only the transcript before the conclusion, or without a model', async () => {
    const early = await runConsole(['walk test-leak', 'transcript'], assist);
    expect(early).not.toContain('Draft incident note');
    const plain = await runConsole([...TO_THE_END, 'transcript'], undefined);
    expect(plain).toContain('== Conclusion: The heap is too small');
    expect(plain).not.toContain('Draft incident note');
    expect(openai.requests).toEqual([]);
  });
});
