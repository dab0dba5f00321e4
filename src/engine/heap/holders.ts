import type { HeapSuspect } from './report.ts';

/**
 * What a dump's classes say, as data: the systems whose classes are loaded, and well-known holders
 * of memory whose class on a suspect's path (or whose frame holding it) names the cause. Each entry
 * names the source that defines the class or method in its project; the playbooks map each holder id
 * to a cause (`heap-dump.holder` with `holder: <id>`).
 */
export interface KnownSystem {
  /** The engine fact the playbooks already use (`engine.spark`...). */
  fact: string;
  prefix: string;
  source: string;
}

export const SYSTEMS: readonly KnownSystem[] = [
  {
    fact: 'engine.glue',
    prefix: 'com.amazonaws.services.glue.',
    source:
      'AWS Glue Scala API docs (glue-etl-scala-apis-glue-dynamicframe-class): package com.amazonaws.services.glue',
  },
  {
    fact: 'engine.spark',
    prefix: 'org.apache.spark.',
    source: 'apache/spark core/src/main/scala/org/apache/spark',
  },
  {
    fact: 'engine.flink',
    prefix: 'org.apache.flink.',
    source: 'apache/flink flink-runtime/src/main/java/org/apache/flink',
  },
  {
    fact: 'engine.beam-java',
    prefix: 'org.apache.beam.',
    source: 'apache/beam sdks/java/core/src/main/java/org/apache/beam',
  },
];

export interface KnownHolder {
  /** The value of the heap-dump.holder fact. */
  id: string;
  /** Class names as the dump spells them; an entry ending in `.` or `$` is a prefix. */
  classes: readonly string[];
  /** Methods (`package.Class.method`) whose frame holds the suspect in a local variable. */
  frames?: readonly string[];
  what: string;
  /** Where each class or method is defined: repository and file, or the vendor's doc page. */
  source: string;
}

export const HOLDERS: readonly KnownHolder[] = [
  {
    id: 'spark-broadcast',
    classes: [
      'org.apache.spark.sql.execution.joins.UnsafeHashedRelation',
      'org.apache.spark.sql.execution.joins.LongHashedRelation',
      'org.apache.spark.sql.execution.joins.LongToUnsafeRowMap',
      'org.apache.spark.broadcast.TorrentBroadcast',
    ],
    what: "a broadcast table (a join's HashedRelation, or a broadcast variable)",
    source:
      'apache/spark sql/core/src/main/scala/org/apache/spark/sql/execution/joins/HashedRelation.scala, core/src/main/scala/org/apache/spark/broadcast/TorrentBroadcast.scala',
  },
  {
    id: 'spark-ui-status',
    classes: [
      'org.apache.spark.status.AppStatusStore',
      'org.apache.spark.status.ElementTrackingStore',
      'org.apache.spark.status.AppStatusListener',
      'org.apache.spark.status.LiveTask',
      'org.apache.spark.status.LiveStage',
      'org.apache.spark.status.TaskDataWrapper',
      'org.apache.spark.util.kvstore.InMemoryStore',
    ],
    what: "the driver's UI and status store (AppStatusStore), which keeps up to spark.ui.retainedTasks tasks per stage",
    source:
      'apache/spark core/src/main/scala/org/apache/spark/status/AppStatusStore.scala, ElementTrackingStore.scala, AppStatusListener.scala, LiveEntity.scala, storeTypes.scala; common/kvstore/src/main/java/org/apache/spark/util/kvstore/InMemoryStore.java; spark.ui.retainedTasks in core/src/main/scala/org/apache/spark/internal/config/Status.scala',
  },
  {
    id: 'spark-collect',
    classes: ['org.apache.spark.scheduler.DirectTaskResult'],
    frames: [
      'org.apache.spark.SparkContext.runJob',
      'org.apache.spark.rdd.RDD.collect',
      'org.apache.spark.sql.execution.SparkPlan.executeCollect',
    ],
    what: 'results of an action collected on the driver (collect, toPandas, take)',
    source:
      'apache/spark core/src/main/scala/org/apache/spark/SparkContext.scala (runJob: results array), core/src/main/scala/org/apache/spark/rdd/RDD.scala (collect), sql/core/src/main/scala/org/apache/spark/sql/execution/SparkPlan.scala (executeCollect), core/src/main/scala/org/apache/spark/scheduler/TaskResult.scala',
  },
  {
    id: 'spark-file-index',
    classes: ['org.apache.spark.sql.execution.datasources.InMemoryFileIndex'],
    what: "the driver's listing of every input file (InMemoryFileIndex)",
    source:
      'apache/spark sql/core/src/main/scala/org/apache/spark/sql/execution/datasources/InMemoryFileIndex.scala',
  },
  {
    id: 'flink-heap-state',
    classes: [
      'org.apache.flink.runtime.state.heap.CopyOnWriteStateMap',
      'org.apache.flink.runtime.state.heap.CopyOnWriteStateTable',
      'org.apache.flink.runtime.state.heap.NestedStateMap',
      'org.apache.flink.runtime.state.heap.HeapKeyedStateBackend',
    ],
    what: 'keyed state kept on the heap by the HashMap state backend (CopyOnWriteStateMap)',
    source:
      'apache/flink flink-runtime/src/main/java/org/apache/flink/runtime/state/heap/CopyOnWriteStateMap.java, CopyOnWriteStateTable.java, NestedStateMap.java, HeapKeyedStateBackend.java',
  },
  {
    // MemorySegment alone is left out: Flink's managed memory uses it too, so it names no one pool.
    id: 'flink-network-buffers',
    classes: [
      'org.apache.flink.runtime.io.network.buffer.NetworkBufferPool',
      'org.apache.flink.runtime.io.network.buffer.LocalBufferPool',
      'org.apache.flink.runtime.io.network.buffer.NetworkBuffer',
    ],
    what: "Flink's network buffer pool (NetworkBufferPool)",
    source:
      'apache/flink flink-runtime/src/main/java/org/apache/flink/runtime/io/network/buffer/NetworkBufferPool.java, LocalBufferPool.java, NetworkBuffer.java',
  },
  {
    id: 'glue-dynamic-records',
    classes: ['com.amazonaws.services.glue.DynamicRecord', 'com.amazonaws.services.glue.DynamicFrame'],
    what: "a DynamicFrame's records (DynamicRecord) held in one JVM",
    source:
      'AWS Glue Scala API docs: glue-etl-scala-apis-glue-dynamicframe-class and glue-etl-scala-apis-glue-dynamicrecord-class (package com.amazonaws.services.glue)',
  },
  {
    id: 'jdk-threadlocal',
    classes: ['java.lang.ThreadLocal$ThreadLocalMap'],
    what: "a thread's ThreadLocal values (Thread.threadLocals, alive as long as the thread)",
    source:
      'openjdk/jdk src/java.base/share/classes/java/lang/ThreadLocal.java, its static class ThreadLocalMap',
  },
];

