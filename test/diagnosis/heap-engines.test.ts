import { beforeAll, describe, expect, it } from 'vitest';
import { diagnoseHeapReport } from '../../src/diagnosis/heap-dump.ts';
import { analyzeHeapDump, type HeapReport } from '../../src/engine/heap/index.ts';
import { fileChunks } from '../../src/file-chunks.ts';
import { loadPlaybooks } from '../../src/playbooks/load.ts';

/**
 * NOT engine dumps. No Spark, Flink or Glue JVM can run here (their jars come only from Maven Central,
 * which this machine cannot reach), so these tests take the report of a real dump (static-cache-oom,
 * test/fixtures/heap-dumps/SOURCES.md: its figures, OOM thread and suspect as read) and put engine
 * class names, from the sources holders.ts cites, where the dump's own classes were. They test the
 * mapping from classes to playbook and cause, not the reading of an engine's dump.
 */
const playbooks = loadPlaybooks();
let real: HeapReport;

beforeAll(async () => {
  real = await analyzeHeapDump(() => fileChunks('test/fixtures/heap-dumps/static-cache-oom.hprof.gz'));
}, 60_000);

const SYSTEM = {
  spark: { fact: 'engine.spark', prefix: 'org.apache.spark.', classes: 4000 },
  flink: { fact: 'engine.flink', prefix: 'org.apache.flink.', classes: 3000 },
  glue: { fact: 'engine.glue', prefix: 'com.amazonaws.services.glue.', classes: 300 },
};

interface Renaming {
  systems: (keyof typeof SYSTEM)[];
  path: string[];
  dominatorPath: string[];
  oom?: boolean;
}

function renamed(r: Renaming): HeapReport {
  const [top] = real.suspects;
  if (!top?.accumulation) throw new Error('the static-cache dump has lost its suspect');
  const suspect = {
    ...top,
    className: r.dominatorPath[0] as string,
    path: r.path.map((className, i) => ({ className, via: top.path[i]?.via ?? 'value' })),
    accumulation: {
      ...top.accumulation,
      dominatorPath: r.dominatorPath,
      className: r.dominatorPath.at(-1) as string,
    },
    summary: `${r.dominatorPath[0]} retains ${top.percent}% of the heap`,
  };
  const { oomThread, ...rest } = real;
  return {
    ...rest,
    ...(r.oom !== false && oomThread && { oomThread }),
    suspects: [suspect],
    systems: r.systems.map((s) => SYSTEM[s]),
  };
}

function top(report: HeapReport) {
  return diagnoseHeapReport('x.hprof', report, playbooks).report.diagnoses[0];
}

describe('a dump names its system, and its holder names the cause', () => {
  it('the real dump itself: a plain JVM, jvm-oom', () => {
    expect(top(real)).toMatchObject({ playbook: 'jvm-oom', cause: 'heap-leak' });
  });

  it('Spark driver, AppStatusStore holding the heap: spark-heap-oom, ui-status', () => {
    const d = top(
      renamed({
        systems: ['spark'],
        path: ['class org.apache.spark.SparkContext$', 'org.apache.spark.SparkContext'],
        dominatorPath: [
          'org.apache.spark.status.AppStatusStore',
          'org.apache.spark.status.ElementTrackingStore',
          'org.apache.spark.util.kvstore.InMemoryStore',
        ],
      }),
    );
    expect(d).toMatchObject({ playbook: 'spark-heap-oom', cause: 'ui-status' });
    expect(d?.evidence.map((e) => e.text).join('\n')).toContain(
      "known holder: the driver's UI and status store",
    );
  });

  it('Spark executor, a broadcast HashedRelation in the block store: spark-heap-oom, broadcast', () => {
    const d = top(
      renamed({
        systems: ['spark'],
        path: ['org.apache.spark.storage.BlockManager'],
        dominatorPath: [
          'org.apache.spark.storage.memory.MemoryStore',
          'org.apache.spark.storage.memory.DeserializedMemoryEntry',
          'org.apache.spark.sql.execution.joins.LongHashedRelation',
          'org.apache.spark.sql.execution.joins.LongToUnsafeRowMap',
        ],
      }),
    );
    expect(d).toMatchObject({ playbook: 'spark-heap-oom', cause: 'broadcast' });
  });

  it('Spark, a leak with no known holder and no OutOfMemoryError: still Spark, the generic leak', () => {
    const d = top(
      renamed({
        systems: ['spark'],
        path: ['class com.example.Job'],
        dominatorPath: ['java.util.HashMap'],
        oom: false,
      }),
    );
    expect(d).toMatchObject({ playbook: 'spark-heap-oom', cause: 'heap-leak' });
  });

  it('Flink TaskManager, heap keyed state: flink-jvm-oom, heap-state', () => {
    const d = top(
      renamed({
        systems: ['flink'],
        path: ['org.apache.flink.streaming.runtime.tasks.StreamTask'],
        dominatorPath: [
          'org.apache.flink.runtime.state.heap.HeapKeyedStateBackend',
          'org.apache.flink.runtime.state.heap.CopyOnWriteStateTable',
          'org.apache.flink.runtime.state.heap.CopyOnWriteStateMap',
        ],
      }),
    );
    expect(d).toMatchObject({ playbook: 'flink-jvm-oom', cause: 'heap-state' });
  });

  it('Flink TaskManager, the network buffer pool: flink-jvm-oom, network-buffers', () => {
    const d = top(
      renamed({
        systems: ['flink'],
        path: [],
        dominatorPath: [
          'org.apache.flink.runtime.io.network.buffer.NetworkBufferPool',
          'java.util.ArrayDeque',
        ],
      }),
    );
    expect(d).toMatchObject({ playbook: 'flink-jvm-oom', cause: 'network-buffers' });
  });

  it('Glue driver (Glue and Spark classes), DynamicRecords: glue-heap-oom, not spark-heap-oom', () => {
    const d = top(
      renamed({
        systems: ['glue', 'spark'],
        path: ['class com.example.GlueApp$'],
        dominatorPath: [
          'scala.collection.mutable.ArrayBuffer',
          'java.lang.Object[]',
          'com.amazonaws.services.glue.DynamicRecord',
        ],
      }),
    );
    expect(d).toMatchObject({ playbook: 'glue-heap-oom', cause: 'dynamic-records' });
  });

  it('Glue driver, collect held by a frame of SparkPlan.executeCollect: glue-heap-oom, driver-collect', () => {
    const report = renamed({
      systems: ['glue', 'spark'],
      path: [],
      dominatorPath: ['scala.collection.mutable.ArrayBuffer'],
    });
    const [s] = report.suspects;
    if (!s) throw new Error('no suspect');
    s.root = {
      kind: 'Java local',
      text: 'local variable in org.apache.spark.sql.execution.SparkPlan.executeCollect',
      frame: {
        className: 'org.apache.spark.sql.execution.SparkPlan',
        method: 'executeCollect',
        sourceFile: 'SparkPlan.scala',
        line: 1,
      },
    };
    expect(top(report)).toMatchObject({ playbook: 'glue-heap-oom', cause: 'driver-collect' });
  });
});
