import { describe, expect, it } from 'vitest';
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
