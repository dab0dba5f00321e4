import { flinkKeys } from './flink.ts';
import { k8sKeys } from './k8s.ts';
import { pidKeys } from './pid.ts';
import { sampleKeys } from './samples.ts';
import { sparkKeys } from './spark.ts';
import type { JoinKey, KeyMemo, KeyReader } from './types.ts';
import { yarnKeys } from './yarn.ts';

/** Every key family's reader, one per family (a literal map, as the extractors' registry). */
export const KEY_READERS: Readonly<Record<string, KeyReader>> = {
  yarn: yarnKeys,
  spark: sparkKeys,
  flink: flinkKeys,
  k8s: k8sKeys,
  pid: pidKeys,
  samples: sampleKeys,
};

/**
 * Every key one line names, each once, in reader order. `memo` is the input's: one for all its
 * lines, in order (a line alone, as a test gives it, reads with a fresh one).
 */
export function keysOfLine(line: string, lineNo: number, memo: KeyMemo = new Map()): JoinKey[] {
  const seen = new Set<string>();
  const keys: JoinKey[] = [];
  for (const read of Object.values(KEY_READERS))
    for (const key of read(line, lineNo, memo)) {
      const id = `${key.family} ${key.value}`;
      if (seen.has(id)) continue;
      seen.add(id);
      keys.push(key);
    }
  return keys;
}
