import { describe, expect, it } from 'vitest';
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
