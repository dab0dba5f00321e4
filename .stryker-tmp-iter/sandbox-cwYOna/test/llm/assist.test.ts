// @ts-nocheck
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createLlmAssist } from '../../src/llm/assist.ts';
import { MemoryLlmStore } from '../../src/llm/store.ts';
import type { TriageRequest } from '../../src/llm/triage.ts';
import { logSink, PLAYBOOKS } from './helpers.ts';

describe('createLlmAssist', () => {
  it('is undefined without OPENAI_API_KEY: nothing to call', () => {
    expect(createLlmAssist(loadConfig({}))).toBeUndefined();
  });

  it('turns even a bug inside model help into a note', async () => {
    const sink = logSink();
    const config = loadConfig({ OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' });
    const assist = createLlmAssist(config, { store: new MemoryLlmStore(), log: sink.log });
    const broken = { workspace: 'T1', playbooks: PLAYBOOKS, diagnoses: [] } as unknown as TriageRequest;
    const outcome = await assist?.suggest(broken);
    expect(outcome?.value).toBeUndefined();
    expect(outcome?.note).toMatch(/^model help failed: unexpected error/);
    expect(sink.lines.some((l) => l.msg === 'model help failed unexpectedly' && l.level === 50)).toBe(true);
  });
});
