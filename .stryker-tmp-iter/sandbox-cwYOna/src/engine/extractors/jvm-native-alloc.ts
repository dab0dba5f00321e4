// @ts-nocheck
import { applyRules, type LineRule } from './rules.ts';
import type { Extractor } from './types.ts';

const RULES: readonly LineRule[] = [
  { re: /There is insufficient memory\b/i, kind: 'oom.jvm-native' },
  { re: /Native memory allocation \((?:malloc|mmap)\) failed/i, kind: 'oom.jvm-native' },
  { re: /os::commit_memory\(/, kind: 'oom.jvm-native' },
  { re: /Cannot allocate memory.{0,20}errno=12/i, kind: 'oom.jvm-native' },
];

/** The JVM failing to get native memory from the OS (hs_err, os::commit_memory). */
export const jvmNativeAlloc: Extractor = {
  id: 'jvm-native-alloc',
  description:
    'The JVM could not get memory from the operating system (os::commit_memory, hs_err "insufficient memory")',
  triggers: ['insufficient memory', 'native memory allocation', 'os::commit_memory', 'errno=12'],
  extract: (line) => applyRules(RULES, line),
};
