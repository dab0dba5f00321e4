import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memdoctor, ROOT, testEnv } from './spawn-helpers.ts';

/*
 * One Python process captured here (test/fixtures/case/SOURCES.md, python-leak/): the kernel's OOM
 * lines, its top samples and its own tracemalloc diff, all naming pid 11304. The process is a
 * DoFn-shaped leak, not Beam itself, so the person says the engine.
 */
const DIR = 'test/fixtures/case/python-leak';
const KILL = `${DIR}/dmesg.txt`;
const TOP = `${DIR}/top-11304.txt`;
const TRACEMALLOC = `${DIR}/tracemalloc-11304.txt`;
/** The shipped playbooks (testEnv points at the test ones): the answer is beam-python-leak's. */
const ENV = testEnv({ MEMDOCTOR_PLAYBOOKS_DIR: join(ROOT, 'playbooks') });

async function diagnose(...inputs: string[]): Promise<string> {
  const run = memdoctor(['diagnose', '--engine', 'beam', '--together', ...inputs], ENV);
  expect(await run.end()).toBe(0);
  expect(run.stderr).toBe('');
  return run.stdout;
}

describe('memdoctor diagnose --together: the captured Python leak', () => {
  it('the kill and the samples: one process by pid, a steady climb cited from the samples', async () => {
    const out = await diagnose(KILL, TOP);
    expect(out).toContain(`one process: pid 11304 (${KILL}:2, ${TOP}:8)`);
    expect(out).toContain(
      `cause: Memory climbs steadily until the limit (a leak, not a peak), from ${TOP}:8: the memory samples climb at 4.28 MB/s`,
    );
  });

  it('adding the tracemalloc diff: the cause is the growing line, cited from that input', async () => {
    const out = await diagnose(KILL, TOP, TRACEMALLOC);
    expect(out).toContain(`one process: pid 11304 (${KILL}:2, ${TOP}:8, ${TRACEMALLOC})`);
    expect(out).toContain(
      `cause: A Python allocation site keeps growing, from ${TRACEMALLOC}:1: tracemalloc shows`,
    );
    expect(out).toMatch(/leaky_dofn\.py:24 holding 39\.7 MB more than in the earlier snapshot/);
    expect(out).toMatch(/- Look at what \S+leaky_dofn\.py:24 appends to or caches/);
  });
});
