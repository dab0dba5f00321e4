import type { MessageFamily } from './types.ts';

const SPARK = 'apache/spark';

/** Where each cause marker comes from, with lines that show it. */
export const STACK_CAUSE_FAMILIES: readonly MessageFamily[] = [
  {
    name: 'results pulled into the driver (collect, take, toPandas)',
    kind: 'cause.driver-collect',
    source: `${SPARK} core/.../rdd/RDD.scala (collect, take, toLocalIterator), sql/core/.../Dataset.scala (collectAsList, collectToPython, executeCollect), python/pyspark/sql/pandas/conversion.py (toPandas)`,
    versions: 'Spark 1.x-4.x',
    examples: [
      '\tat org.apache.spark.rdd.RDD.collect(RDD.scala:1003)',
      '  File "/opt/spark/python/pyspark/sql/pandas/conversion.py", line 205, in toPandas',
      '\tat org.apache.spark.sql.Dataset.collectToPython(Dataset.scala:3257)',
      'result = df.collect()',
    ],
  },
  {
    name: 'broadcast joins and broadcast variables',
    kind: 'cause.broadcast',
    source: `${SPARK} sql/core/.../exchange/BroadcastExchangeExec.scala, core/.../broadcast/TorrentBroadcast.scala; spark.sql.autoBroadcastJoinThreshold`,
    versions: 'Spark 1.x-4.x',
    examples: [
      '\tat org.apache.spark.sql.execution.exchange.BroadcastExchangeExec.$anonfun$relationFuture$1(BroadcastExchangeExec.scala:162)',
      'java.lang.OutOfMemoryError: Not enough memory to build and broadcast the table',
      '--conf spark.sql.autoBroadcastJoinThreshold=-1',
    ],
  },
  {
    name: 'listing very many small files',
    kind: 'cause.small-files',
    source: `${SPARK} sql/core/.../datasources/InMemoryFileIndex.scala (listLeafFiles, bulkListLeafFiles), core/.../util/HadoopFSUtils.scala (3.1+); Glue groupFiles/groupSize (docs.aws.amazon.com/glue grouping-input-files)`,
    versions: 'Spark 2.x-4.x; Glue 1.0+',
    examples: [
      '\tat org.apache.spark.sql.execution.datasources.InMemoryFileIndex$.bulkListLeafFiles(InMemoryFileIndex.scala:238)',
      "connection_options={'groupFiles': 'inPartition', 'groupSize': '1048576'}",
    ],
  },
  {
    name: 'skewed data',
    kind: 'cause.skew',
    source: `${SPARK} docs/sql-performance-tuning.md (skew join), AQE OptimizeSkewedJoin`,
    versions: 'Spark 3.0+ (AQE skew join)',
    examples: ['INFO OptimizeSkewedJoin: Optimizing skewed join.'],
  },
  {
    name: 'shuffle fetch',
    kind: 'cause.shuffle-fetch',
    source: `${SPARK} core/.../storage/ShuffleBlockFetcherIterator.scala, network-shuffle OneForOneBlockFetcher`,
    versions: 'Spark 1.x-4.x',
    examples: [
      '\tat org.apache.spark.storage.ShuffleBlockFetcherIterator.next(ShuffleBlockFetcherIterator.scala:532)',
    ],
  },
  {
    name: 'sort and spill',
    kind: 'cause.sort-spill',
    source: `${SPARK} core/src/main/java/org/apache/spark/util/collection/unsafe/sort/UnsafeExternalSorter.java, util/collection/ExternalAppendOnlyMap.scala`,
    versions: 'Spark 1.x-4.x',
    examples: [
      '\tat org.apache.spark.util.collection.unsafe.sort.UnsafeExternalSorter.insertRecord(UnsafeExternalSorter.java:396)',
    ],
  },
  {
    name: 'RocksDB state backend',
    kind: 'cause.rocksdb',
    source:
      'apache/flink flink-state-backends/flink-statebackend-rocksdb (EmbeddedRocksDBStateBackend, RocksDBStateBackend); facebook/rocksdb java (org.rocksdb)',
    versions: 'Flink 1.x-2.x',
    examples: ['state.backend: rocksdb', '\tat org.rocksdb.RocksDB.put(Native Method)'],
  },
  {
    name: 'glibc malloc arenas',
    kind: 'cause.glibc-arenas',
    source:
      'glibc manual (Memory Allocation Tunables, M_ARENA_MAX / MALLOC_ARENA_MAX); apache/flink docs (deployment/memory/mem_trouble)',
    versions: 'glibc 2.x',
    examples: ['export MALLOC_ARENA_MAX=2'],
  },
  {
    name: "Flink's class loader leak check",
    kind: 'cause.classloader-leak',
    source:
      'apache/flink flink-runtime/.../execution/librarycache/FlinkUserCodeClassLoaders.java (SafetyNetWrapperClassLoader); TaskManagerExceptionUtils ("class loading leak")',
    versions: 'Flink 1.11+',
    examples: [
      "java.lang.IllegalStateException: Trying to access closed classloader. Please check if you store classloaders directly or indirectly in static fields. If the stacktrace suggests that the leak occurs in a third party library and cannot be fixed immediately, you can disable this check with the configuration 'classloader.check-leaked-classloader'.",
    ],
  },
  {
    name: "Flink's network buffers",
    kind: 'cause.network-buffers',
    source:
      'apache/flink flink-runtime/.../io/network/buffer/NetworkBufferPool.java; taskmanager.memory.network.* options',
    versions: 'Flink 1.x',
    examples: ['taskmanager.memory.network.fraction: 0.2'],
  },
  {
    name: 'too many threads',
    kind: 'cause.threads',
    source: 'openjdk/jdk src/hotspot/share/prims/jvm.cpp (JVM_StartThread)',
    versions: 'JDK 8+',
    examples: ['java.lang.OutOfMemoryError: unable to create new native thread'],
  },
  {
    name: "Glue's DynamicFrame",
    kind: 'cause.dynamic-frame',
    source: 'awsdocs/aws-glue-developer-guide (aws-glue-api-crawler-pyspark-extensions-dynamic-frame.md)',
    versions: 'Glue 0.9+',
    examples: ['dyf = glueContext.create_dynamic_frame.from_catalog(database="db", table_name="t")'],
  },
  {
    name: "Beam's DirectRunner",
    kind: 'cause.direct-runner',
    source:
      'apache/beam runners/direct-java (org.apache.beam.runners.direct.DirectRunner), sdks/python/apache_beam/runners/direct',
    versions: 'Beam 2.x',
    examples: [
      '\tat org.apache.beam.runners.direct.DirectRunner$DirectPipelineResult.waitUntilFinish(DirectRunner.java:373)',
    ],
  },
  {
    name: 'the SDK harness went away',
    kind: 'cause.sdk-harness-lost',
    source:
      'apache/beam runners/java-fn-execution (GrpcDataService / BeamFnDataGrpcMultiplexer "unable to receive additional data from SDK")',
    versions: 'Beam 2.x portable runners, Dataflow Runner v2',
    examples: ['Data channel closed, unable to receive additional data from SDK sdk-0-0'],
  },
];
