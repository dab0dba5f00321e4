import { describe, expect, it } from 'vitest';
import { FactCollector } from '../../../src/engine/collector.ts';
import { flinkMemory } from '../../../src/engine/derive/flink-memory.ts';

function derive(...lines: string[]) {
  const collector = new FactCollector();
  collector.push(lines);
  collector.finish();
  return flinkMemory(collector.book);
}

// The dynamic properties a TaskManager is started with, as posted on GitHub (search index file id
// 26559015149): every part derived by Flink from the default 1728m process size.
const DYNAMIC =
  '程序参数: --configDir ./conf --configDir ./conf -D taskmanager.memory.framework.off-heap.size=134217728b -D taskmanager.memory.network.max=134217730b -D taskmanager.memory.network.min=134217730b -D taskmanager.memory.framework.heap.size=134217728b -D taskmanager.memory.managed.size=536870920b -D taskmanager.cpu.cores=1.0 -D taskmanager.memory.task.heap.size=402653174b -D taskmanager.memory.task.off-heap.size=0b -D taskmanager.memory.jvm-metaspace.size=268435456b -D taskmanager.memory.jvm-overhead.max=201326592b -D taskmanager.memory.jvm-overhead.min=201326592b';

describe('flink-memory derivation', () => {
  it('reads the layout from the dynamic properties and proposes from the 1728m total they add up to', () => {
    const v = derive(DYNAMIC);
    expect(v['flink.layout']).toBe(
      'task heap 384 MB, managed 512 MB, network 128 MB, JVM overhead 192 MB, metaspace 256 MB (defaults of Flink 1.17 and later)',
    );
    // 1728m: overhead 2 x 192m = 384m (under a quarter of 1728m); the rest shrinks by Flink's fractions.
    expect(v['flink.overhead.proposal']).toMatch(
      /^set taskmanager.memory.jvm-overhead.min and .max to 384m \(now 192 MB\); within taskmanager.memory.process.size 1728m/,
    );
    expect(v['flink.heap.proposal']).toMatch(/^raise taskmanager.memory.process.size from 1728m to 3g/);
    expect(v['flink.metaspace.proposal']).toMatch(
      /from 256m to 512m and taskmanager.memory.process.size by the same 256m, to 1984m/,
    );
  });

  it('uses the configured process size and the defaults of the logged Flink version', () => {
    const v = derive(
      '2020-02-28 00:03:44,843 INFO  org.apache.flink.runtime.taskexecutor.TaskManagerRunner       -  Starting TaskManager (Version: 1.10.0, Rev:aa4eb8f, Date:07.02.2020 @ 19:18:19 CET)',
      'taskmanager.memory.process.size: 4096m',
    );
    // Flink 1.10.0: 96m metaspace; 10% of 4096m = 409.6m overhead.
    expect(v['flink.layout']).toContain('metaspace 96 MB (defaults of Flink 1.10.0)');
    expect(v['flink.overhead.proposal']).toContain(
      'to 832m (now 410 MB); within taskmanager.memory.process.size 4g the TaskManager then has task heap 1.3 GB (was 1.5 GB)',
    );
  });

  it('derives nothing for the memory model before Flink 1.10, or without any size', () => {
    expect(derive('taskmanager.heap.size: 4096m', 'taskmanager.memory.process.size: 4096m')).toEqual({});
    expect(derive('taskmanager.numberOfTaskSlots: 4')).toEqual({});
  });
});
