import { describe, expect, it } from 'vitest';
import { osOomKiller } from '../../../src/engine/extractors/os-oom-killer.ts';
import { findingsOf, kindsOf } from './run-extractor.ts';

describe('os-oom-killer', () => {
  it.each([
    [
      'Out of memory: Killed process 1882 (python) total-vm:6041764kB, anon-rss:3290928kB, file-rss:0kB, shmem-rss:0kB',
      'python',
    ],
    ['[12345.678] Out of memory: Kill process 4321 (java) score 951 or sacrifice child', 'java'],
    ['kernel: java invoked oom-killer: gfp_mask=0x201da, order=0, oom_score_adj=0', 'unknown'],
    ['[ 1234.5] oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=/,mems_allowed=0', 'unknown'],
    ['The worker VM had to shut down one or more processes due to lack of memory.', 'dataflow-worker'],
  ])('%s -> os.oom-kill of %s', (line, process) => {
    expect(findingsOf(osOomKiller, line)).toEqual([{ kind: 'os.oom-kill', values: { process } }]);
  });

  it.each(['Killed', '  Killed  ', 'Killed: 9'])('a bare "%s" line -> process.killed', (line) => {
    expect(kindsOf(osOomKiller, line)).toEqual(['process.killed']);
  });

  it.each([
    'Killed 3 tasks on executor 5',
    '[2019-11-25 20:12:36.175]Container killed on request. Exit code is 143',
    'WARN TaskSetManager: Lost task 5.0 in stage 0.0: TaskKilled (Tasks result size has exceeded maxResultSize)',
    'java.lang.OutOfMemoryError: Java heap space',
    'Out of memory: see the troubleshooting guide',
  ])('finds nothing in %s', (line) => {
    expect(kindsOf(osOomKiller, line)).toEqual([]);
  });
});
