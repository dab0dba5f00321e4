import { createReadStream, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryCaseStore } from '../../src/cases/store/memory.ts';
import { loadPlaybooks, PLAYBOOKS_DIR } from '../../src/playbooks/load.ts';
import { addToCase, type CaseContext, type CaseWhere } from '../../src/usecases/add-to-case.ts';

// Real inputs: test/fixtures/case/SOURCES.md.
const CASES = join(import.meta.dirname, '..', 'fixtures', 'case');
const JOBMANAGER = join(CASES, 'hudi-9339', 'jobmanager.log');
const NODEMANAGER = join(CASES, 'hudi-9339', 'nodemanager.log');
const NMT_B = join(CASES, 'jvm-threads-b', 'nmt.txt');
const playbooks = loadPlaybooks(PLAYBOOKS_DIR);

let counter = 0;
function thread(): CaseWhere {
  return { workspace: 'T1', conversation: 'C1', thread: `1700000000.${String(++counter).padStart(6, '0')}` };
}
function context(limits = { maxInputs: 8, maxBytes: 1 << 26 }): CaseContext {
  return { cases: new MemoryCaseStore(), playbooks, limits };
}
function file(path: string) {
  return { source: path.split('/').pop() as string, chunks: createReadStream(path) };
}

describe('addToCase', () => {
  it('reads a second upload into the thread’s case and cites both files in one answer', async () => {
    const where = thread();
    const ctx = context();
    const first = await addToCase({ where, input: file(JOBMANAGER), answerTs: '1700000000.000900' }, ctx);
    // The JobManager's "marked as failed" block alone names no memory problem.
    expect(first.lead?.diagnoses).toEqual([]);
    expect(first.change.summary).toBe('Added jobmanager.log; no change to the diagnosis.');
    const second = await addToCase({ where, input: file(NODEMANAGER) }, ctx);
    expect(second.record).toMatchObject({ version: 2, answerTs: '1700000000.000900' });
    const top = second.lead?.diagnoses[0];
    expect(new Set(top?.evidence.map((e) => `${e.input}:${e.line}`))).toEqual(
      new Set(['jobmanager.log:2', 'nodemanager.log:1']),
    );
    expect(second.change).toMatchObject({
      newTop: true,
      newEvidenceFrom: ['jobmanager.log', 'nodemanager.log'],
    });
    expect(second.change.summary).toBe(
      `Added nodemanager.log; the top diagnosis is "${top?.title}"; new evidence from jobmanager.log, nodemanager.log.`,
    );
    // Alone, the NodeManager log's answer cites itself only: the JobManager's line is the case's.
    const alone = await addToCase({ where: thread(), input: file(NODEMANAGER) }, ctx);
    expect(alone.lead?.diagnoses[0]?.evidence.map((e) => e.input)).toEqual(['nodemanager.log']);
    expect(second.lead?.joinedBy.join()).toContain(
      'yarn-container container_e07_1669378398064_0904_01_000002',
    );
    // The walkthrough starts from both inputs' facts: the NodeManager's kill line is among them.
    expect(second.known.facts.length).toBeGreaterThan(first.known.facts.length);
  });

  it('keeps an unrelated log apart and says so', async () => {
    const where = thread();
    const ctx = context();
    await addToCase({ where, input: file(JOBMANAGER) }, ctx);
    const apart = await addToCase({ where, input: file(NMT_B) }, ctx);
    expect(apart.report.groups.map((g) => g.inputs)).toEqual([['jobmanager.log'], ['nmt.txt']]);
    expect(apart.change.apart).toEqual([['jobmanager.log'], ['nmt.txt']]);
    expect(apart.change.summary).toMatch(
      /nmt\.txt shares no container, .* with jobmanager\.log, so it is read apart/,
    );
    expect(apart.change.newTop).toBe(false);
  });

  it('adds two uploads that arrive at once, one after the other, both kept', async () => {
    const where = thread();
    const ctx = context();
    const both = await Promise.all([
      addToCase({ where, input: file(JOBMANAGER) }, ctx),
      addToCase({ where, input: file(NODEMANAGER) }, ctx),
    ]);
    const record = await ctx.cases.get(where);
    expect(record?.version).toBe(2);
    expect(record?.inputs.map((i) => i.name).sort()).toEqual(['jobmanager.log', 'nodemanager.log']);
    expect(both.map((b) => b.record.version).sort()).toEqual([1, 2]);
  });

  it('gives a second file of the same name its own name in the case', async () => {
    const where = thread();
    const ctx = context();
    await addToCase({ where, input: { source: 'x.log', text: readFileSync(JOBMANAGER, 'utf8') } }, ctx);
    const again = await addToCase(
      { where, input: { source: 'x.log', text: readFileSync(NODEMANAGER, 'utf8') } },
      ctx,
    );
    expect(again.record.inputs.map((i) => i.name)).toEqual(['x.log', 'x.log (2)']);
  });

  it('leaves out inputs past the limits, says which, and keeps the answer it had', async () => {
    const where = thread();
    const ctx = context({ maxInputs: 1, maxBytes: 1 << 26 });
    const first = await addToCase({ where, input: file(JOBMANAGER) }, ctx);
    const over = await addToCase({ where, input: file(NODEMANAGER) }, ctx);
    expect(over.change).toMatchObject({
      added: false,
      leftOut: { source: 'nodemanager.log', reason: 'a case holds at most 1 inputs' },
    });
    expect(over.change.summary).toBe(
      'Left out nodemanager.log: a case holds at most 1 inputs; the answer is unchanged.',
    );
    expect(over.report.groups).toEqual(first.report.groups);
    expect(over.report.notes).toContain('Left out nodemanager.log: a case holds at most 1 inputs.');
    const bytes = context({ maxInputs: 8, maxBytes: 400 });
    const place = thread();
    await addToCase({ where: place, input: file(JOBMANAGER) }, bytes);
    const big = await addToCase({ where: place, input: file(NMT_B) }, bytes);
    expect(big.change.leftOut?.reason).toMatch(
      /the case would pass its limit of 400 bytes \(346 held before it\)/,
    );
    expect(big.record.inputs.map((i) => i.name)).toEqual(['jobmanager.log']);
  });
});
