import { describe, expect, it } from 'vitest';
import { containerKill } from '../../../src/engine/extractors/container-kill.ts';
import { GiB, MiB } from '../../../src/engine/units.ts';
import { findingsOf, kindsOf } from './run-extractor.ts';

const KILLED = 'container.killed-memory';

describe('container-kill', () => {
  it.each([
    {
      line: 'Container killed by YARN for exceeding memory limits. 4.5 GB of 4.5 GB physical memory used.',
      values: { resource: 'physical', manager: 'yarn', usedBytes: 4.5 * GiB, limitBytes: 4.5 * GiB },
    },
    {
      line: '18/05/16 00:53:32 ERROR YarnClusterScheduler: Lost executor 6 on impetus-i0057.impetus.co.in: Container killed by YARN for exceeding memory limits. 8.2 GB of 8 GB physical memory used. Consider boosting spark.yarn.executor.memoryOverhead.',
      values: {
        resource: 'physical',
        manager: 'yarn',
        usedBytes: Math.round(8.2 * GiB),
        limitBytes: 8 * GiB,
      },
    },
    {
      line: 'Container [pid=97191,containerID=container_1559725928_0001_01_000002] is running beyond physical memory limits. Current usage: 10.4 GB of 10 GB physical memory used; 12.5 GB of 21 GB virtual memory used. Killing container.',
      values: {
        resource: 'physical',
        manager: 'yarn',
        usedBytes: Math.round(10.4 * GiB),
        limitBytes: 10 * GiB,
      },
    },
    {
      line: 'Container killed by YARN for exceeding virtual memory limits. 2.2 GB of 2.1 GB virtual memory used.',
      values: {
        resource: 'virtual',
        manager: 'yarn',
        usedBytes: Math.round(2.2 * GiB),
        limitBytes: Math.round(2.1 * GiB),
      },
    },
    {
      line: 'Reason: Container killed by YARN for exceeding memory limits. 1.1 GiB of 1 GiB physical memory used',
      values: { resource: 'physical', manager: 'yarn', usedBytes: Math.round(1.1 * GiB), limitBytes: GiB },
    },
    {
      line: 'Container killed by YARN for exceeding physical memory limits. 900 MB of 896 MB physical memory used.',
      values: { resource: 'physical', manager: 'yarn', usedBytes: 900 * MiB, limitBytes: 896 * MiB },
    },
    {
      line: 'Container [pid=1,containerID=container_1_0001_01_000002] is running 10M beyond the physical memory limit',
      values: { resource: 'physical', manager: 'yarn' },
    },
    {
      line: 'Container killed by YARN for exceeding memory limits.',
      values: { resource: 'physical', manager: 'yarn' },
    },
    { line: '    Last State:     Terminated  Reason: OOMKilled  Exit Code: 137', values: undefined },
    { line: 'spark-exec-1   0/1     OOMKilled   3          5m', values: undefined },
    {
      line: 'Message: The node was low on resource: memory. Container spark-kubernetes-executor was using 7612864Ki, which exceeds its request of 5734400Ki.',
      values: undefined,
    },
  ])('$line', ({ line, values }) => {
    const findings = findingsOf(containerKill, line);
    expect(findings.map((f) => f.kind)).toEqual([KILLED]);
    if (values) expect(findings[0]?.values).toEqual(values);
    else expect(findings[0]?.values).toMatchObject({ manager: 'kubernetes' });
  });

  // A kill for virtual memory prints the physical figures first; the virtual ones are what matter.
  it('reports a virtual-memory kill as virtual even when physical figures come first', () => {
    const line =
      'Container [pid=123,containerID=container_1_0001_01_000001] is running beyond virtual memory limits. Current usage: 300.5 MB of 1 GB physical memory used; 2.3 GB of 2.1 GB virtual memory used. Killing container.';
    expect(findingsOf(containerKill, line)[0]?.values).toMatchObject({
      resource: 'virtual',
      usedBytes: Math.round(2.3 * GiB),
    });
  });

  // Real virtual-memory kills, one per wording. Hadoop 2.x ContainersMonitorImpl: "is running beyond
  // %s memory limits"; Hadoop 3.x: "is running %dB beyond the '%S' memory limit" (apache/hadoop,
  // ContainersMonitorImpl#formatErrorMessage); Spark before 3.0 words its own line "exceeding memory
  // limits" with the virtual figures (YarnAllocator#memLimitExceededLogMessage).
  it.each([
    {
      source: 'Hadoop 2.x NodeManager, quoted from stackoverflow.com/questions/21005643 on GitHub',
      line: 'Container [pid=28920,containerID=container_1389136889967_0001_01_000121] is running beyond virtual memory limits. Current usage: 1.2 GB of 1 GB physical memory used; 2.2 GB of 2.1 GB virtual memory used. Killing container.',
      values: {
        usedBytes: Math.round(2.2 * GiB),
        limitBytes: Math.round(2.1 * GiB),
        physicalUsedBytes: Math.round(1.2 * GiB),
        physicalLimitBytes: GiB,
      },
    },
    {
      source: 'Hadoop 3.1.2 NodeManager, posted in a GitHub notes file (search index file id 5251218076)',
      line: "Container [pid=22623,containerID=container_1567394951806_0001_01_000004] is running 476404224B beyond the 'VIRTUAL' memory limit. Current usage: 199.1 MB of 1 GB physical memory used; 2.5 GB of 2.1 GB virtual memory used. Killing container.",
      values: {
        usedBytes: Math.round(2.5 * GiB),
        limitBytes: Math.round(2.1 * GiB),
        physicalUsedBytes: Math.round(199.1 * MiB),
        physicalLimitBytes: GiB,
      },
    },
    {
      source: 'Spark 1.x YarnAllocationHandler, quoted in KNIME source (search index file id 12983061504)',
      line: 'WARN yarn.YarnAllocationHandler: Container killed by YARN for exceeding memory limits. 2.1 GB of 2.1 GB virtual memory used. Consider boosting spark.yarn.executor.memoryOverhead.',
      values: { usedBytes: Math.round(2.1 * GiB), limitBytes: Math.round(2.1 * GiB) },
    },
  ])('reads a virtual-memory kill: $source', ({ line, values }) => {
    expect(findingsOf(containerKill, line)[0]?.values).toEqual({
      resource: 'virtual',
      manager: 'yarn',
      ...values,
    });
  });

  it('keeps a Spark line that names no resource but carries physical figures physical', () => {
    const line =
      'Container killed by YARN for exceeding memory limits. 33.2 GB of 33 GB physical memory used. Consider boosting spark.yarn.executor.memoryOverhead or disabling yarn.nodemanager.vmem-check-enabled because of YARN-4714.';
    expect(findingsOf(containerKill, line)[0]?.values).toMatchObject({ resource: 'physical' });
  });

  it.each([
    // Hadoop 3 prints small figures in bytes without a space (TraditionalBinaryPrefix.long2String).
    [
      "Container [pid=1,containerID=container_1_0001_01_000002] is running 12582912B beyond the 'PHYSICAL' memory limit. Current usage: 1.0 GB of 1 GB physical memory used; 512B of 2.1 GB virtual memory used. Killing container.",
      { usedBytes: 1 * GiB, limitBytes: 1 * GiB },
    ],
    ['            "OOMKilled": true,', {}],
  ])('a kill with its figures: %s', (line, values) => {
    expect(findingsOf(containerKill, line)[0]).toMatchObject({ kind: KILLED, values });
  });

  it.each([
    '[2019-11-25 20:12:36.175]Container killed on request. Exit code is 143',
    'INFO MemoryStore: Block broadcast_0 stored as values in memory (estimated size 1.2 MB, free 365.2 MB)',
    'Heap memory used: 512 MB',
    'resources: {limits: {memory: 4Gi}} # memory limits for the driver pod',
    'Container exited with a non-zero exit code 127',
    // docker inspect prints the flag for every container, killed or not.
    '            "OOMKilled": false,',
    'State.OOMKilled=false',
  ])('finds nothing in %s', (line) => {
    expect(kindsOf(containerKill, line)).toEqual([]);
  });
});
