/**
 * What a dump's classes say, as data: the systems whose classes are loaded, and well-known holders
 * of memory whose class on a suspect's dominator path names the cause. Each entry names the source
 * file that defines the class in its project.
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
    source: 'AWS Glue ETL library (aws-glue-libs), package com.amazonaws.services.glue',
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
  /** A class name, or a prefix ending in `.` or `$`. */
  className: string;
  what: string;
  source: string;
}

export const HOLDERS: readonly KnownHolder[] = [
  {
    id: 'spark-broadcast-relation',
    className: 'org.apache.spark.sql.execution.joins.',
    what: "a broadcast join's hash table (HashedRelation)",
    source: 'apache/spark sql/core/src/main/scala/org/apache/spark/sql/execution/joins/HashedRelation.scala',
  },
  {
    id: 'spark-ui-status',
    className: 'org.apache.spark.status.',
    what: "the driver's UI and status data (AppStatusStore), which grows with the number of tasks and stages kept",
    source: 'apache/spark core/src/main/scala/org/apache/spark/status/AppStatusStore.scala',
  },
  {
    id: 'flink-heap-state',
    className: 'org.apache.flink.runtime.state.heap.',
    what: 'state kept on the heap by the HashMap state backend (CopyOnWriteStateMap)',
    source:
      'apache/flink flink-runtime/src/main/java/org/apache/flink/runtime/state/heap/CopyOnWriteStateMap.java',
  },
  {
    id: 'flink-network-buffers',
    className: 'org.apache.flink.runtime.io.network.buffer.',
    what: "Flink's network buffers (NetworkBuffer)",
    source:
      'apache/flink flink-runtime/src/main/java/org/apache/flink/runtime/io/network/buffer/NetworkBuffer.java',
  },
];

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

/** The first known holder among the classes of a suspect's dominator path. */
export function holderOf(classNames: readonly string[]): KnownHolder | undefined {
  for (const name of classNames) {
    const holder = HOLDERS.find((h) => name.startsWith(h.className));
    if (holder) return holder;
  }
  return undefined;
}
