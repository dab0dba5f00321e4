import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NOT_A_HEAP_DUMP } from '../../src/diagnosis/heap-dump.ts';
import { fileChunks } from '../../src/file-chunks.ts';
import { MemoryOutcomeStore } from '../../src/stats/memory.ts';
import { answerStep } from '../../src/usecases/answer-step.ts';
import { answerStepWithHeapDump, type StepDump } from '../../src/usecases/heap-dump-step.ts';
import { startWalkthrough } from '../../src/usecases/start-walkthrough.ts';
import { MemoryWalkthroughStore, WalkthroughService } from '../../src/walkthrough/index.ts';
import { parseKv, TEST_PARSER_REGISTRY, testPlaybook } from '../walkthrough/helpers.ts';

/** Real dumps of live JDK 17 JVMs: test/fixtures/heap-dumps/SOURCES.md. */
const DIR = 'test/fixtures/heap-dumps';

function fileDump(name: string): StepDump {
  const path = `${DIR}/${name}`;
  return {
    source: name,
    chunks: fileChunks(path),
    seekable: { locator: path, size: 0, read: (from: number) => fileChunks(path, from) },
  };
}

async function* bytes(text: string) {
  yield Buffer.from(text, 'latin1');
}

/** The test procedure (test/walkthrough/fixtures/procedure.yaml) brought to its heap-dump step. */
async function atDumpStep() {
  const walkthroughs = new WalkthroughService({
    store: new MemoryWalkthroughStore(),
    parsers: TEST_PARSER_REGISTRY,
    parse: parseKv,
  });
  const ctx = { walkthroughs, outcomes: new MemoryOutcomeStore(), playbooks: [testPlaybook()] };
  const where = { workspace: 'T1', conversation: 'C1' };
  const started = await startWalkthrough(ctx, { playbook: testPlaybook(), where, owner: 'U1' });
  for (const event of [
    { type: 'choose', answer: 'container' },
    { type: 'done' },
    { type: 'skip' },
  ] as const) {
    const r = await answerStep(ctx, { walkthrough: started.id, event, actor: 'U1' });
    if (r.kind !== 'answered') throw r.error;
  }
  return { ctx, id: started.id };
}

describe('answerStepWithHeapDump: the door every surface uses to answer a dump step', () => {
  it('answers with the analysis of a real dump and follows its branch', async () => {
    const { ctx, id } = await atDumpStep();
    const result = await answerStepWithHeapDump(ctx, {
      walkthrough: id,
      actor: 'U1',
      dump: fileDump('static-cache-oom.hprof.gz'),
    });
    expect(result.kind).toBe('answered');
    if (result.kind !== 'answered') return;
    expect(result.after.current).toBe('find-leak');
    const answer = result.after.path.at(-1)?.answer;
    expect(answer).toMatchObject({
      kind: 'heap-dump',
      source: 'static-cache-oom.hprof.gz',
      summary:
        'java.util.HashMap retains 61.5 MB (98.5% of the heap) via static CacheLeak.CACHE, accumulated in java.util.HashMap$Node[] (table)',
      values: {
        leak: true,
        peak: false,
        suspect: 'java.util.HashMap',
        holder: '',
        oom: true,
        topShare: 0.985,
      },
    });
    // Only the analysis' heap-dump facts are kept: names, counts and sizes.
    expect(answer?.kind === 'heap-dump' && answer.facts.every((f) => f.kind.startsWith('heap-dump.'))).toBe(
      true,
    );
  }, 60_000);

  it('a peak takes the other way', async () => {
    const { ctx, id } = await atDumpStep();
    const result = await answerStepWithHeapDump(ctx, {
      walkthrough: id,
      actor: 'U1',
      dump: fileDump('peak-no-leak-all.hprof.gz'),
    });
    expect(result.kind === 'answered' && result.after.current).toBe('no-leak');
  }, 60_000);

  it('refuses a file that is not a dump, and leaves the walkthrough where it was', async () => {
    const { ctx, id } = await atDumpStep();
    const log = readFileSync('test/fixtures/heap-dumps/SOURCES.md', 'latin1');
    const result = await answerStepWithHeapDump(ctx, {
      walkthrough: id,
      actor: 'U1',
      dump: { source: 'SOURCES.md', chunks: bytes(log) },
    });
    expect(result.kind).toBe('refused');
    expect(result.kind === 'refused' && result.error.message).toMatch(
      `SOURCES.md: cannot read it: ${NOT_A_HEAP_DUMP}`,
    );
    expect((await ctx.walkthroughs.get(id)).current).toBe('dump');
  });

  it('refuses a corrupt dump with the offset, and one beyond the budget with what it needs', async () => {
    const { ctx, id } = await atDumpStep();
    const corrupt = 'JAVA PROFILE 1.0.2\0\0\0\0\x09\0\0\0\0\0\0\0\0';
    const bad = await answerStepWithHeapDump(ctx, {
      walkthrough: id,
      actor: 'U1',
      dump: { source: 'x.hprof', chunks: bytes(corrupt) },
    });
    expect(bad.kind === 'refused' && bad.error.message).toContain(
      'corrupt heap dump at byte 19: expected an identifier size of 4 or 8, found 9',
    );
    const over = await answerStepWithHeapDump(ctx, {
      walkthrough: id,
      actor: 'U1',
      dump: fileDump('static-cache-oom.hprof.gz'),
      options: { budgetBytes: 64 * 1024 ** 2 },
    });
    expect(over.kind).toBe('refused');
    expect(over.kind === 'refused' && over.error.name).toBe('HeapDumpOverBudgetError');
    expect((await ctx.walkthroughs.get(id)).current).toBe('dump');
  }, 60_000);
});
