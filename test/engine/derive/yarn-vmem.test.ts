import { describe, expect, it } from 'vitest';
import { FactCollector } from '../../../src/engine/collector.ts';
import { containerMemory } from '../../../src/engine/derive/container-memory.ts';
import { yarnVmem } from '../../../src/engine/derive/yarn-vmem.ts';

function bookOf(...lines: string[]) {
  const collector = new FactCollector();
  collector.push(lines);
  collector.finish();
  return collector.book;
}

// Real kill lines (sources in test/engine/extractors/container-kill.test.ts).
const HADOOP2 =
  'Container [pid=28920,containerID=container_1389136889967_0001_01_000121] is running beyond virtual memory limits. Current usage: 1.2 GB of 1 GB physical memory used; 2.2 GB of 2.1 GB virtual memory used. Killing container.';
const HADOOP3 =
  "Container [pid=22623,containerID=container_1567394951806_0001_01_000004] is running 476404224B beyond the 'VIRTUAL' memory limit. Current usage: 199.1 MB of 1 GB physical memory used; 2.5 GB of 2.1 GB virtual memory used. Killing container.";
const SPARK1 =
  'WARN yarn.YarnAllocationHandler: Container killed by YARN for exceeding memory limits. 2.1 GB of 2.1 GB virtual memory used. Consider boosting spark.yarn.executor.memoryOverhead.';

describe('yarn-vmem derivation', () => {
  it('reads the ratio in force and the one this container needed from a Hadoop 2 kill', () => {
    expect(yarnVmem(bookOf(HADOOP2))).toEqual({
      'vmem.used': '2.2 GB',
      'vmem.limit': '2.1 GB',
      'vmem.physical-limit': '1 GB',
      'vmem.ratio': '2.1',
      'vmem.ratio.needed': '2.2',
      'vmem.ratio.suggested': '4',
    });
  });

  it('suggests half again of what a Hadoop 3 container needed', () => {
    expect(yarnVmem(bookOf(HADOOP3))).toMatchObject({
      'vmem.ratio.needed': '2.5',
      'vmem.ratio.suggested': '4',
    });
  });

  it('takes the physical limit from the configured ratio when the line gives only virtual figures', () => {
    const book = bookOf(
      'yarn.nodemanager.vmem-pmem-ratio=3',
      'Container killed by YARN for exceeding memory limits. 6.2 GB of 6 GB virtual memory used.',
    );
    expect(yarnVmem(book)).toMatchObject({
      'vmem.physical-limit': '2 GB',
      'vmem.ratio': '3',
      'vmem.ratio.suggested': '5',
    });
    expect(yarnVmem(bookOf(SPARK1))).toMatchObject({
      'vmem.physical-limit': '1 GB',
      'vmem.ratio.suggested': '4',
    });
  });

  it('gives nothing for a physical kill, and the overhead derivation ignores virtual figures', () => {
    const physical =
      'Container killed by YARN for exceeding memory limits. 4.5 GB of 4.5 GB physical memory used.';
    expect(yarnVmem(bookOf(physical))).toEqual({});
    expect(containerMemory(bookOf(HADOOP2))).toEqual({});
    expect(containerMemory(bookOf(HADOOP2, physical))).toMatchObject({ 'container.limit': '4.5 GB' });
  });
});
