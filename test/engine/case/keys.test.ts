import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { joinInputs, readKeys } from '../../../src/engine/case/join.ts';
import { pidInFileName } from '../../../src/engine/case/keys/pid.ts';
import { keysOfLine } from '../../../src/engine/case/keys/registry.ts';
import { parseContainerId } from '../../../src/engine/case/keys/yarn.ts';

// Real lines: the sources are in test/fixtures/case/SOURCES.md, and the issue threads named beside each.
const LINES: [string, string, number, string[]][] = [
  [
    'NodeManager kill (apache/hudi#9339)',
    'Container [pid=8296,containerID=container_e07_1669378398064_0904_01_000002] is running beyond virtual memory limits.',
    5,
    [
      'yarn-container container_e07_1669378398064_0904_01_000002',
      'yarn-application application_1669378398064_0904',
      'pid 8296',
    ],
  ],
  [
    'legacy container id (alibaba/EasyRec#21)',
    'got container status for containerID=container_1598507699008_0094_01_000010, state=COMPLETE, exitStatus=-104',
    3,
    [
      'yarn-container container_1598507699008_0094_01_000010',
      'yarn-application application_1598507699008_0094',
    ],
  ],
  [
    'Spark 2 lost executor (yahoo/TensorFlowOnSpark#134)',
    '17/11/25 18:23:24 ERROR YarnClusterScheduler: Lost executor 9 on harrisburg.cs.colostate.edu: Container killed by YARN for exceeding memory limits.',
    7,
    ['spark-executor 9@harrisburg.cs.colostate.edu'],
  ],
  [
    'Spark 2 task line (yahoo/TensorFlowOnSpark#134)',
    '17/11/25 18:23:24 WARN TaskSetManager: Lost task 3.0 in stage 1.0 (TID 10, harrisburg.cs.colostate.edu, executor 9): ExecutorLostFailure (executor 9 exited caused by one of the running tasks)',
    8,
    ['spark-executor 9@harrisburg.cs.colostate.edu', 'spark-executor 9'],
  ],
  ['NMT header (jvm-threads-a/nmt.txt)', '23908:', 1, ['pid 23908']],
  ['a pid-like line past the header is no pid', '23908:', 2, []],
  [
    'unified GC log with the pid decorator (jvm-threads-a)',
    '[2026-12-03T12:42:38.464+0000][23908][info][gc] Using G1',
    1,
    ['pid 23908'],
  ],
  [
    'Flink 1.12+ TaskManager id with its node (DataLinkDC/dinky#3273)',
    '2024-03-11 16:31:51,967 INFO  org.apache.flink.runtime.resourcemanager.active.ActiveResourceManager [] - Closing TaskExecutor connection container_e481_1710116763206_0003_01_000002(hadoop-03:45454) because: slot manager has determined that the resource is no longer needed',
    40,
    [
      'yarn-container container_e481_1710116763206_0003_01_000002',
      'yarn-application application_1710116763206_0003',
      'flink-taskmanager container_e481_1710116763206_0003_01_000002',
    ],
  ],
  [
    'the kernel OOM killer ending a process (python-leak/dmesg.txt)',
    '[ 5575.479086] Memory cgroup out of memory: Killed process 11304 (python3) total-vm:173712kB, anon-rss:163284kB, file-rss:6756kB, shmem-rss:0kB, UID:0 pgtables:384kB oom_score_adj:0',
    3,
    ['pid 11304'],
  ],
  [
    'the kernel oom-kill summary line (python-leak/dmesg.txt)',
    '[ 5575.479066] oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=/,mems_allowed=0,oom_memcg=/process_api/6397b877693d037bdc22d24a67a2d877/leaky-dofn-11299,task_memcg=/process_api/6397b877693d037bdc22d24a67a2d877/leaky-dofn-11299,task=python3,pid=11304,uid=0',
    2,
    ['pid 11304'],
  ],
  [
    'top -b -p, a process row (python-leak/top-11304.txt)',
    '11304 root      20   0   18040  15404   6760 S   0.0   0.1   0:00.04 python3',
    8,
    ['pid 11304'],
  ],
  [
    'top -b -p, its column header is no pid',
    '  PID USER      PR  NI    VIRT    RES    SHR S  %CPU  %MEM     TIME+ COMMAND',
    7,
    [],
  ],
  ['a timed ps -o rss= sample is no pid (python-leak/ps-11304.txt)', '15:51:33 147252', 1, []],
  ['/proc/<pid>/status, its Pid: line (jvm-native-leak/status.txt)', 'Pid:\t16253', 6, ['pid 16253']],
  ['/proc/<pid>/status, its parent is another process', 'PPid:\t16143', 7, []],
  [
    'a ps row without its header is no pid (jvm-native-leak/ps-o.txt)',
    '16253       0 39068 2500136 java -XX:NativeMemoryTracking=summary -Xmx32m -cp /tmp/nl/run1/classes NativeLeak 4',
    2,
    [],
  ],
];

