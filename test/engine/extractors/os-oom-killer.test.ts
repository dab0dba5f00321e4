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
    // The kubelet's SystemOOM node event (pkg/kubelet/oom), with and without the victim.
    [
      'default   57m   Warning   SystemOOM   node/nlk8s-node04   System OOM encountered, victim process: java, pid: 967770',
      'java',
    ],
    [
      '  Warning  SystemOOM  {kubelet gke-cluster-1-default-pool-312d7520-c4db}  System OOM encountered',
      'unknown',
    ],
    // Kernel lines quoted in public threads (search index ids 3305410444, 38418647319, 28864040554, 19633047669).
    [
      'Mar 27 01:15:36 ip-10-0-1-103.us-west-2.compute.internal kernel: Killed process 16883 (oomApp) total-vm:4575664kB, anon-rss:57784kB, file-rss:1240kB, shmem-rss:0kB',
      'oomApp',
    ],
    [
      '[6710784.707978] Killed process 215701, UID 679, (java) total-vm:11017300kB, anon-rss:7152432kB, file-rss:1232kB',
      'java',
    ],
    [
      '[6710784.698347] Memory cgroup out of memory: Kill process 215701 (java) score 854 or sacrifice child',
      'java',
    ],
    [
      '[  617.820631] Out of memory: Kill process 2279 (Web Content) score 426 or sacrifice child',
      'Web Content',
    ],
    [
      '[  618.020277] oom_reaper: reaped process 2279 (Web Content), now anon-rss:0kB, file-rss:0kB, shmem-rss:0kB',
      'Web Content',
    ],
    [
      '[14808.063986] Task in /docker/34186d9bd077 killed as a result of limit of /docker/34186d9bd077',
      'unknown',
    ],
  ])('%s -> os.oom-kill of %s', (line, process) => {
    expect(findingsOf(osOomKiller, line)).toEqual([{ kind: 'os.oom-kill', values: { process } }]);
  });

  // Captured here (test/fixtures/case/jvm-native-leak/dmesg.txt): the memory cgroup that ran out.
  it('reads the usage and the limit of the memory cgroup that ran out', () => {
    expect(
      findingsOf(osOomKiller, '[  461.392465] memory: usage 196608kB, limit 196608kB, failcnt 51'),
    ).toEqual([{ kind: 'os.memcg-limit', values: { usedBytes: 201_326_592, limitBytes: 201_326_592 } }]);
  });

  it('keeps no limit for a cgroup without one (the kernel prints PAGE_COUNTER_MAX)', () => {
    const line = '[  461.392465] memory: usage 196608kB, limit 9007199254740988kB, failcnt 0';
    expect(findingsOf(osOomKiller, line)).toEqual([
      { kind: 'os.memcg-limit', values: { usedBytes: 201_326_592 } },
    ]);
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
    'INFO Killed process group of the previous attempt',
    '[  818.376008] memory+swap: usage 102400kB, limit 102400kB, failcnt 0',
  ])('finds nothing in %s', (line) => {
    expect(kindsOf(osOomKiller, line)).toEqual([]);
  });
});
