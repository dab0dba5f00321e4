import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diagnoseCase } from '../../src/diagnosis/index.ts';
import { fileChunks } from '../../src/file-chunks.ts';
import { loadPlaybooks } from '../../src/playbooks/load.ts';

/*
 * One JVM captured here (scripts/capture/case/heap-oom.sh; test/fixtures/case/SOURCES.md): its
 * console with the OutOfMemoryError and "Dumping heap to .../java_pid21442.hprof", its GC log
 * gc-21442.log, NMT and pmap -x of pid 21442, and the heap dump HotSpot wrote, java_pid21442.hprof.gz.
 */
const DIR = join(import.meta.dirname, '..', 'fixtures', 'case', 'jvm-heap-oom');
const playbooks = loadPlaybooks();

async function caseOf(...files: string[]) {
  const inputs = files.map((file) => ({ source: file, chunks: fileChunks(join(DIR, file)) }));
  return diagnoseCase({ inputs }, { playbooks });
}

function top(report: Awaited<ReturnType<typeof caseOf>>) {
  return report.groups[0]?.diagnoses[0];
}

describe('a case refines its cause as inputs of the same process arrive', () => {
  it('the console alone: a heap OutOfMemoryError, the heap cause, nothing refined', async () => {
    const report = await caseOf('console.txt');
    expect(top(report)).toMatchObject({ playbook: 'jvm-oom', cause: 'heap' });
    expect(top(report)?.refinedBy).toBeUndefined();
  });

  it('with its GC log (joined by pid 21442): the live data fills the heap, citing the GC log', async () => {
    const report = await caseOf('console.txt', 'gc-21442.log');
    expect(report.groups).toHaveLength(1);
    expect(report.groups[0]?.joinedBy[0]).toMatch(/^pid 21442 \(console\.txt:2, gc-21442\.log\)/);
    expect(top(report)?.refinedBy).toMatchObject({
      rule: 'gc-full-after-gc',
      evidence: { input: 'gc-21442.log' },
    });
  });

  it('with the heap dump HotSpot named java_pid21442.hprof: the leak, citing the dump', async () => {
    const report = await caseOf(
      'console.txt',
      'gc-21442.log',
      'java_pid21442.hprof.gz',
      'nmt.txt',
      'pmap.txt',
    );
    expect(report.groups).toHaveLength(1);
    expect(report.groups[0]?.inputs.map((i) => basename(i))).toContain('java_pid21442.hprof.gz');
    const d = top(report);
    expect(d).toMatchObject({ playbook: 'jvm-oom', cause: 'heap-leak' });
    expect(d?.refinedBy).toMatchObject({
      rule: 'heap-dump-suspect',
      evidence: {
        input: 'java_pid21442.hprof.gz',
        text: 'dominator: java.util.ArrayList retains 29.6 MB (97.1% of the heap) via static HeapLeak.kept',
      },
    });
    expect(d?.refinedBy?.because).toContain('java.util.ArrayList holding 97.1% of the heap');
  });
});
