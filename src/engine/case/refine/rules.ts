import type { FactValue } from '../../facts.ts';

/**
 * The verdict one input gives that decides between the causes of another input's diagnosis: a fact
 * kind a parser or extractor emits, narrowed by its values (each listed value must equal one of the
 * allowed ones; `atLeast`: numbers at or above).
 */
export interface RefiningEvidence {
  fact: string;
  where?: Readonly<Record<string, readonly FactValue[]>>;
  atLeast?: Readonly<Record<string, number>>;
}

/**
 * One pairing: evidence from an input of the same process, the diagnoses it refines and the cause it
 * proves. `because` and `actions` are templates over the fact's values (`{{count}}`; sizes read
 * `{{rssBytes}}` as "620 MB"); an action whose value is missing is dropped.
 */
export interface Refinement {
  id: string;
  evidence: RefiningEvidence;
  playbooks: readonly string[];
  cause: { id: string; title: string };
  because: string;
  actions: readonly string[];
  /** True when the playbook's own actions treat what this evidence rules out (more overhead for arenas). */
  replacesActions: boolean;
  source: string;
}

const OVERHEAD_KILLS = ['spark-executor-overhead-killed', 'flink-container-oom-killed'];
const HEAP_OOMS = ['jvm-oom', 'spark-heap-oom', 'glue-heap-oom', 'flink-jvm-oom'];

/**
 * The pairings, most decisive first: a diagnosis takes the first rule whose evidence an input of
 * its process shows. The table is data; refine.ts only reads it.
 */
