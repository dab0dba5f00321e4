import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryCaseStore } from '../../src/cases/store/memory.ts';
import { fileChunks } from '../../src/file-chunks.ts';
import { loadPlaybooks } from '../../src/playbooks/load.ts';
import { addToCase } from '../../src/usecases/add-to-case.ts';

// One JVM captured here (test/fixtures/case/SOURCES.md, jvm-heap-oom).
const DIR = join(import.meta.dirname, '..', 'fixtures', 'case', 'jvm-heap-oom');
const playbooks = loadPlaybooks();

describe('a heap dump added to a console case', () => {
  it('joins its JVM by the java_pid<pid>.hprof name, keeps only its facts, and its suspect refines the cause', async () => {
    const context = { cases: new MemoryCaseStore(), playbooks, limits: { maxInputs: 8, maxBytes: 1 << 26 } };
    const where = { workspace: 'local', conversation: 'console', thread: 's1' };
    const text = readFileSync(join(DIR, 'console.txt'), 'utf8');
    await addToCase({ where, input: { source: 'console.txt', text } }, context);
    const dump = 'java_pid21442.hprof.gz';
    const answer = await addToCase(
      { where, input: { source: dump, chunks: fileChunks(join(DIR, dump)) } },
      context,
    );
    expect(answer.report.groups).toHaveLength(1);
    expect(answer.lead?.joinedBy[0]).toMatch(/^pid 21442 \(console\.txt:2, java_pid21442\.hprof\.gz\)/);
    expect(answer.lead?.diagnoses[0]?.refinedBy).toMatchObject({
      rule: 'heap-dump-suspect',
      evidence: { input: dump },
    });
    const stored = answer.record.inputs.find((i) => i.name === dump);
    expect(stored?.book.groups.map((g) => g.kind)).toContain('heap-dump.leak');
  });
});
