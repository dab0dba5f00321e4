import type { MessageFamily } from './types.ts';

const HOTSPOT = 'openjdk/jdk src/hotspot/share';
const SPARK_MEMORY = 'apache/spark core/src/main/java/org/apache/spark/memory';

/** The message families jvm-oom recognises, with the source of each wording. */
export const JVM_OOM_FAMILIES: readonly MessageFamily[] = [
  {
    name: 'Java heap space',
    kind: 'oom.java-heap',
    source: `${HOTSPOT}/memory/universe.cpp (out_of_memory_error_java_heap), gc/shared/memAllocator.cpp; utilities/debug.cpp (ExitOnOutOfMemoryError "Terminating due to")`,
    versions:
      'JDK 6-21+; "Terminating due to" JDK 8u92+; "failed reallocation of scalar replaced objects" JDK 8u+',
    examples: [
      'Exception in thread "main" java.lang.OutOfMemoryError: Java heap space',
      'Terminating due to java.lang.OutOfMemoryError: Java heap space',
      'java.lang.OutOfMemoryError: Java heap space: failed reallocation of scalar replaced objects',
      '# java.lang.OutOfMemoryError: Java heap space',
    ],
  },
  {
    name: "Java heap space as another exception's message (wrapped, Hadoop task, Maven)",
    kind: 'oom.java-heap',
    source:
      'Throwable.getMessage of wrappers built with the cause\'s message (java.sql.SQLException, InvocationTargetException); apache/hadoop MapReduce task diagnostics ("Error: Java heap space"); Maven CLI "[ERROR] <message> -> [Help 1]"',
    versions: 'any JDK; Hadoop 1-3; Maven 3',
    examples: [
      'java.sql.SQLException: Java heap space',
      '[ERROR] Failed to execute goal org.apache.maven.plugins:maven-surefire-plugin:2.22.2:test (default-test) on project core: Execution default-test of goal org.apache.maven.plugins:maven-surefire-plugin:2.22.2:test failed: java.lang.reflect.InvocationTargetException: Java heap space -> [Help 1]',
      'Error: Java heap space',
      '[ERROR] Java heap space -> [Help 1]',
    ],
  },
  {
    name: "Gradle's daemon out of heap",
    kind: 'oom.java-heap',
    source:
      'gradle/gradle launcher daemon expiration (low heap space strategy), as Gradle prints it and build-troubleshooting pages quote it',
    versions: 'Gradle 4+',
    examples: [
      'Expiring Daemon because JVM heap space is exhausted',
      'Daemon will be stopped at the end of the build after running out of JVM memory',
    ],
  },
  {
    name: "GC overhead limit exceeded (and as another exception's message)",
    kind: 'oom.gc-overhead',
    source: `${HOTSPOT}/gc/shared/gcOverheadChecker.cpp (Parallel GC, UseGCOverheadLimit); MapReduce task diagnostics`,
    versions: 'JDK 6-21 with Parallel GC (G1 never throws it)',
    examples: [
      'java.lang.OutOfMemoryError: GC overhead limit exceeded',
      'Error: GC overhead limit exceeded',
      'java.sql.SQLException: GC overhead limit exceeded',
    ],
  },
  {
    name: 'Dataflow Java worker shutting the JVM down for GC thrashing',
    kind: 'oom.gc-overhead',
    source:
      'apache/beam runners/google-cloud-dataflow-java/worker/src/main/java/org/apache/beam/runners/dataflow/worker/util/MemoryMonitor.java; cloud.google.com/dataflow/docs/guides/troubleshoot-oom',
    versions: 'Beam Java 2.x on Dataflow',
    examples: [
      'Shutting down JVM after 8 consecutive periods of measured GC thrashing. Memory is used/total/max = 3992/4012/4012 MB, GC last/max = 97.81/97.81 %, #pushbacks=0, gc thrashing=true. Heap dump not written.',
    ],
  },
  {
    name: 'Metaspace / Compressed class space / PermGen',
    kind: 'oom.metaspace',
    source: `${HOTSPOT}/memory/metaspace.cpp (report_metadata_oome); JDK 7 permGen`,
    versions: 'JDK 8+ (Metaspace, Compressed class space), JDK 7 and older (PermGen space)',
    examples: [
      'java.lang.OutOfMemoryError: Metaspace',
      'java.lang.OutOfMemoryError: Compressed class space',
      'Exception in thread "main" java.lang.OutOfMemoryError: PermGen space',
      'Caused by: java.lang.reflect.InvocationTargetException: Metaspace',
    ],
  },
  {
    name: 'direct buffer memory',
    kind: 'oom.direct',
    source:
      'openjdk/jdk src/java.base/share/classes/java/nio/Bits.java (reserveMemory); netty PlatformDependent (OutOfDirectMemoryError)',
    versions:
      'JDK 8-13 ("Direct buffer memory"), JDK 14+ ("Cannot reserve N bytes of direct buffer memory (allocated: A, limit: L)"); Netty 4.1',
    examples: [
      'java.lang.OutOfMemoryError: Direct buffer memory',
      'java.lang.OutOfMemoryError: Cannot reserve 8192 bytes of direct buffer memory (allocated: 1073737728, limit: 1073741824)',
      'io.netty.util.internal.OutOfDirectMemoryError: failed to allocate 16777216 byte(s) of direct memory (used: 1056964615, max: 1073741824)',
    ],
  },
  {
    name: 'Flink network buffer segments (an OutOfMemoryError for direct memory)',
    kind: 'oom.direct',
    source:
      'apache/flink flink-runtime/src/main/java/org/apache/flink/runtime/io/network/buffer/NetworkBufferPool.java (constructor)',
    versions: 'Flink 1.0+',
    examples: [
      'java.lang.OutOfMemoryError: Could not allocate enough memory segments for NetworkBufferPool (required (Mb): 64, allocated (Mb): 20, missing (Mb): 44). Cause: Direct buffer memory',
    ],
  },
  {
    name: "Flink's explanation of a metaspace, direct or heap OutOfMemoryError, on its own line",
    kind: 'oom.metaspace',
    source:
      'apache/flink flink-core/src/main/java/org/apache/flink/util/TaskManagerExceptionUtils.java (TM_METASPACE_OOM_ERROR_MESSAGE, TM_DIRECT_OOM_ERROR_MESSAGE); flink-runtime .../entrypoint/ClusterEntryPointExceptionUtils.java (JobManager, with heap)',
    versions:
      'Flink 1.11+ (TaskManager: metaspace, direct); JobManager heap/metaspace/direct later (first release not confirmed here)',
    examples: [
      'The metaspace out-of-memory error has occurred. This can mean two things: either the job requires a larger size of JVM metaspace to load classes or there is a class loading leak.',
    ],
  },
  {
    name: "Flink's explanation of a direct-memory OutOfMemoryError",
    kind: 'oom.direct',
    source:
      'apache/flink flink-core/src/main/java/org/apache/flink/util/TaskManagerExceptionUtils.java (TM_DIRECT_OOM_ERROR_MESSAGE)',
    versions: 'Flink 1.11+',
    examples: [
      "Direct buffer memory. The direct out-of-memory error has occurred. This can mean two things: either job(s) require(s) a larger size of JVM direct memory or there is a direct memory leak. The direct memory can be allocated by user code or some of its dependencies. In this case 'taskmanager.memory.task.off-heap.size' configuration option should be increased.",
    ],
  },
  {
    name: "Flink's explanation of a JobManager heap OutOfMemoryError",
    kind: 'oom.java-heap',
    source:
      'apache/flink flink-runtime/src/main/java/org/apache/flink/runtime/entrypoint/ClusterEntryPointExceptionUtils.java',
    versions: 'Flink JobManager (ClusterEntryPointExceptionUtils; first release not confirmed here)',
    examples: [
      "A heap space-related out-of-memory error has occurred. This can mean two things: either Flink Master requires a larger size of JVM heap space or there is a memory leak. In the first case, 'jobmanager.memory.heap.size' can be used to increase the amount of available heap memory.",
    ],
  },
  {
    name: 'unable to create native thread',
    kind: 'oom.native-thread',
    source: `${HOTSPOT}/prims/jvm.cpp (JVM_StartThread)`,
    versions:
      'JDK 8 ("unable to create new native thread"), JDK 11+ ("unable to create native thread: possibly out of memory or process/resource limits reached")',
    examples: [
      'java.lang.OutOfMemoryError: unable to create new native thread',
      'java.lang.OutOfMemoryError: unable to create native thread: possibly out of memory or process/resource limits reached',
    ],
  },
  {
    name: 'requested array size exceeds VM limit',
    kind: 'oom.array-size',
    source: `${HOTSPOT}/oops/arrayKlass.cpp (check_array_allocation_length)`,
    versions: 'JDK 6+',
    examples: ['java.lang.OutOfMemoryError: Requested array size exceeds VM limit'],
  },
  {
    name: 'Spark execution memory not granted to a task',
    kind: 'oom.java-heap',
    source: `${SPARK_MEMORY}/MemoryConsumer.java (throwOom), TaskMemoryManager.java; error class UNABLE_TO_ACQUIRE_MEMORY (common/utils/src/main/resources/error/error-conditions.json)`,
    versions:
      'Spark 1.6-2.2 (java.lang.OutOfMemoryError), 2.3-3.2 (SparkOutOfMemoryError), 3.3+ ([UNABLE_TO_ACQUIRE_MEMORY])',
    examples: [
      'java.lang.OutOfMemoryError: Unable to acquire 16777216 bytes of memory, got 0',
      'org.apache.spark.memory.SparkOutOfMemoryError: Unable to acquire 65536 bytes of memory, got 0',
      'org.apache.spark.memory.SparkOutOfMemoryError: [UNABLE_TO_ACQUIRE_MEMORY] Unable to acquire 262144 bytes of memory, got 172032.',
    ],
  },
  {
    name: 'Spark SQL: not enough memory to build and broadcast the table',
    kind: 'oom.java-heap',
    source:
      'apache/spark sql/core/src/main/scala/org/apache/spark/sql/execution/exchange/BroadcastExchangeExec.scala (relationFuture); sql/catalyst/.../errors/QueryExecutionErrors.scala (notEnoughMemoryToBuildAndBroadcastTableError, 3.2+; table hint 3.4+)',
    versions: 'Spark 2.x-3.x (java.lang.OutOfMemoryError), 3.4+ may wrap it in SparkException',
    examples: [
      'java.lang.OutOfMemoryError: Not enough memory to build and broadcast the table to all worker nodes. As a workaround, you can either disable broadcast by setting spark.sql.autoBroadcastJoinThreshold to -1 or increase the spark driver memory by setting spark.driver.memory to a higher value.',
      'Exception in thread "broadcast-exchange-0" java.lang.OutOfMemoryError: Not enough memory to build and broadcast the table',
      'org.apache.spark.SparkException: [STAGE_MATERIALIZATION_MULTIPLE_FAILURES] Multiple failures (2) in stage materialization:    1. SparkException: Not enough memory to build and broadcast the table to all worker nodes. As a workaround, you can either disable broadcast by setting spark.sql.autoBroadcastJoinThreshold to -1 or increase the spark driver memory by setting spark.driver.memory to a higher value or analyze these tables through: ANALYZE TABLE `spark_catalog`.`default`.`dim` COMPUTE STATISTICS;.',
    ],
  },
  {
    name: 'Spark spill failed (disk), thrown as SparkOutOfMemoryError: not a memory failure',
    kind: 'spark.spill-failed',
    source: `${SPARK_MEMORY}/TaskMemoryManager.java (trySpillAndAcquire); error class SPILL_OUT_OF_MEMORY (3.4+)`,
    versions:
      'Spark 2.3-3.3 ("error while calling spill() on"), 3.4+ ([SPILL_OUT_OF_MEMORY] "Error while calling spill() on")',
    examples: [
      'org.apache.spark.memory.SparkOutOfMemoryError: error while calling spill() on org.apache.spark.util.collection.unsafe.sort.UnsafeExternalSorter@6e6f5e3f : No space left on device',
      'org.apache.spark.memory.SparkOutOfMemoryError: [SPILL_OUT_OF_MEMORY] Error while calling spill() on org.apache.spark.shuffle.sort.ShuffleExternalSorter@1f2a3b4c : No space left on device SQLSTATE: 53200',
    ],
  },
  {
    name: "the JVM's report before it runs -XX:OnOutOfMemoryError",
    kind: 'oom.jvm-unspecified',
    source: `${HOTSPOT}/utilities/vmError.cpp (VM_ReportJavaOutOfMemory::doit); docs.aws.amazon.com Glue "Debugging a driver OOM exception"`,
    versions: 'JDK 6-21+',
    examples: ['# -XX:OnOutOfMemoryError="kill -9 %p"', '# -XX:OnOutOfMemoryError="kill %p"'],
  },
  {
    name: 'any other OutOfMemoryError (Map failed, vendor subclasses, no message)',
    kind: 'oom.jvm-unspecified',
    source: 'openjdk/jdk sun/nio/ch/FileChannelImpl.java ("Map failed"); OutOfMemoryError subclasses',
    versions: 'JDK 6+',
    examples: [
      'Caused by: java.lang.OutOfMemoryError: Map failed',
      'java.lang.OutOfMemoryError',
      'Terminating due to java.lang.OutOfMemoryError',
    ],
  },
  {
    name: "an application's own memory limit (Presto/Trino)",
    kind: 'oom.app-memory-limit',
    source: 'trinodb/trino core/trino-main/src/main/java/io/trino/ExceededMemoryLimitException.java',
    versions: 'Presto 0.1xx+, Trino',
    examples: [
      'io.trino.ExceededMemoryLimitException: Query exceeded per-node memory limit of 1GB [Allocated: 1023.99MB, Delta: 1.66kB, Top Consumers: {HashAggregationOperator=1023.99MB}]',
      'com.facebook.presto.ExceededMemoryLimitException: Query exceeded distributed user memory limit of 20GB',
      'Query 20240101_000000_00001_abcde failed: EXCEEDED_LOCAL_MEMORY_LIMIT',
    ],
  },
];
