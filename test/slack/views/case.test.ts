import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryCaseStore } from '../../../src/cases/store/memory.ts';
import { loadPlaybooks, PLAYBOOKS_DIR } from '../../../src/playbooks/load.ts';
import { caseAnswerView } from '../../../src/slack/views/case.ts';
import { prefilledNote } from '../../../src/slack/views/step.ts';
import { readWalkSeed } from '../../../src/slack/views/walk-seed.ts';
import { addToCase, type CaseAnswer } from '../../../src/usecases/add-to-case.ts';
import { answerText, MemoryWalkthroughStore, WalkthroughService } from '../../../src/walkthrough/index.ts';
import { blockKitProblems } from '../support/block-kit.ts';

// Real inputs: test/fixtures/case/SOURCES.md, named by their file names.
const CASES = join(import.meta.dirname, '..', '..', 'fixtures', 'case');
const playbooks = loadPlaybooks(PLAYBOOKS_DIR);

async function caseOf(...files: string[][]): Promise<CaseAnswer> {
  const context = { cases: new MemoryCaseStore(), playbooks, limits: { maxInputs: 8, maxBytes: 1 << 26 } };
  const where = { workspace: 'T1', conversation: 'C1', thread: '1700000000.000100' };
  let answer: CaseAnswer | undefined;
  for (const parts of files) {
    const text = readFileSync(join(CASES, ...parts), 'utf8');
    answer = await addToCase({ where, input: { source: parts.at(-1) as string, text } }, context);
  }
  return answer as CaseAnswer;
}

describe('the case answer view', () => {
  it('leads with the joint diagnosis, cites input:line, and says what was read and what changed', async () => {
    const answer = await caseOf(['hudi-9339', 'jobmanager.log'], ['hudi-9339', 'nodemanager.log']);
    const view = caseAnswerView(answer, playbooks, 'UALICE01');
    expect(blockKitProblems(view.blocks)).toEqual([]);
    expect(view).toMatchSnapshot();
  });

  it('starts the walkthrough from the facts of every input of the lead group', async () => {
    const answer = await caseOf(['hudi-9339', 'jobmanager.log'], ['hudi-9339', 'nodemanager.log']);
    const view = caseAnswerView(answer, playbooks);
    const actions = view.blocks.find((b) => b.type === 'actions') as { elements: { value: string }[] };
    const seed = readWalkSeed(actions.elements[0]?.value);
    expect(seed?.p).toBe(answer.lead?.diagnoses[0]?.playbook);
    expect(seed?.f).toEqual(answer.known.facts);
  });

  it('says nothing was found in inputs that show no memory problem, naming them', async () => {
    const answer = await caseOf(['jvm-threads-b', 'nmt.txt'], ['hudi-9339', 'jobmanager.log']);
    const view = caseAnswerView(answer, playbooks);
    expect(view.text).toMatch(
      /^memdoctor found no known memory problem in the inputs of this thread\. Added/,
    );
    expect(JSON.stringify(view.blocks)).toContain('Read together in this thread: nmt.txt, jobmanager.log.');
    expect(blockKitProblems(view.blocks)).toEqual([]);
  });

  it('says what the inputs show when no playbook matched, and how to name Beam from Slack', async () => {
    const answer = await caseOf(
      ['python-leak', 'dmesg.txt'],
      ['python-leak', 'top-11304.txt'],
      ['python-leak', 'tracemalloc-11304.txt'],
    );
    const view = caseAnswerView(answer, playbooks);
    const sections = view.blocks.filter((b) => b.type === 'section').map((b) => JSON.stringify(b));
    expect(sections[1]).toContain('*What the inputs show*');
    expect(sections[1]).toContain("dmesg.txt:3: the kernel's OOM killer ended python3");
    expect(sections[1]).toContain('top-11304.txt:8: memory climbs at 4.28 MB/s');
    expect(sections[1]).toContain('leaky_dofn.py:24 holding 39.7 MB more');
    expect(sections[2]).toContain('If this is a Beam worker, paste the worker');
    expect(sections[2]).toContain('`/memdoctor beam`');
    expect(blockKitProblems(view.blocks)).toEqual([]);
  });

  it('leads with the cause another input of the process decided, citing it', async () => {
    const answer = await caseOf(['jvm-heap-oom', 'console.txt'], ['jvm-heap-oom', 'gc-21442.log']);
    const view = caseAnswerView(answer, playbooks);
    expect(view.text).toMatch(/^The live data does not fit the heap: A JVM ran out of memory/);
    const sections = view.blocks.filter((b) => b.type === 'section').map((b) => JSON.stringify(b));
    expect(sections[0]).toContain(
      '*Likely cause: The live data does not fit the heap* (from gc-21442.log:678)',
    );
    expect(blockKitProblems(view.blocks)).toEqual([]);
  });

  it('a walkthrough started from the case says in the thread which input answered each step', async () => {
    const answer = await caseOf(['jvm-heap-oom', 'console.txt'], ['jvm-heap-oom', 'gc-21442.log']);
    const walkthroughs = new WalkthroughService({ store: new MemoryWalkthroughStore() });
    const playbook = playbooks.find((p) => p.id === answer.lead?.diagnoses[0]?.playbook);
    if (!playbook) throw new Error('no lead playbook');
    const record = await walkthroughs.start({
      playbook,
      where: { workspace: 'T1', conversation: 'C1' },
      owner: 'U1',
      diagnosis: answer.known,
    });
    // As walk-messages.ts gives the thread's first step message its note.
    const note = prefilledNote(
      record.path.map((e) => ({
        title: e.step,
        answer: answerText(e.answer),
        ...(e.because ? { because: e.because } : {}),
      })),
    );
    expect(note).toContain('(from console.txt)');
    expect(note).toContain('known from gc-21442.log, an input of this case');
  });
});
