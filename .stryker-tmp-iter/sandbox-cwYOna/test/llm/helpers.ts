// @ts-nocheck
import { Writable } from 'node:stream';
import pino, { type Logger } from 'pino';
import { type Playbook, PlaybookSchema } from '../../src/engine/playbook/schema.ts';
import type { AskDeps } from '../../src/llm/ask.ts';
import { type LlmSettings, openAiClient } from '../../src/llm/settings.ts';
import { type LlmStore, MemoryLlmStore } from '../../src/llm/store.ts';

/** A pino logger whose lines the test can read back as objects. */
export function logSink(): { log: Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  return { log: pino({ level: 'debug' }, stream), lines };
}

export function testSettings(baseURL: string, overrides: Partial<LlmSettings> = {}): LlmSettings {
  return {
    apiKey: 'sk-test-fake-key',
    baseURL,
    model: 'memdoctor-test-model',
    timeoutMs: 2_000,
    maxRetries: 2,
    maxInputTokens: 4_000,
    requestsPerHour: 100,
    cacheTtlSeconds: 60,
    ...overrides,
  };
}

/** The real OpenAI client pointed at the fake, with an in-memory store and a readable log. */
export function testDeps(
  baseURL: string,
  overrides: Partial<LlmSettings> = {},
  store: LlmStore = new MemoryLlmStore(),
) {
  const settings = testSettings(baseURL, overrides);
  const sink = logSink();
  const deps: AskDeps = { client: openAiClient(settings), store, settings, log: sink.log };
  return { deps, logs: sink.lines };
}

/** A minimal valid playbook for prompts and schemas (the real ones live under playbooks/). */
export function fakePlaybook(id: string, title: string, summary: string): Playbook {
  const spec = PlaybookSchema.parse({
    id,
    title,
    engine: 'spark',
    summary,
    explanation: `${title} happens when the process asks for more memory than it was given.`,
    match: {
      requires: [{ any: ['oom.java-heap'], label: 'heap' }],
      signals: [{ fact: 'oom.java-heap', weight: 0.5 }],
    },
    actions: [{ text: 'Give it more memory.' }],
  });
  return { ...spec, version: 'test', dir: `/nowhere/${id}` };
}

export const PLAYBOOKS: Playbook[] = [
  fakePlaybook(
    'spark-heap-oom',
    'Spark executor ran out of heap',
    'Java heap space errors in a Spark executor or driver.',
  ),
  fakePlaybook(
    'spark-executor-overhead-killed',
    'Spark container killed for memory',
    'YARN or Kubernetes killed an executor container for exceeding its memory limit.',
  ),
  fakePlaybook(
    'flink-pending-slots',
    'Flink job cannot get slots',
    'A Flink job waits for task slots that never come.',
  ),
];
