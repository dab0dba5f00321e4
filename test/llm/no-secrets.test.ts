import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { diagnose } from '../../src/diagnosis/index.ts';
import { createLlmAssist } from '../../src/llm/assist.ts';
import { MemoryLlmStore } from '../../src/llm/store.ts';
import { FakeOpenAI, responseJson } from './fake-openai.ts';
import { logSink, PLAYBOOKS } from './helpers.ts';
import { SECRETS } from './secrets.ts';

// Every secret sits on an error line, so the selector certainly picks it for the model.
const SEEDED_LOG = SECRETS.map((s) => `ERROR job failed while using ${s.input}`).join('\n');

function leaks(fake: FakeOpenAI): string[] {
  const found: string[] = [];
  for (const request of fake.requests) {
    const decoded = JSON.stringify(request.body ?? {});
    for (const { name, secret } of SECRETS)
      if (request.raw.includes(secret) || decoded.includes(secret)) found.push(name);
  }
  return found;
}

describe('nothing unredacted reaches the model server', () => {
  let fake: FakeOpenAI;
  let baseURL: string;
  beforeAll(async () => {
    fake = new FakeOpenAI();
    baseURL = await fake.start();
  });
  afterAll(async () => {
    await fake.close();
  });

  const config = () =>
    loadConfig({ OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: baseURL, OPENAI_MAX_RETRIES: '0' });

  it('fallback triage of a log seeded with secrets', async () => {
    fake.reset();
    fake.reply(
      responseJson({ playbook: 'none', confidence: 0.1, rationale: 'No memory problem.', evidence: [] }),
    );
    const sink = logSink();
    const assist = createLlmAssist(config(), { store: new MemoryLlmStore(), log: sink.log });
    async function* once(): AsyncGenerator<Uint8Array> {
      yield Buffer.from(SEEDED_LOG);
    }
    const result = await diagnose(
      { input: { source: 'seeded.log', chunks: once() }, workspace: 'cli' },
      { playbooks: PLAYBOOKS, assist },
    );
    expect(result.suggestion).toMatchObject({ playbook: 'none' });
    expect(fake.requests).toHaveLength(1);
    expect(leaks(fake)).toEqual([]);
    const sent = fake.requests[0]?.body?.input[0]?.content ?? '';
    // The lines did go out, with their secrets replaced (so this test would see a leak).
    for (const kind of ['aws-access-key-id', 'slack-token', 'jwt', 'url-password', 'email', 'private-key'])
      expect(sent).toContain(`[REDACTED:${kind}]`);
    const [answered] = sink.lines.filter((l) => l.msg === 'model answered');
    expect(answered?.receipt).toMatchObject({ 'aws-access-key-id': 3, 'slack-token': 3, jwt: 1 });
  });

  it('explanations and incident notes from texts seeded with secrets', async () => {
    fake.reset();
    const sink = logSink();
    const assist = createLlmAssist(config(), { store: new MemoryLlmStore(), log: sink.log });
    if (!assist) throw new Error('assist should be configured');
    const playbook = PLAYBOOKS[0];
    if (!playbook) throw new Error('no playbook');
    fake.reply(responseJson({ explanation: 'The heap filled up.' }));
    const explained = await assist.explain({
      workspace: 'T1',
      playbook,
      diagnosis: {
        playbook: playbook.id,
        title: playbook.title,
        confidence: 0.9,
        cause: null,
        evidence: SECRETS.map((s, i) => ({ line: i + 1, text: s.input })),
        facts: {},
        actions: ['Set password=hunter2-prod in the job, then rerun.'],
      },
    });
    expect(explained.value).toBe('The heap filled up.');
    fake.reply(
      responseJson({
        title: 'Heap',
        what_happened: 'It failed.',
        evidence: [],
        tried: [],
        fix: 'More memory.',
        follow_ups: [],
      }),
    );
    const transcript = ['# Walkthrough', ...SECRETS.map((s) => `- pasted: ${s.input}`)].join('\n');
    const note = await assist.incidentNote({ workspace: 'T1', transcript });
    expect(note.value).toContain('# Heap');
    expect(fake.requests).toHaveLength(2);
    expect(leaks(fake)).toEqual([]);
    // The receipt of what was redacted is logged with each request.
    const receipts = sink.lines
      .filter((l) => l.msg === 'model answered')
      .map((l) => l.receipt as Record<string, number>);
    expect(receipts).toHaveLength(2);
    expect(receipts[1]?.['aws-access-key-id']).toBeGreaterThan(0);
    await assist.close();
  });
});
