import type { FactValue } from '../facts.ts';
import { applyRules, type LineRule } from './rules.ts';
import type { Extractor, MessageFamily } from './types.ts';

const NETWORK_SOURCE =
  'apache/flink flink-runtime/src/main/java/org/apache/flink/runtime/io/network/buffer/NetworkBufferPool.java';

// The rule below always captures the required and available counts; only the total is optional.
function counts(m: RegExpExecArray): Record<string, FactValue> {
  const values: Record<string, FactValue> = {
    variant: 'insufficient',
    required: Number(m[1]),
    available: Number(m[2]),
  };
  if (m[3]) values.total = Number(m[3]);
  return values;
}

const RULES: readonly LineRule[] = [
  // Family: network buffers too few for a task's channels; NetworkBufferPool.createBufferPool /
  // requestMemorySegments. Every Flink version from 0.10 keeps the prefix; the tail names the counts
  // ("only 3 of 2048 available", 1.0-1.4) or the config keys (numberOfBuffers 1.2-1.4,
  // taskmanager.network.memory.* 1.5-1.9, taskmanager.memory.network.* 1.10+).
  {
    re: /Insufficient number of network buffers:? required (\d{1,12}), but only (\d{1,12})(?: of (\d{1,12}))? available/i,
    kind: 'flink.network-buffers',
    values: counts,
  },
  {
    re: /Insufficient number of network buffers/i,
    kind: 'flink.network-buffers',
    values: () => ({ variant: 'insufficient' }),
  },
  // Family: exclusive buffers not handed out before the request timeout (NetworkBufferPool, 1.11+).
  {
    re: /Timeout triggered when requesting exclusive buffers/i,
    kind: 'flink.network-buffers',
    values: () => ({ variant: 'exclusive-timeout' }),
  },
  // Family: the pool's segments could not be allocated at TaskManager start (NetworkBufferPool
  // constructor, 1.0+; GlobalBufferPool before 1.0): direct memory too small for the network memory.
  {
    re: /Could not allocate enough memory segments for (?:NetworkBufferPool|GlobalBufferPool)/i,
    kind: 'flink.network-buffers',
    values: () => ({ variant: 'segments' }),
  },
  // Family: managed memory exhausted; MemoryManager.allocatePages throws MemoryAllocationException
  // "Could not allocate N pages. Only M pages are remaining." (1.0-1.9), "Could not allocate N pages"
  // (1.10+, the budget detail in its cause).
  {
    re: /Could not allocate (\d{1,12}) pages(?:\. Only (\d{1,12}) pages are remaining)?/i,
    kind: 'flink.managed-memory',
    values: (m) => ({
      variant: 'pages',
      requestedPages: Number(m[1]),
      ...(m[2] ? { remainingPages: Number(m[2]) } : {}),
    }),
  },
  // Family: the sorter got fewer managed-memory pages than its minimum (UnilateralSortMerger 1.0-1.11,
  // ExternalSorter 1.12+, table BinaryExternalSorter).
  {
    re: /Too little memory provided to sorter to perform task/i,
    kind: 'flink.managed-memory',
    values: () => ({ variant: 'sorter' }),
  },
  // Family: Flink's own explanation appended to an OutOfMemoryError (TaskManagerExceptionUtils 1.11+,
  // ClusterEntryPointExceptionUtils 1.15+). jvm-oom reports the error; this says Flink wrote it.
  {
    re: /(?:heap space-related|direct|metaspace) out-of-memory error has occurred/i,
    kind: 'engine.flink',
  },
];

