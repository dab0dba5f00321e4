import { JVM_OOM_FAMILIES } from './jvm-oom-families.ts';
import { applyRules, type LineRule } from './rules.ts';
import type { Extractor } from './types.ts';

// JVM flags name the error without it having happened: -XX:OnOutOfMemoryError, HeapDumpOnOutOfMemoryError...
const FLAG = /(?:On|ExitOn|CrashOn|HeapDumpOn)OutOfMemoryError/g;
// ...except in the JVM's own report once the error happened: "# -XX:OnOutOfMemoryError="kill -9 %p"",
// printed by VM_ReportJavaOutOfMemory before it runs the command (a launch command never starts with #).
const HOOK_REPORT = /^\s{0,4}#\s{0,4}-XX:OnOutOfMemoryError=/;

// The JDK's OutOfMemoryError messages as another exception's message ("java.sql.SQLException: Java heap
// space", "InvocationTargetException: GC overhead limit exceeded", Maven's "[ERROR] Java heap space ->").
const WRAPPED = String.raw`(?:Exception|Error|\[ERROR\])\s?:?\s`;
// ...and the message ends there, as a message does: not "[ERROR] Java heap space usage above 90%".
const ENDS = String.raw`(?=\s*(?:$|->|[.;,)\]"']|\s+at\s))`;

// Provenance of each rule is in jvm-oom-families.ts.
const RULES: readonly LineRule[] = [
  // Spark's spill failure is thrown as SparkOutOfMemoryError, but it is the disk that failed.
  { re: /error while calling spill\(\) on/i, kind: 'spark.spill-failed' },
  { re: /OutOfMemoryError\W{0,3}Java heap space/i, kind: 'oom.java-heap' },
  { re: /OutOfMemoryError\W{0,3}GC overhead limit exceeded/i, kind: 'oom.gc-overhead' },
  { re: /OutOfMemoryError\W{0,3}(?:Metaspace|Compressed class space|PermGen space)/i, kind: 'oom.metaspace' },
  { re: /OutOfMemoryError\W{0,3}Direct buffer memory|Cause: Direct buffer memory/i, kind: 'oom.direct' },
  {
    re: /Could not allocate enough memory segments for NetworkBufferPool/i,
    kind: 'oom.direct',
    values: () => ({ area: 'network-buffers' }),
  },
  { re: /OutOfMemoryError\W{0,3}unable to create (?:new )?native thread/i, kind: 'oom.native-thread' },
  // Netty's own direct-memory accounting, thrown before the JVM's limit is reached.
  { re: /\bOutOfDirectMemoryError\b/, kind: 'oom.direct' },
  { re: /OutOfMemoryError\W{0,3}Requested array size exceeds VM limit/i, kind: 'oom.array-size' },
  { re: /OutOfMemoryError\W{0,3}Cannot reserve \d+ bytes of direct buffer memory/i, kind: 'oom.direct' },
  // Spark's execution memory (on-heap by default) could not be granted to a task.
  {
    re: /Unable to acquire \d{1,20} bytes of memory, got \d{1,20}/i,
    kind: 'oom.java-heap',
    values: () => ({ pool: 'spark-execution' }),
  },
  // Spark SQL rethrows the driver's OutOfMemoryError while building a broadcast relation.
  {
    re: /Not enough memory to build and broadcast the table/i,
    kind: 'oom.java-heap',
    values: () => ({ pool: 'spark-broadcast' }),
  },
  // Hadoop tasks report the error without its class name ("Error: Java heap space"), and wrappers copy
  // only its message.
  { re: new RegExp(`${WRAPPED}Java heap space${ENDS}`), kind: 'oom.java-heap' },
  { re: new RegExp(`${WRAPPED}GC overhead limit exceeded${ENDS}`), kind: 'oom.gc-overhead' },
  { re: new RegExp(`${WRAPPED}(?:Metaspace|Compressed class space)${ENDS}`), kind: 'oom.metaspace' },
  { re: new RegExp(`${WRAPPED}Direct buffer memory${ENDS}`), kind: 'oom.direct' },
  // Flink's explanation that replaces the error's message, on a line of its own when the paste wraps.
  { re: /\bThe metaspace out-of-memory error has occurred/i, kind: 'oom.metaspace' },
  { re: /\bThe direct out-of-memory error has occurred/i, kind: 'oom.direct' },
  { re: /\bA heap space-related out-of-memory error has occurred/i, kind: 'oom.java-heap' },
  // Gradle stops its daemon when the daemon's own heap is exhausted.
  {
    re: /Expiring Daemon because JVM heap space is exhausted|Daemon will be stopped at the end of the build after running out of JVM memory/i,
    kind: 'oom.java-heap',
  },
  // Dataflow's Java worker shuts the JVM down itself when it does little but collect garbage.
  { re: /consecutive periods of measured GC thrashing/i, kind: 'oom.gc-overhead' },
  {
    re: /Query exceeded (?:per-node |distributed |local |max )?(?:user |total )?memory limit|\bEXCEEDED_(?:GLOBAL|LOCAL|USER)_MEMORY_LIMIT\b/i,
    kind: 'oom.app-memory-limit',
  },
  { re: /(?:java\.lang\.)?OutOfMemoryError\b/, kind: 'oom.jvm-unspecified' },
];

/** `java.lang.OutOfMemoryError` and which memory area ran out. */
export const jvmOom: Extractor = {
  id: 'jvm-oom',
  description:
    'java.lang.OutOfMemoryError and the JVM memory area it names (heap, GC overhead, metaspace, direct...)',
  triggers: [
    'outofmemoryerror',
    'outofdirectmemoryerror',
    'networkbufferpool',
    'direct buffer memory',
    'java heap space',
    'gc overhead limit',
    'gc thrashing',
    'memory limit',
    'memory_limit',
    'bytes of memory, got',
    'build and broadcast',
    'calling spill()',
    'metaspace',
    'compressed class space',
    'out-of-memory error has occurred',
    'heap space is exhausted',
    'out of jvm memory',
  ],
  extract(line) {
    if (HOOK_REPORT.test(line)) return [{ kind: 'oom.jvm-unspecified', values: { report: 'on-oom-hook' } }];
    return applyRules(RULES, line.includes('OnOutOfMemoryError') ? line.replace(FLAG, '') : line);
  },
  families: JVM_OOM_FAMILIES,
  patterns: [HOOK_REPORT, ...RULES.map((rule) => rule.re)],
};