export const REFINEMENTS: readonly Refinement[] = [
  {
    // glibc gives each thread that contends for malloc its own arena, reserved as a 64 MB anonymous
    // region (8 x cores of them on 64-bit); their resident pages are not returned to the OS. When
    // they hold most of the process, more overhead only delays the kill: fewer arenas fixes it.
    id: 'pmap-arenas',
    evidence: { fact: 'native.glibc-arenas' },
    playbooks: OVERHEAD_KILLS,
    cause: { id: 'glibc-arenas', title: 'glibc malloc arenas hold the memory outside the heap' },
    because:
      'pmap shows {{count}} glibc-arena-shaped regions (64 MB anonymous blocks) holding {{rssBytes}} resident{{ofProcess}}: the native memory is malloc arenas, which grow with threads, not a shortage of overhead.',
    actions: [
      'Cap glibc arenas in the container environment: spark.executorEnv.MALLOC_ARENA_MAX=4 on Spark (the value Hadoop sets for its own daemons), containerized.taskmanager.env.MALLOC_ARENA_MAX=4 on Flink, or the pod environment on Kubernetes.',
      'Or preload jemalloc (LD_PRELOAD=libjemalloc.so.2 in the same environment; the official Flink images do it unless DISABLE_JEMALLOC=true), which has no per-thread arenas to multiply.',
      'Keep the overhead as it is until the arenas are capped: raising it only moves the kill later.',
    ],
    replacesActions: true,
    source:
      '../shared/seeds/001_73af69c1583a8eef.txt (consecutive 64 MB anon segments in pmap are arenas; MALLOC_ARENA_MAX, jemalloc); apache/hadoop hadoop-functions.sh (MALLOC_ARENA_MAX=4, HADOOP-7154)',
  },
  {
    // JDK 8 before 8u152 kept MemberNames in a native MemberNameTable that GC never pruned
    // (JDK-8013267): the JVM's own Internal area grows until the container is killed.
    id: 'jdk8-membername',
    evidence: { fact: 'jdk.8-native-leak' },
    playbooks: OVERHEAD_KILLS,
    cause: { id: 'jdk8-native-leak', title: 'JDK 8 before 8u152 leaks native memory (MemberNameTable)' },
    because:
      'the process runs JDK {{version}}, whose MemberNameTable lives in native memory and is never cleaned (JDK-8013267, fixed in 8u152): the overhead fills with the JVM’s own leak.',
    actions: [
      'Upgrade the JVM to 8u152 or later (or JDK 11/17); the process runs {{version}}.',
      'Until then, NMT (-XX:NativeMemoryTracking=summary) shows the leak as a growing Internal area.',
    ],
    replacesActions: true,
    source: '../shared/seeds/001_73af69c1583a8eef.txt (JDK 8 native leak before 8u152, JDK-8013267)',
  },
  {
    // NMT's Internal and Other areas are the JVM's and JNI's own mallocs (MemberNameTable, Unsafe,
    // native libraries); growth there between two summaries is a native leak, which no overhead holds.
    id: 'nmt-native-growth',
    evidence: { fact: 'nmt.growing', where: { category: ['Internal', 'Other'] } },
    playbooks: OVERHEAD_KILLS,
    cause: { id: 'native-leak', title: 'Native memory leaks inside the JVM (NMT Internal/Other grows)' },
    because:
      "NMT's {{category}} area grew by {{deltaBytes}} between the two summaries: memory allocated through malloc by the JVM or native code and not freed, a leak rather than a shortage of overhead.",
    actions: [
      'Find the native allocator: take `jcmd <pid> VM.native_memory detail.diff` and look at the call sites under {{category}}; native libraries, Unsafe.allocateMemory and JDK 8 before 8u152 are the usual owners.',
      'Upgrade the JVM and the native libraries the job loads; raise the overhead only to buy time while the leak is found.',
    ],
    replacesActions: true,
    source:
      '../shared/seeds/001_73af69c1583a8eef.txt (non-Direct native memory: Internal, JNI, Unsafe; MemberNameTable)',
  },
  {
    // Over a thousand live threads is a thread leak (nmt.ts, THREAD_LEAK_COUNT): each has its stack
    // and, in glibc, may have its own arena; the overhead is eaten by threads nobody ends.
    id: 'nmt-threads',
    evidence: { fact: 'nmt.threads' },
    playbooks: OVERHEAD_KILLS,
    cause: { id: 'thread-leak', title: 'Threads leak: their stacks and arenas fill the overhead' },
    because:
      'NMT counts {{count}} live threads: far more than an executor at work runs, so threads are started and never ended, each with its stack outside the heap.',
    actions: [
      'Take `jstack <pid>` (or `jcmd <pid> Thread.print`) and find the thread name that repeats: a pool created per task or per record and never shut down is the usual owner.',
      'Lower the stack size only as a stopgap (-Xss); the fix is ending the threads.',
    ],
    replacesActions: true,
    source:
      'src/engine/parsers/nmt.ts (THREAD_LEAK_COUNT, from the captured ThreadLeak runs in test/engine/parsers/fixtures/nmt)',
  },
  {
    // The heap left after each whole-heap collection is the live set: when that floor keeps rising
    // the program keeps references it no longer needs; a larger heap only delays the same error.
    id: 'gc-floor-rising',
    evidence: { fact: 'gc.heap-floor-rising' },
    playbooks: HEAP_OOMS,
    cause: { id: 'heap-leak', title: 'The heap leaks: what survives each full collection keeps growing' },
    because:
      'the GC log shows the heap left after each whole-heap collection rising collection after collection: live data grows without bound, a leak rather than a heap too small for its data.',
    actions: [
      'Take a heap dump at the failure (-XX:+HeapDumpOnOutOfMemoryError) or before it (`jcmd <pid> GC.heap_dump`) and look for the object that retains the growth.',
      'Do not only raise the heap: with a rising floor it fails again, later.',
    ],
    replacesActions: false,
    source:
      '../shared/seeds/002_ed63c8884b12beb6.txt (GC tuning: what survives collections); src/engine/parsers/gc-log.ts (floor trend)',
  },
  {
    // A heap dump's dominator that holds a tenth of the heap or more through one object is MAT's leak
    // suspect: it names what to fix, which the OutOfMemoryError line never does.
    id: 'heap-dump-suspect',
    evidence: { fact: 'heap-dump.leak' },
    playbooks: HEAP_OOMS,
    cause: { id: 'heap-leak', title: 'One object holds most of the heap (heap dump leak suspect)' },
    because:
      'the heap dump shows {{class}} holding {{percent}}% of the heap by itself: that holder is what to fix, not the heap size.',
    actions: [
      'Fix what keeps {{class}} reachable (the path from its GC root is in the heap dump answer): a static cache without eviction, a listener never removed, a ThreadLocal in a pool thread.',
    ],
    replacesActions: false,
    source: 'src/engine/heap/suspects.ts (MAT leak-suspect rules: 10% of the heap, big-drop ratio 0.7)',
  },
  {
    // Collections that free almost nothing, without a rising floor: the live data simply does not
    // fit. That is a sizing problem (or too much per task), not a leak.
    id: 'gc-full-after-gc',
    evidence: { fact: 'gc.heap-full-after-gc' },
    playbooks: HEAP_OOMS,
    cause: { id: 'heap', title: 'The live data does not fit the heap' },
    because:
      'the GC log shows whole-heap collections leaving the heap {{share}} full without a rising trend: the data held at once is larger than the heap, not growing without bound.',
    actions: [
      'Give each task less to hold at once (more partitions, smaller batches) or give the heap more memory.',
    ],
    replacesActions: false,
    source:
      '../shared/seeds/002_ed63c8884b12beb6.txt (execution vs storage memory, more partitions); src/engine/parsers/gc-log.ts',
  },
  {
    // One stage's slowest task far above its median is data skew: that task holds a partition many
    // times the others, so one executor runs out while the rest have room.
    id: 'eventlog-skew',
    evidence: { fact: 'spark.task-skew' },
    playbooks: ['spark-heap-oom', 'glue-heap-oom', 'spark-executor-overhead-killed'],
    cause: { id: 'skew', title: 'Data skew: one partition is many times the others' },
    because:
      "the Spark event log shows stage {{stage}}'s slowest task at {{ratio}}x its median: one partition far larger than the rest, which is what exhausts one executor.",
    actions: [
      'Spread the hot key: salt it, or turn on adaptive skew-join handling (spark.sql.adaptive.enabled and spark.sql.adaptive.skewJoin.enabled, on by default since Spark 3.2).',
      'Raising memory for every executor to fit one partition wastes it on the others; fix the skew first.',
    ],
    replacesActions: false,
    source: '../shared/seeds/004_b2680e7a8054bce1.txt and ../shared/seeds/002_ed63c8884b12beb6.txt (skew)',
  },
  {
    // tracemalloc's comparison of two snapshots names the Python line whose allocations grew: that is
    // the leak's source, inside the interpreter's heap.
    id: 'tracemalloc-growth',
    evidence: { fact: 'python.growing-allocator' },
    playbooks: ['beam-python-leak', 'spark-executor-overhead-killed'],
    cause: { id: 'python-leak', title: 'A Python allocation site keeps growing' },
    because:
      'tracemalloc shows {{location}} holding {{bytes}} more than in the earlier snapshot: Python objects allocated there are kept, a leak in the code rather than a worker too small.',
    actions: [
      'Look at what {{location}} appends to or caches, and bound it or release it per bundle/partition.',
    ],
    replacesActions: false,
    source: '../shared/seeds/000_ae00efdbda160770.txt (Python heap vs native allocations; tracemalloc)',
  },
  {
    // Resident memory that climbs steadily across samples, rather than stepping and holding, is a
    // leak; its rate says how long until the limit.
    id: 'samples-growth',
    evidence: { fact: 'memory.growing' },
    playbooks: ['beam-python-leak', 'spark-executor-overhead-killed', 'flink-container-oom-killed'],
    cause: { id: 'steady-growth', title: 'Memory climbs steadily until the limit (a leak, not a peak)' },
    because:
      'the memory samples climb at {{rateBytesPerSecond}}/s without levelling off{{untilLimit}}: the process leaks, so any larger limit is reached later rather than never.',
    actions: [
      'Find what grows (tracemalloc or memray for Python, NMT and a heap dump for a JVM) before raising the limit.',
    ],
    replacesActions: false,
    source: '../shared/seeds/000_ae00efdbda160770.txt (leak vs high peak)',
  },
  {
    // Kubernetes says the killed container shows no JVM (image, command, environment): the memory
    // belongs to a sidecar or a non-JVM process, so JVM overhead settings do not reach it.
    id: 'kill-not-jvm',
    evidence: { fact: 'container.no-jvm-sign' },
    playbooks: OVERHEAD_KILLS,
    cause: { id: 'not-the-jvm', title: 'The killed container is not the JVM' },
    because:
      'the pod record shows the container that was OOMKilled has no JVM in its image, command or environment: its own limit was too small, not the executor’s overhead.',
    actions: [
      "Raise that container's own memory limit (resources.limits.memory in the pod template) or find what grows in it.",
    ],
    replacesActions: true,
    source:
      'src/engine/parsers/k8s-pod.ts (a killed container counts as a JVM only with a JVM in its image, command or environment)',
  },
];
