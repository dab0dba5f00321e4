import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryCaseStore } from '../../src/cases/store/memory.ts';
import { findPlaybook, loadPlaybooks } from '../../src/playbooks/load.ts';
import { addToCase, type CaseAnswer } from '../../src/usecases/add-to-case.ts';
import { MemoryWalkthroughStore, WalkthroughService } from '../../src/walkthrough/index.ts';

// One JVM captured here (test/fixtures/case/SOURCES.md, jvm-heap-oom): its console and its GC log.
const DIR = join(import.meta.dirname, '..', 'fixtures', 'case', 'jvm-heap-oom');
const playbooks = loadPlaybooks();

async function jvmCase(...files: string[]): Promise<CaseAnswer> {
  const context = { cases: new MemoryCaseStore(), playbooks, limits: { maxInputs: 8, maxBytes: 1 << 26 } };
  const where = { workspace: 'T1', conversation: 'C1', thread: '1700000000.000200' };
  let answer: CaseAnswer | undefined;
  for (const file of files)
    answer = await addToCase(
      { where, input: { source: file, text: readFileSync(join(DIR, file), 'utf8') } },
      context,
    );
  return answer as CaseAnswer;
}

async function walkFrom(answer: CaseAnswer) {
  const walkthroughs = new WalkthroughService({ store: new MemoryWalkthroughStore() });
  const playbook = findPlaybook(playbooks, answer.lead?.diagnoses[0]?.playbook ?? '');
  return walkthroughs.start({
    playbook,
    where: { workspace: 'T1', conversation: 'C1' },
    owner: 'U1',
    diagnosis: answer.known,
  });
}

describe('a walkthrough started from a case', () => {
  it('answers the question and the GC-log paste from the inputs that hold them, naming each', async () => {
    const record = await walkFrom(await jvmCase('console.txt', 'gc-21442.log'));
    const kind = record.path.find((e) => e.step === 'kind');
    expect(kind).toMatchObject({ prefilled: true, answer: { answer: 'heap' } });
    expect(kind?.because).toContain('(from console.txt)');
    const gc = record.path.find((e) => e.step === 'gc-log');
    expect(gc).toMatchObject({ prefilled: true, answer: { kind: 'paste', format: 'gc-log' } });
    expect(gc?.because).toMatch(/^known from gc-21442\.log, an input of this case; /);
    // The paste is answered with the GC log's own parsed values, so its branch is the one a paste takes.
    expect(gc?.answer).toMatchObject({ values: { heapFloorRising: false, collector: 'G1' } });
    expect(record.current).not.toBe('gc-log');
  });

  it('asks for the GC log when no input of the case is one', async () => {
    const record = await walkFrom(await jvmCase('console.txt', 'nmt.txt'));
    expect(record.path.some((e) => e.step === 'gc-log')).toBe(false);
    expect(record.current).toBe('gc-log');
  });
});
