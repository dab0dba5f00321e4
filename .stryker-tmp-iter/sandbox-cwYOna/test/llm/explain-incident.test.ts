// @ts-nocheck
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Diagnosis } from '../../src/engine/index.ts';
import { fitBudget } from '../../src/llm/ask.ts';
import { explainDiagnosis, explainInput } from '../../src/llm/explain.ts';
import { draftIncident, renderIncident } from '../../src/llm/incident.ts';
import { FakeOpenAI, responseJson } from './fake-openai.ts';
import { PLAYBOOKS, testDeps } from './helpers.ts';

const PLAYBOOK = PLAYBOOKS[0] ?? (undefined as never);
const DIAGNOSIS: Diagnosis = {
  playbook: PLAYBOOK.id,
  title: PLAYBOOK.title,
  confidence: 0.8,
  cause: null,
  evidence: [{ line: 14, text: 'java.lang.OutOfMemoryError: Java heap space' }],
  facts: {},
  actions: ['Raise spark.executor.memory from 4g to 8g.'],
};

let fake: FakeOpenAI;
let baseURL: string;
beforeAll(async () => {
  fake = new FakeOpenAI();
  baseURL = await fake.start();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => fake.reset());

describe('explainDiagnosis', () => {
  it('sends only the playbook text and the evidence, and returns the explanation', async () => {
    fake.reply(responseJson({ explanation: '  The executor filled its heap.  ' }));
    const { deps } = testDeps(baseURL);
    const outcome = await explainDiagnosis(deps, {
      workspace: 'T1',
      diagnosis: DIAGNOSIS,
      playbook: PLAYBOOK,
    });
    expect(outcome.value).toBe('The executor filled its heap.');
    const body = fake.requests[0]?.body;
    expect(body?.text.format.name).toBe('memdoctor_explanation');
    expect(body?.text.format.schema.required).toEqual(['explanation']);
    expect(body?.instructions).toContain('plain-language explanation');
    expect(body?.input[0]?.content).toBe(explainInput(DIAGNOSIS, PLAYBOOK));
    expect(body?.input[0]?.content).toContain('L14: java.lang.OutOfMemoryError: Java heap space');
    expect(body?.input[0]?.content).toContain(`Explanation: ${PLAYBOOK.explanation}`);
  });

  it('drops an empty explanation and an answer with the wrong shape', async () => {
    fake.reply(responseJson({ explanation: '   ' }), responseJson({ text: 'wrong field' }));
    const { deps } = testDeps(baseURL);
    const empty = await explainDiagnosis(deps, { workspace: 'T1', diagnosis: DIAGNOSIS, playbook: PLAYBOOK });
    expect(empty.note).toMatch(/empty/);
    const wrong = await explainDiagnosis(deps, { workspace: 'T1', diagnosis: DIAGNOSIS, playbook: PLAYBOOK });
    expect(wrong.value).toBeUndefined();
    expect(wrong.note).toMatch(/schema/);
    // The rejected empty answer was not cached: the second call went to the model.
    expect(fake.requests).toHaveLength(2);
  });
});

const DRAFT = {
  title: 'Nightly Glue job out of heap',
  what_happened: 'The nightly job failed with a heap error on the driver.',
  evidence: ['java.lang.OutOfMemoryError: Java heap space (line 14)'],
  tried: [{ action: 'Rerun with G.2X workers', result: 'failed again' }],
  fix: 'Removed the collect() of the whole table.',
  follow_ups: ['Add a row-count check before collect()'],
};

describe('draftIncident', () => {
  it('renders the structured draft as Markdown with fixed headings', async () => {
    fake.reply(responseJson(DRAFT));
    const { deps } = testDeps(baseURL);
    const outcome = await draftIncident(deps, {
      workspace: 'T1',
      transcript: '# Walkthrough\n- step 1: rerun',
    });
    expect(outcome.value).toBe(renderIncident(DRAFT));
    expect(outcome.value).toContain('## What was tried\n- Rerun with G.2X workers → failed again');
    expect(outcome.value).toContain('check it before filing');
    const body = fake.requests[0]?.body;
    expect(body?.text.format.name).toBe('memdoctor_incident');
    expect(body?.max_output_tokens).toBe(1500);
    expect(body?.input[0]?.content).toBe('# Walkthrough\n- step 1: rerun');
  });

  it('says "not recorded" for empty parts and refuses an empty transcript without a request', async () => {
    expect(renderIncident({ ...DRAFT, evidence: [], fix: ' ' })).toContain('## Evidence\n- not recorded');
    const { deps } = testDeps(baseURL);
    const outcome = await draftIncident(deps, { workspace: 'T1', transcript: '  ' });
    expect(outcome.note).toMatch(/empty/);
    expect(fake.requests).toHaveLength(0);
  });

  it('cuts a transcript over the token budget before sending it', async () => {
    fake.reply(responseJson(DRAFT));
    const { deps } = testDeps(baseURL, { maxInputTokens: 1000 });
    const transcript = Array.from({ length: 2000 }, (_, i) => `- step ${i}: ran a command`).join('\n');
    await draftIncident(deps, { workspace: 'T1', transcript });
    const sent = fake.requests[0]?.body?.input[0]?.content ?? '';
    expect(sent.length).toBeLessThan(transcript.length);
    expect(sent.endsWith('[… cut to fit the token budget]')).toBe(true);
    expect(sent.startsWith('- step 0: ran a command\n')).toBe(true);
  });
});

describe('fitBudget', () => {
  it('leaves a short input alone and cuts a long one at a line end', () => {
    expect(fitBudget('a\nb', 'prompt', 1000)).toBe('a\nb');
    const long = Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n');
    const cut = fitBudget(long, '', 50);
    expect(cut.length).toBeLessThanOrEqual(150);
    expect(
      cut
        .split('\n')
        .slice(0, -1)
        .every((l) => /^line \d+$/.test(l)),
    ).toBe(true);
  });
});
