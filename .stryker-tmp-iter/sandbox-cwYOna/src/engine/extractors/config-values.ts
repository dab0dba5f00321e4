// @ts-nocheck
import type { Finding } from '../facts.ts';
import type { Extractor } from './types.ts';

// "spark.executor.memory=8g", "--conf spark.driver.maxResultSize=2g", "taskmanager.memory.process.size: 4096m",
// "spark.executor.memoryOverhead 2048". Values are short tokens; the key families are the ones memdoctor reads.
const SETTING =
  /\b(state\.backend(?:\.[\w.-]{2,80}?)?|(?:spark|taskmanager|jobmanager|yarn|mapreduce|glue)\.[\w.-]{2,80}?)["']?\s?(?:[=:]|\s)\s?["']?([\w.-]{1,40})/gi;
const JVM_FLAG =
  /(?:^|\s|")-(Xmx|Xms|Xss)(\d+[kmgtKMGT]?)\b|-XX:(MaxDirectMemorySize|MaxMetaspaceSize|MaxRAMPercentage)=(\d+(?:\.\d+)?[kmgtKMGT]?)\b/g;
const ENV = /\b(MALLOC_ARENA_MAX|LD_PRELOAD)=(\S{1,120})/g;

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

/** Settings that appear in the input: Spark/Flink/YARN config keys, JVM memory flags, allocator env vars. */
export const configValues: Extractor = {
  id: 'config-values',
  description:
    'Memory settings seen in the input: spark.*, taskmanager.*, yarn.* keys, -Xmx/-Xms, -XX:Max*Size, MALLOC_ARENA_MAX',
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
  ],
  extract(line) {
    const findings = settingFindings(line);
    for (const match of line.matchAll(JVM_FLAG)) {
      const key = match[1] ?? match[3] ?? '';
      findings.push({ kind: 'config', values: { key: `jvm.${key}`, value: match[2] ?? match[4] ?? '' } });
    }
    for (const match of line.matchAll(ENV)) {
      findings.push({ kind: 'config', values: { key: `env.${match[1]}`, value: match[2] ?? '' } });
    }
    return findings;
  },
};
