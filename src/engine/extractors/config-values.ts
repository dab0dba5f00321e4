import type { Finding } from '../facts.ts';
import type { Extractor, MessageFamily } from './types.ts';

// "spark.executor.memory=8g", "--conf spark.driver.maxResultSize=2g", "taskmanager.memory.process.size: 4096m",
// "spark.executor.memoryOverhead 2048". Values are short tokens; the key families are the ones memdoctor reads.
// A key starts a dotted name: "yarn." right after a dot is a package (org.apache.hadoop.yarn.server).
// It may come as a JVM system property, "-Dtaskmanager.memory.process.size=4g" (Flink's CLI, Spark's
// extraJavaOptions).
const SETTING =
  /(?<![.\w])(?:-D)?(state\.backend(?:\.[\w.-]{2,80}?)?|(?:spark|taskmanager|jobmanager|yarn|mapreduce|glue|containerized)\.[\w.-]{2,80}?)["']?\s?(?:[=:]|\s)\s?["']?([\w.-]{1,40})/gi;
const JVM_FLAG =
  /(?:^|\s|")-(Xmx|Xms|Xss)(\d+[kmgtKMGT]?)\b|-XX:(MaxDirectMemorySize|MaxMetaspaceSize|MaxRAMPercentage)=(\d+(?:\.\d+)?[kmgtKMGT]?)\b/g;
const ENV = /\b(MALLOC_ARENA_MAX|LD_PRELOAD)=(\S{1,120})/g;
// The worker fields of a Glue job or run as the Glue API answers them (GetJobRun, GetJob) and
// `aws glue get-job-run` prints them: "WorkerType": "G.1X", "NumberOfWorkers": 10, "GlueVersion": "4.0".
const GLUE_FIELD = /"(WorkerType|NumberOfWorkers|GlueVersion)":\s?"?([\w.]{1,20})"?/g;
const GLUE_KEYS: Readonly<Record<string, string>> = {
  WorkerType: 'glue.workerType',
  NumberOfWorkers: 'glue.numberOfWorkers',
  GlueVersion: 'glue.version',
};

function settingFindings(line: string): Finding[] {
  const findings: Finding[] = [];
  for (const match of line.matchAll(SETTING)) {
    const key = match[1] ?? '';
    const value = match[2] ?? '';
    // A sentence that merely names a setting ("boosting spark.yarn.executor.memoryOverhead.") has no value.
    if (!/\d|true|false|rocksdb|hashmap|filesystem/i.test(value)) continue;
    findings.push({ kind: 'config', values: { key, value } });
  }
  return findings;
}

const FAMILIES: readonly MessageFamily[] = [
  {
    name: 'Spark, Flink, YARN, MapReduce and Glue settings with a value',
    kind: 'config',
    source:
      'apache/spark docs/configuration.md (key=value, --conf), apache/flink docs/deployment/config.md (key: value), apache/hadoop yarn-default.xml / mapred-default.xml, Glue job parameters',
    versions: 'all',
    examples: [
      '--conf spark.executor.memory=8g',
      'taskmanager.memory.process.size: 4096m',
      'spark.executor.memoryOverhead 2048',
      'state.backend: rocksdb',
      'containerized.taskmanager.env.MALLOC_ARENA_MAX: 4',
      './bin/flink run-application -t yarn-application -Dtaskmanager.memory.process.size=4096m',
    ],
  },
  {
    name: 'JVM memory flags',
    kind: 'config',
    source:
      'openjdk/jdk src/hotspot/share/runtime/globals.hpp, gc/shared/gc_globals.hpp (-Xmx, -Xms, -Xss, -XX:MaxDirectMemorySize, MaxMetaspaceSize, MaxRAMPercentage)',
    versions: 'JDK 8+ (MaxRAMPercentage 8u191+)',
    examples: ['java -Xmx4g -XX:MaxDirectMemorySize=1g -jar app.jar', '-XX:MaxRAMPercentage=75.0'],
  },
  {
    name: 'Glue job run worker fields',
    kind: 'config',
    source:
      'AWS Glue API reference, JobRun structure (WorkerType, NumberOfWorkers, GlueVersion); aws/aws-cli awscli/examples/glue/get-job-run.rst (commit 3096efe)',
    versions: 'Glue 1.0+ (WorkerType and NumberOfWorkers; MaxCapacity before them)',
    examples: ['"WorkerType": "G.1X",', '"NumberOfWorkers": 10,', '"GlueVersion": "2.0"'],
  },
  {
    name: 'allocator environment variables',
    kind: 'config',
    source: 'glibc manual (MALLOC_ARENA_MAX); ld.so(8) (LD_PRELOAD, used to load jemalloc)',
    versions: 'glibc 2.x',
    examples: ['MALLOC_ARENA_MAX=2', 'LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libjemalloc.so.2'],
  },
];

/** Settings that appear in the input: Spark/Flink/YARN config keys, JVM memory flags, allocator env vars. */
export const configValues: Extractor = {
  id: 'config-values',
  description:
    "Memory settings seen in the input: spark.*, taskmanager.*, yarn.* keys, -Xmx/-Xms, -XX:Max*Size, MALLOC_ARENA_MAX, a Glue run's WorkerType",
  triggers: [
    'spark.',
    'taskmanager.',
    'jobmanager.',
    'state.backend',
    'yarn.',
    'mapreduce.',
    'glue.',
    '-xm',
    '-xx:max',
    'malloc_arena_max',
    'ld_preload',
    'containerized.',
    'workertype',
    'numberofworkers',
    'glueversion',
  ],
  notAfter: Object.fromEntries(
    ['spark.', 'taskmanager.', 'jobmanager.', 'state.backend', 'yarn.', 'mapreduce.', 'glue.'].map((t) => [
      t,
      '.',
    ]),
  ),
  extract(line) {
    const findings = settingFindings(line);
    for (const match of line.matchAll(JVM_FLAG)) {
      const key = match[1] ?? match[3] ?? '';
      findings.push({ kind: 'config', values: { key: `jvm.${key}`, value: match[2] ?? match[4] ?? '' } });
    }
    for (const match of line.matchAll(ENV)) {
      findings.push({ kind: 'config', values: { key: `env.${match[1]}`, value: match[2] ?? '' } });
    }
    for (const match of line.matchAll(GLUE_FIELD)) {
      const key = GLUE_KEYS[match[1] ?? ''];
      if (key) findings.push({ kind: 'config', values: { key, value: match[2] ?? '' } });
    }
    return findings;
  },
  families: FAMILIES,
  patterns: [SETTING, JVM_FLAG, ENV, GLUE_FIELD],
};
