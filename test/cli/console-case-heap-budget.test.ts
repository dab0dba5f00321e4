import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryCaseStore } from '../../src/cases/store/memory.ts';
import { ConsoleCase } from '../../src/cli/console/case.ts';
import { fileChunks } from '../../src/file-chunks.ts';
import { loadPlaybooks } from '../../src/playbooks/load.ts';

// A real dump of a live JDK 17 JVM (test/fixtures/heap-dumps/SOURCES.md).
const DUMP = join(import.meta.dirname, '..', 'fixtures', 'heap-dumps', 'static-cache-oom.hprof.gz');
const MiB = 1024 * 1024;
const playbooks = loadPlaybooks();

/** A console session's case under a heap dump budget, and everything it wrote (a dump counts its decompressed bytes). */
function sessionCase(heapDumpBudget: number) {
  const written: string[] = [];
  const cases = { store: new MemoryCaseStore(), limits: { maxInputs: 8, maxBytes: 1 << 30 } };
  const kase = new ConsoleCase(cases, playbooks, (t) => written.push(t), heapDumpBudget);
  return { kase, out: () => written.join('') };
}

describe("a heap dump added to the console session's case (MEMDOCTOR_HEAP_DUMP_BUDGET)", () => {
  it('is refused when its analysis would need more than the budget, saying which setting to raise', async () => {
    const { kase, out } = sessionCase(200 * MiB);
    await kase.add({ source: DUMP, chunks: fileChunks(DUMP) }, undefined);
    expect(out()).toMatch(
      /\(not added to this session's case: \S+static-cache-oom\.hprof\.gz: this heap dump is over \d+ MiB decompressed .*MEMDOCTOR_HEAP_DUMP_BUDGET/,
    );
  });

  it('is read into the case within the budget, and answered with the next input', async () => {
    const { kase, out } = sessionCase(2 * 1024 * MiB);
    await kase.add({ source: DUMP, chunks: fileChunks(DUMP) }, undefined);
    await kase.add({ source: 'paste', text: 'java.lang.OutOfMemoryError: Java heap space\n' }, undefined);
    expect(out()).not.toContain('not added');
    expect(out()).toContain(`== Read together in this session: ${DUMP}, paste`);
  });
});