const FAMILIES: readonly MessageFamily[] = [
  {
    name: 'network buffers, Flink 1.0-1.4 wording',
    kind: 'flink.network-buffers',
    source: `${NETWORK_SOURCE} (createBufferPool)`,
    versions: 'Flink 1.0-1.4',
    examples: [
      'java.io.IOException: Insufficient number of network buffers: required 16, but only 3 of 2048 available.',
    ],
  },
  {
    name: 'network buffers, numberOfBuffers wording',
    kind: 'flink.network-buffers',
    source: `${NETWORK_SOURCE} (ConfigConstants.TASK_MANAGER_NETWORK_NUM_BUFFERS_KEY)`,
    versions:
      'Flink 1.x before the taskmanager.network.memory.* keys (exact first and last release not confirmed)',
    examples: [
      "java.io.IOException: Insufficient number of network buffers: required 64, but only 12 available. The total number of network buffers is currently set to 2048. You can increase this number by setting the configuration key 'taskmanager.network.numberOfBuffers'.",
    ],
  },
  {
    name: 'network buffers, memory fraction/min/max wording',
    kind: 'flink.network-buffers',
    source: `${NETWORK_SOURCE} (TaskManagerOptions.NETWORK_BUFFERS_MEMORY_FRACTION/MIN/MAX)`,
    versions: 'Flink 1.5-1.9 (taskmanager.network.memory.*), 1.10+ (taskmanager.memory.network.*)',
    examples: [
      "java.io.IOException: Insufficient number of network buffers: required 8, but only 2 available. The total number of network buffers is currently set to 4096 of 32768 bytes each. You can increase this number by setting the configuration keys 'taskmanager.network.memory.fraction', 'taskmanager.network.memory.min', and 'taskmanager.network.memory.max'.",
      "java.io.IOException: Insufficient number of network buffers: required 2, but only 0 available. The total number of network buffers is currently set to 13926 of 32768 bytes each. You can increase this number by setting the configuration keys 'taskmanager.memory.network.fraction', 'taskmanager.memory.network.min', and 'taskmanager.memory.network.max'.",
    ],
  },
  {
    name: 'exclusive network buffers not granted in time',
    kind: 'flink.network-buffers',
    source: `${NETWORK_SOURCE} (requestMemorySegments, NETWORK_EXCLUSIVE_BUFFERS_REQUEST_TIMEOUT_MILLISECONDS)`,
    versions: 'Flink 1.11+',
    examples: [
      "java.io.IOException: Timeout triggered when requesting exclusive buffers: The total number of network buffers is currently set to 2048 of 32768 bytes each. You can increase this number by setting the configuration keys 'taskmanager.memory.network.fraction', 'taskmanager.memory.network.min', and 'taskmanager.memory.network.max',  or you may increase the timeout which is 30000ms by setting the key 'taskmanager.network.memory.exclusive-buffers-request-timeout-ms'.",
    ],
  },
  {
    name: 'network buffer segments not allocatable',
    kind: 'flink.network-buffers',
    source: `${NETWORK_SOURCE} (constructor; GlobalBufferPool before 1.0)`,
    versions: 'Flink 0.x-1.x',
    examples: [
      'java.lang.OutOfMemoryError: Could not allocate enough memory segments for NetworkBufferPool (required (Mb): 9, allocated (Mb): 9, missing (Mb): 0). Cause: Direct buffer memory',
      'java.lang.OutOfMemoryError: Could not allocate enough memory segments for GlobalBufferPool (required (Mb): 64, allocated (Mb): 12, missing (Mb): 52).',
    ],
  },
  {
    name: 'managed memory pages exhausted',
    kind: 'flink.managed-memory',
    source:
      'apache/flink flink-runtime/src/main/java/org/apache/flink/runtime/memory/MemoryManager.java (allocatePages)',
    versions: 'Flink 1.0+',
    examples: [
      'Caused by: org.apache.flink.runtime.memory.MemoryAllocationException: Could not allocate 64 pages. Only 0 pages are remaining.',
      'Caused by: org.apache.flink.runtime.memory.MemoryAllocationException: Could not allocate 512 pages',
    ],
  },
  {
    name: 'sorter below its minimum managed memory',
    kind: 'flink.managed-memory',
    source:
      'apache/flink flink-runtime/src/main/java/org/apache/flink/runtime/operators/sort/UnilateralSortMerger.java, ExternalSorterBuilder (1.12+)',
    versions: 'Flink 1.0+',
    examples: [
      'java.lang.IllegalArgumentException: Too little memory provided to sorter to perform task. Required are at least 12 pages. Current page size is 32768 bytes.',
    ],
  },
  {
    name: "Flink's explanation appended to an OutOfMemoryError",
    kind: 'engine.flink',
    source:
      'apache/flink flink-core/src/main/java/org/apache/flink/util/TaskManagerExceptionUtils.java; flink-runtime ClusterEntryPointExceptionUtils.java',
    versions: 'Flink 1.11+ (TaskManager direct, metaspace), 1.15+ (JobManager heap)',
    examples: [
      'java.lang.OutOfMemoryError: Metaspace. The metaspace out-of-memory error has occurred. This can mean two things: either the job requires a larger size of JVM metaspace to load classes or there is a class loading leak.',
      'java.lang.OutOfMemoryError: Direct buffer memory. The direct out-of-memory error has occurred. This can mean two things: either job(s) require(s) a larger size of JVM direct memory or there is a direct memory leak.',
      'java.lang.OutOfMemoryError: Java heap space. A heap space-related out-of-memory error has occurred. This can mean two things: either Flink Master requires a larger size of JVM heap space or there is a memory leak.',
    ],
  },
];

/** Flink's own memory pools running out: network buffers, managed memory, and its OOM explanations. */
export const flinkMemory: Extractor = {
  id: 'flink-memory',
  description:
    "Flink's memory pools running out (network buffers, NetworkBufferPool segments, managed-memory pages, sorter memory)",
  triggers: [
    'network buffers',
    'exclusive buffers',
    'memory segments',
    'could not allocate',
    'memory provided to sorter',
    'out-of-memory error has occurred',
  ],
  extract: (line) => applyRules(RULES, line),
  families: FAMILIES,
  patterns: RULES.map((rule) => rule.re),
};
