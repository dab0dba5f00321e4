// @ts-nocheck
import { applyRules, type LineRule } from './rules.ts';
import type { Extractor } from './types.ts';

// JVM flags name the error without it having happened: -XX:OnOutOfMemoryError, HeapDumpOnOutOfMemoryError...
const FLAG = /(?:On|ExitOn|CrashOn|HeapDumpOn)OutOfMemoryError/g;

const RULES: readonly LineRule[] = [
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
  // Hadoop tasks report the error without its class name: "Error: Java heap space".
  { re: /\bError: Java heap space\b/, kind: 'oom.java-heap' },
  { re: /\bError: GC overhead limit exceeded\b/, kind: 'oom.gc-overhead' },
  // Dataflow's Java worker shuts the JVM down itself when it does little but collect garbage.
  { re: /consecutive periods of measured GC thrashing/i, kind: 'oom.gc-overhead' },
  {
    re: /Query exceeded (?:per-node |distributed |local |max )?(?:user |total )?memory limit/i,
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
  ],
  extract(line) {
    return applyRules(RULES, line.includes('OnOutOfMemoryError') ? line.replace(FLAG, '') : line);
  },
};
