import { applyRules, type LineRule } from './rules.ts';
import type { Extractor, MessageFamily } from './types.ts';

const HOTSPOT = 'openjdk/jdk src/hotspot';

// Provenance of each rule is in FAMILIES below. Configuration errors at start-up ("Initial heap size
// set to a larger value than the maximum heap size", "Too small initial heap", "Invalid maximum heap
// size") are the settings' fault, not a lack of memory, and are left out on purpose.
const RULES: readonly LineRule[] = [
  { re: /There is insufficient memory\b/i, kind: 'oom.jvm-native' },
  { re: /Native memory allocation \((?:malloc|mmap)\) failed/i, kind: 'oom.jvm-native' },
  { re: /os::commit_memory\(/, kind: 'oom.jvm-native' },
  { re: /error='(?:Cannot allocate memory|Not enough space)' \(errno=12\)/i, kind: 'oom.jvm-native' },
  { re: /Cannot allocate memory.{0,20}errno=12/i, kind: 'oom.jvm-native' },
  { re: /The system is out of physical RAM or swap space/i, kind: 'oom.jvm-native' },
  { re: /^\s{0,4}#\s{0,4}Out of Memory Error \(/, kind: 'oom.jvm-native' },
  // The JVM could not reserve its heap (or another area) at start-up: address space or memory short.
  {
    re: /Could not reserve enough space for (?:\d{1,15}\s?KB )?object heap/i,
    kind: 'oom.jvm-native',
    values: () => ({ phase: 'start-up', area: 'heap' }),
  },
  {
    re: /Could not reserve enough space for (?:code cache|card marking array)|Unable to allocate \d{1,15}KB bitmaps for parallel garbage collection|Could not allocate metaspace: \d{1,20} bytes/i,
    kind: 'oom.jvm-native',
    values: () => ({ phase: 'start-up' }),
  },
  { re: /Cannot create (?:worker )?GC thread\. Out of system resources/i, kind: 'oom.jvm-native' },
];

const FAMILIES: readonly MessageFamily[] = [
  {
    name: 'hs_err / stdout: insufficient memory for the Java Runtime Environment',
    kind: 'oom.jvm-native',
    source: `${HOTSPOT}/share/utilities/vmError.cpp (report: "There is insufficient memory...", "Native memory allocation (%s) failed to ...", "Possible reasons:"), os/posix/os_posix.cpp, os/linux/os_linux.cpp ("Out of Memory Error")`,
    versions: 'JDK 7-21+',
    examples: [
      '# There is insufficient memory for the Java Runtime Environment to continue.',
      '# Native memory allocation (mmap) failed to map 12288 bytes for committing reserved memory.',
      '# Native memory allocation (malloc) failed to allocate 1048576 bytes for AllocateHeap',
      '#   The system is out of physical RAM or swap space',
      '#  Out of Memory Error (os_linux.cpp:2749), pid=4811, tid=0x00007f2a3c1fe700',
      '# Cannot create GC thread. Out of system resources.',
    ],
  },
  {
    name: 'os::commit_memory failed, errno 12',
    kind: 'oom.jvm-native',
    source: `${HOTSPOT}/os/linux/os_linux.cpp (warn_fail_commit_memory)`,
    versions: 'JDK 7-21+ ("Not enough space" where strerror says so)',
    examples: [
      "OpenJDK 64-Bit Server VM warning: INFO: os::commit_memory(0x00000000c0000000, 1073741824, 0) failed; error='Cannot allocate memory' (errno=12)",
      "Java HotSpot(TM) 64-Bit Server VM warning: INFO: os::commit_memory(0x00007f1b4c000000, 65536, 1) failed; error='Not enough space' (errno=12)",
    ],
  },
  {
    name: 'the heap or another area could not be reserved at start-up',
    kind: 'oom.jvm-native',
    source: `${HOTSPOT}/share/memory/universe.cpp (Universe::reserve_heap), gc/parallel/parMarkBitMap.cpp, code/codeCache.cpp, memory/metaspace.cpp; printed after "Error occurred during initialization of VM" (runtime/java.cpp vm_exit_during_initialization)`,
    versions: 'JDK 6-7 ("for object heap"), JDK 8+ ("for %dKB object heap")',
    examples: [
      'Could not reserve enough space for object heap',
      'Could not reserve enough space for 2097152KB object heap',
      'elasticsearch_1  | Could not reserve enough space for 2097152KB object heap',
      'Unable to allocate 262144KB bitmaps for parallel garbage collection for the requested 8388608KB heap.',
      'Could not reserve enough space for code cache',
      'Could not allocate metaspace: 1073741824 bytes',
    ],
  },
];

/** The JVM failing to get native memory from the OS (hs_err, os::commit_memory, heap reservation). */
export const jvmNativeAlloc: Extractor = {
  id: 'jvm-native-alloc',
  description:
    'The JVM could not get memory from the operating system (hs_err "insufficient memory", os::commit_memory, heap reservation at start-up)',
  triggers: [
    'insufficient memory',
    'native memory allocation',
    'os::commit_memory',
    'errno=12',
    'out of physical ram',
    'out of memory error (',
    'could not reserve enough space',
    'bitmaps for parallel garbage collection',
    'could not allocate metaspace',
    'out of system resources',
  ],
  extract: (line) => applyRules(RULES, line),
  families: FAMILIES,
  patterns: RULES.map((rule) => rule.re),
};
