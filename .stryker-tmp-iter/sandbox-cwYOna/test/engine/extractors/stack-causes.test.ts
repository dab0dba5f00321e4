// @ts-nocheck
import { describe, expect, it } from 'vitest';
import { stackCauses } from '../../../src/engine/extractors/stack-causes.ts';
import { kindsOf } from './run-extractor.ts';

describe('stack-causes', () => {
  it.each([
    ['at org.apache.spark.sql.Dataset.collectFromPlan(Dataset.scala:3696)', ['cause.driver-collect']],
    [
      '2018-08-03 00:53:20,678 INFO DAGScheduler - ResultStage 10 (collect at WriteGraphML.scala:53) failed in 74.894 s',
      ['cause.driver-collect'],
    ],
    ['    pdf = df.toPandas()', ['cause.driver-collect']],
    ['at org.apache.spark.sql.Dataset.toLocalIterator(Dataset.scala:3000)', ['cause.driver-collect']],
    [
      'at org.apache.spark.sql.execution.exchange.BroadcastExchangeExec.$anonfun$relationFuture$1(BroadcastExchangeExec.scala:120)',
      ['cause.broadcast'],
    ],
    ['spark.sql.autoBroadcastJoinThreshold=-1', ['cause.broadcast']],
    ['at org.apache.spark.util.HadoopFSUtils$.listLeafFiles(HadoopFSUtils.scala:225)', ['cause.small-files']],
    ['at org.apache.spark.sql.execution.datasources.InMemoryFileIndex.refresh0', ['cause.small-files']],
    ['WARN Data skew detected in stage 4: one task read 40x the median', ['cause.skew']],
    [
      'at org.apache.spark.storage.ShuffleBlockFetcherIterator.next(ShuffleBlockFetcherIterator.scala:85)',
      ['cause.shuffle-fetch'],
    ],
    ['at org.apache.spark.util.collection.unsafe.sort.UnsafeExternalSorter.spill', ['cause.sort-spill']],
    ['at org.rocksdb.RocksDB.put(Native Method)', ['cause.rocksdb']],
    ['export MALLOC_ARENA_MAX=2', ['cause.glibc-arenas']],
    ['at org.apache.flink.util.FlinkUserCodeClassLoader.loadClass', ['cause.classloader-leak']],
    ['java.lang.OutOfMemoryError: unable to create new native thread', ['cause.threads']],
    [
      'dyf = glueContext.create_dynamic_frame.from_catalog(database="db", table_name="t")',
      ['cause.dynamic-frame'],
    ],
    ['taskmanager.memory.network.fraction: 0.2', ['cause.network-buffers']],
    ["beam_options = PipelineOptions(runner='DirectRunner')", ['cause.direct-runner']],
    [
      'RuntimeError: Pipeline failed: unable to receive additional data from SDK harness (worker crashed?)',
      ['cause.sdk-harness-lost'],
    ],
  ])('%s -> %j', (line, kinds) => {
    expect(kindsOf(stackCauses, line)).toEqual(kinds);
  });

  it.each([
    'INFO Collected 5 metrics from the reporter',
    'INFO BlockManagerInfo: Added broadcast_0_piece0 in memory on 10.0.0.1:40000 (size: 5.2 KiB)',
    'INFO network.NetworkClient: connected to broker-1',
    'please take a look at the logs',
    'INFO Executor: Running task 0.0 in stage 1.0 (TID 1)',
  ])('finds nothing in %s', (line) => {
    expect(kindsOf(stackCauses, line)).toEqual([]);
  });
});
