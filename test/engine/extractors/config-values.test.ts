import { describe, expect, it } from 'vitest';
import { configValues } from '../../../src/engine/extractors/config-values.ts';
import { findingsOf } from './run-extractor.ts';

/** The config key/value pairs found on a line, as `key=value` strings for compact tables. */
function settings(line: string): string[] {
  return findingsOf(configValues, line).map((f) => `${f.values?.key}=${f.values?.value}`);
}

describe('config-values', () => {
  it.each([
    ['--conf spark.executor.memory=8g', ['spark.executor.memory=8g']],
    [
      '--conf spark.driver.maxResultSize=2g --conf spark.executor.cores=4',
      ['spark.driver.maxResultSize=2g', 'spark.executor.cores=4'],
    ],
    ['taskmanager.memory.process.size: 4096m', ['taskmanager.memory.process.size=4096m']],
    ['spark.executor.memoryOverhead 2048', ['spark.executor.memoryOverhead=2048']],
    ['"spark.executor.memory": "8g",', ['spark.executor.memory=8g']],
    ["'--conf', 'spark.sql.shuffle.partitions=400',", ['spark.sql.shuffle.partitions=400']],
    ['yarn.nodemanager.resource.memory-mb=16384', ['yarn.nodemanager.resource.memory-mb=16384']],
    ['state.backend.type: rocksdb', ['state.backend.type=rocksdb']],
    [
      '/usr/java/default/bin/java -Xms4425m -Xmx4425m -XX:MaxDirectMemorySize=1719m -XX:+UseG1GC',
      ['jvm.Xms=4425m', 'jvm.Xmx=4425m', 'jvm.MaxDirectMemorySize=1719m'],
    ],
    ['-Xmx4g', ['jvm.Xmx=4g']],
    ['JVM_OPTS="-XX:MaxMetaspaceSize=256m"', ['jvm.MaxMetaspaceSize=256m']],
    ['export MALLOC_ARENA_MAX=4', ['env.MALLOC_ARENA_MAX=4']],
    // A key starts its dotted name: inside a package or a longer key it is not one of its own.
    ['-Dtaskmanager.memory.process.size=4g', ['taskmanager.memory.process.size=4g']],
    [
      'containerized.taskmanager.env.MALLOC_ARENA_MAX: 4',
      ['containerized.taskmanager.env.MALLOC_ARENA_MAX=4'],
    ],
    [
      '--conf spark.hadoop.yarn.timeline-service.enabled=false',
      ['spark.hadoop.yarn.timeline-service.enabled=false'],
    ],
    // `aws glue get-job-run` (aws/aws-cli awscli/examples/glue/get-job-run.rst): the run's worker fields.
    ['            "WorkerType": "G.1X",', ['glue.workerType=G.1X']],
    ['            "NumberOfWorkers": 10,', ['glue.numberOfWorkers=10']],
    ['            "GlueVersion": "2.0"', ['glue.version=2.0']],
    ['INFO org.apache.hadoop.yarn.server.nodemanager.NodeManager 8042', []],
    ['at org.apache.spark.executor.Executor 12', []],
  ])('%s -> %j', (line, expected) => {
    expect(settings(line)).toEqual(expected);
  });

  it('reports each setting as a config fact with key and value', () => {
    expect(findingsOf(configValues, '-Xmx4g')).toEqual([
      { kind: 'config', values: { key: 'jvm.Xmx', value: '4g' } },
    ]);
  });

  it.each([
    // Sentences that only name a setting carry no value.
    'Consider boosting spark.yarn.executor.memoryOverhead.',
    'Consider boosting spark.yarn.executor.memoryOverhead or disabling yarn.nodemanager.vmem-check-enabled because of YARN-4714.',
    'Serialized task 0:0 was 135793721 bytes, which exceeds max allowed: spark.rpc.message.maxSize (134217728 bytes).',
    '-XX:OnOutOfMemoryError="kill -9 %p" -XX:+HeapDumpOnOutOfMemoryError',
    'foo-Xmx4g',
  ])('finds nothing in %s', (line) => {
    expect(settings(line)).toEqual([]);
  });

  it('reads state.backend: rocksdb', () => {
    expect(settings('state.backend: rocksdb')).toEqual(['state.backend=rocksdb']);
  });
});
