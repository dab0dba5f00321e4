import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reportCase } from '../../../src/engine/case/case-report.ts';
import type { EngineHint } from '../../../src/engine/hints.ts';
import { loadPlaybooks, PLAYBOOKS_DIR } from '../../../src/playbooks/load.ts';

// Captured here (test/fixtures/case/SOURCES.md): a DoFn-shaped Python leak killed by its memory
// cgroup (python-leak), and a JVM leaking natively under one (jvm-native-leak). Neither names a system.
const CASE = join(import.meta.dirname, '..', '..', 'fixtures', 'case');
const playbooks = loadPlaybooks(PLAYBOOKS_DIR);

function caseOf(files: readonly string[], engine?: EngineHint) {
  const inputs = files.map((file) => {
    const text = readFileSync(join(CASE, file), 'utf8');
    return {
      name: file.split('/').pop() as string,
      lines: text.split('\n'),
      stats: { bytes: text.length, lines: 0 },
    };
  });
  return reportCase({ inputs, leftOut: [] }, playbooks, engine);
}

const PYTHON = ['python-leak/dmesg.txt', 'python-leak/top-11304.txt', 'python-leak/tracemalloc-11304.txt'];

describe('a case no playbook matched says what its inputs show', () => {
  it('the Python kill, its growth and its growing line, each cited; and that Beam would read them', () => {
    const [group] = caseOf(PYTHON).groups;
    expect(group?.diagnoses).toEqual([]);
    expect(group?.unmatched?.shown).toEqual([
      "dmesg.txt:3: the kernel's OOM killer ended python3",
      'top-11304.txt:8: memory climbs at 4.28 MB/s without levelling off',
      expect.stringMatching(
        /^tracemalloc-11304\.txt:1: tracemalloc shows \S+\/leaky_dofn\.py:24 holding 39\.7 MB more than the earlier snapshot$/,
      ),
    ]);
    expect(group?.unmatched?.ifEngine).toMatchObject({ engine: 'beam', playbook: 'beam-python-leak' });
  });

  it('with --engine beam the Beam playbook answers, and nothing is said as unmatched', () => {
    const [group] = caseOf(PYTHON, 'beam').groups;
    expect(group?.diagnoses[0]?.playbook).toBe('beam-python-leak');
    expect(group?.unmatched).toBeUndefined();
  });

  it('a series alone (it names no pid): its growth, and no system, since nothing says which process it is', () => {
    const [, alone] = caseOf(['jvm-native-leak/dmesg.txt', 'jvm-native-leak/ps-bare.txt']).groups;
    expect(alone?.inputs).toEqual(['ps-bare.txt']);
    expect(alone?.unmatched).toEqual({
      shown: ['ps-bare.txt:1: memory climbs at 3.96 MB/s without levelling off'],
    });
  });
});
