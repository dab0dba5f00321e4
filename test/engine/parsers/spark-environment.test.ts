import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseText } from '../../../src/engine/parsers/parse-text.ts';
import { settingBytes, sparkBytes } from '../../../src/engine/parsers/spark-environment.ts';

const MiB = 1024 ** 2;
const GiB = 1024 ** 3;

// JavaUtils.byteStringAs: a whole number, an optional binary suffix, else the setting's own unit.
describe('sparkBytes reads a size as Spark does', () => {
  it.each([
    ['2G', 'm', 2 * GiB],
    ['4096', 'm', 4096 * MiB], // spark.executor.memory without a unit is MiB
    ['512m', 'm', 512 * MiB],
    [' 384MB ', 'm', 384 * MiB],
    ['1500k', 'm', 1 * MiB], // read in MiB: what is below a MiB is dropped
    ['1g', 'b', GiB],
    ['100', 'b', 100], // spark.memory.offHeap.size without a unit is bytes
  ] as const)('%s (default unit %s) = %d bytes', (text, unit, bytes) => {
    expect(sparkBytes(text, unit)).toBe(bytes);
  });

  it.each(['1.5g', '2 gib', 'lots', ''])('refuses %j, as Spark would', (text) => {
    expect(sparkBytes(text, 'm')).toBeUndefined();
  });
});

describe('settingBytes reads a size setting in its own unit', () => {
  it.each([
    ['spark.executor.memory', '4096', 4096 * MiB],
    ['spark.yarn.executor.memoryOverhead', '1024', GiB],
    ['spark.memory.offHeap.size', '1073741824', GiB],
    ['spark.executor.cores', '4', undefined],
  ] as const)('%s = %s', (key, text, bytes) => {
    expect(settingBytes(key, text)).toBe(bytes);
  });
});

// /environment answers of two Spark generations (fixtures/SOURCES.md): 3.1+ adds resourceProfiles, the
// default one (id 0) holding the executor settings in force, defaults included (issue 35, finding 14).
describe('spark-environment reads the resource profiles of Spark 3.1+', () => {
  const read = (file: string) =>
    readFileSync(join(import.meta.dirname, 'fixtures', 'spark-environment', file), 'utf8');

  it('takes what sparkProperties leave out from the default profile, and names the other profiles', () => {
    const out = parseText('spark-environment', read('spark-multiple-resource-profiles.json'));
    expect(out.values).toMatchObject({
      properties: 0,
      resourceProfiles: 4,
      executorCores: 1,
      executorMemoryBytes: 1024 * MiB,
      fromDefaultProfile: 'executorCores, executorMemoryBytes',
      maxProfileExecutorCores: 4,
      verdict: '1 core(s) per executor',
    });
    expect(out.summary).toBe(
      'Spark settings (0 properties): spark.executor.cores 1, spark.executor.memory 1 GB, spark.executor.memoryOverhead not set, spark.executor.pyspark.memory not set, off-heap off (what is not set read from the default resource profile); 4 resource profiles (stage-level scheduling), executors of up to 4 cores.',
    );
  });

  it('leaves an answer of Spark before 3.1 (no resourceProfiles) as its settings say', () => {
    const out = parseText('spark-environment', read('converted-environment-yarn-24630151.json'));
    expect(out.values).not.toHaveProperty('resourceProfiles');
    expect(out.values).toMatchObject({ executorCores: 1, executorMemoryBytes: 2 * GiB });
  });

  it('lets a setting the person typed win over the profile', () => {
    const env = JSON.parse(read('spark-multiple-resource-profiles.json'));
    env.sparkProperties = [['spark.executor.memory', '4g']];
    const out = parseText('spark-environment', JSON.stringify(env));
    expect(out.values).toMatchObject({ executorMemoryBytes: 4 * GiB, fromDefaultProfile: 'executorCores' });
  });
});