/**
 * A class defined by this many class loaders or more is a class-loader leak: code loaded again
 * (a redeploy, a plugin, a job resubmitted) while the old loaders stay reachable. A few duplicates
 * are ordinary (a class in a parent and a child loader); a leak repeats once per reload.
 */
export const LEAKED_LOADERS = 10;

/** The systems whose classes the dump holds, with how many classes of each. */
export function systemsOf(classNames: Iterable<string>): { fact: string; prefix: string; classes: number }[] {
  const counts = new Map<KnownSystem, number>();
  for (const name of classNames) {
    const system = SYSTEMS.find((s) => name.startsWith(s.prefix));
    if (system) counts.set(system, (counts.get(system) ?? 0) + 1);
  }
  return SYSTEMS.filter((s) => counts.has(s)).map((s) => ({
    fact: s.fact,
    prefix: s.prefix,
    classes: counts.get(s) as number,
  }));
}

/** Class names defined by LEAKED_LOADERS or more class loaders, most first (MAT's Duplicate Classes, thresholded). */
export function duplicateClassesOf(classNames: Iterable<string>): { className: string; loaders: number }[] {
  const counts = new Map<string, number>();
  for (const name of classNames) counts.set(name, (counts.get(name) ?? 0) + 1);
  return [...counts]
    .filter(([, n]) => n >= LEAKED_LOADERS)
    .map(([className, loaders]) => ({ className, loaders }))
    .sort((a, b) => b.loaders - a.loaders || a.className.localeCompare(b.className))
    .slice(0, 10);
}

function classMatches(holder: KnownHolder, name: string): boolean {
  // A class object on a path reads `class <name>`: its statics hold what follows.
  const bare = name.startsWith('class ') ? name.slice(6) : name;
  return holder.classes.some((c) => (c.endsWith('.') || c.endsWith('$') ? bare.startsWith(c) : bare === c));
}

/**
 * The known holder of a suspect: the deepest known class from the GC root down to its accumulation
 * point (the most specific: a broadcast table inside the block manager's store), else the method whose
 * frame holds it in a local variable.
 */
export function holderOf(
  suspect: Pick<HeapSuspect, 'className' | 'path' | 'accumulation' | 'root'>,
): KnownHolder | undefined {
  const chain = [
    ...suspect.path.map((p) => p.className),
    ...(suspect.accumulation?.dominatorPath ?? [suspect.className]),
  ];
  for (let i = chain.length - 1; i >= 0; i--) {
    const holder = HOLDERS.find((h) => classMatches(h, chain[i] as string));
    if (holder) return holder;
  }
  const frame = suspect.root?.frame;
  if (!frame) return undefined;
  const method = `${frame.className}.${frame.method}`;
  return HOLDERS.find((h) => h.frames?.includes(method));
}