describe('join keys read from a line', () => {
  it.each(LINES)('%s', (_name, line, lineNo, expected) => {
    expect(keysOfLine(line, lineNo).map((k) => `${k.family} ${k.value}`)).toEqual(expected);
  });

  it('reads a container id apart: its application, and container 1 as the ApplicationMaster', () => {
    expect(parseContainerId('container_e07_1669378398064_0904_01_000001')).toEqual({
      id: 'container_e07_1669378398064_0904_01_000001',
      application: 'application_1669378398064_0904',
      attempt: 1,
      sequence: 1,
      applicationMaster: true,
    });
    expect(parseContainerId('container_1598507699008_0094_01_000010')?.applicationMaster).toBe(false);
  });
});

describe('one Python process, captured here (test/fixtures/case/python-leak)', () => {
  const dir = join(import.meta.dirname, '..', '..', 'fixtures', 'case', 'python-leak');
  const read = (name: string) => ({ name, lines: readFileSync(join(dir, name), 'utf8').split('\n') });

  it('takes the pid from a tracemalloc file or a sampling loop named by its process', () => {
    expect(pidInFileName('out/tracemalloc-11304.txt')).toEqual({ family: 'pid', value: '11304' });
    expect(pidInFileName('ps-11304.txt')).toEqual({ family: 'pid', value: '11304' });
    expect(pidInFileName('status-11304.txt')).toEqual({ family: 'pid', value: '11304' });
    // top names its pid in every row; a name is no process unless a sampler's name says so.
    expect(pidInFileName('top-11304.txt')).toBeUndefined();
    expect(pidInFileName('notes-11304.txt')).toBeUndefined();
    expect(pidInFileName('ps-bare.txt')).toBeUndefined();
  });

  it('joins the kernel kill, the top samples and the tracemalloc diff as one process by pid', () => {
    const [group, ...others] = joinInputs(['dmesg.txt', 'top-11304.txt', 'tracemalloc-11304.txt'].map(read));
    expect(others).toEqual([]);
    expect(group?.processes).toEqual([
      [
        {
          key: { family: 'pid', value: '11304' },
          cites: [
            { input: 'dmesg.txt', line: 2 },
            { input: 'top-11304.txt', line: 8 },
            { input: 'tracemalloc-11304.txt', line: 0 },
          ],
        },
      ],
    ]);
  });
});

describe('one JVM sampled with ps, captured here (test/fixtures/case/jvm-native-leak)', () => {
  const dir = join(import.meta.dirname, '..', '..', 'fixtures', 'case', 'jvm-native-leak');
  const read = (name: string) => ({ name, lines: readFileSync(join(dir, name), 'utf8').split('\n') });
  const pidOf = (name: string) => readKeys(read(name)).first.filter((k) => k.key.family === 'pid');

  it.each([
    ['ps -o pid,etimes,rss,vsz,cmd: the row under its header', 'ps-o.txt', 2],
    ['ps u (the ps aux columns): the row under its header', 'ps-u.txt', 2],
    ['a whole /proc/<pid>/status: its Pid: line', 'status.txt', 6],
    ['a ps -o rss= loop written to a file named for its pid', 'ps-16253.txt', 0],
  ])('%s', (_what, name, line) => {
    expect(pidOf(name)).toEqual([{ id: 'pid 16253', key: { family: 'pid', value: '16253' }, line }]);
  });

  it('reads no pid from a ps -o rss= loop that names none', () => {
    expect(pidOf('ps-bare.txt')).toEqual([]);
  });

  it("joins the kernel's kill, NMT, pmap and every ps series that names pid 16253; the bare series stays apart", () => {
    const names = [
      'dmesg.txt',
      'ps-o.txt',
      'ps-u.txt',
      'ps-16253.txt',
      'nmt-diff.txt',
      'pmap.txt',
      'ps-bare.txt',
    ];
    const [group, ...others] = joinInputs(names.map(read));
    expect(group?.inputs).toEqual(names.slice(0, -1));
    expect(group?.joinedBy.map((k) => k.key.value)).toEqual(['16253']);
    expect(others.map((g) => g.inputs)).toEqual([['ps-bare.txt']]);
  });
});
