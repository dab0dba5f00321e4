import { once } from 'node:events';
import { createWriteStream } from 'node:fs';

/** A failure line buried in the synthetic log, and the literal `grep` looks for. */
export interface Signature {
  id: string;
  /** A literal that only this line contains; the grep baseline searches for it. */
  literal: string;
  /** Where the line goes, as a fraction of the file's size. */
  at: number;
  /** The full line, given its timestamp. */
  line: (ts: string) => string;
}

/** What the generator wrote: enough to check the diagnosis against. */
export interface Manifest {
  seed: number;
  bytes: number;
  lines: number;
  /** 1-based line number of each signature. */
  buried: Record<string, number>;
}

export const SIGNATURES: readonly Signature[] = [
  {
    id: 'yarn-container-kill',
    literal: 'Container killed by YARN for exceeding memory limits. 11.2 GB of 11 GB physical memory used',
    at: 0.13,
    line: (ts) =>
      `${ts} WARN YarnSchedulerBackend$YarnSchedulerEndpoint: Requesting driver to remove executor 17 for reason Container killed by YARN for exceeding memory limits. 11.2 GB of 11 GB physical memory used. Consider boosting spark.executor.memoryOverhead.`,
  },
  {
    id: 'java-heap-oom',
    literal: 'java.lang.OutOfMemoryError: Java heap space',
    at: 0.41,
    line: () => 'java.lang.OutOfMemoryError: Java heap space',
  },
  {
    id: 'spark-result-size',
    literal: 'is bigger than spark.driver.maxResultSize',
    at: 0.67,
    line: (ts) =>
      `${ts} ERROR TaskSetManager: Total size of serialized results of 2572 tasks (1062.8 MiB) is bigger than spark.driver.maxResultSize (1024.0 MiB)`,
  },
  {
    id: 'flink-no-resources',
    literal: 'NoResourceAvailableException: Could not acquire the minimum required resources',
    at: 0.89,
    line: (ts) =>
      `${ts} ERROR org.apache.flink.runtime.jobmaster.JobMaster [] - org.apache.flink.runtime.jobmanager.scheduler.NoResourceAvailableException: Could not acquire the minimum required resources.`,
  },
];

/** mulberry32: a tiny seeded PRNG, so the same seed always writes the same bytes. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Noise {
  private readonly random: () => number;
  private seconds = 0;
  tid = 0;

  constructor(seed: number) {
    this.random = prng(seed);
  }

  int(max: number): number {
    return Math.floor(this.random() * max);
  }

  chance(p: number): boolean {
    return this.random() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }

  /** Spark's log4j time, advancing a little per line. */
  sparkTs(): string {
    this.seconds += this.random() * 0.02;
    const s = Math.floor(this.seconds);
    const pad = (n: number) => String(n).padStart(2, '0');
    return `24/03/01 ${pad(10 + (Math.floor(s / 3600) % 14))}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}`;
  }

  isoTs(): string {
    return `2024-03-01 ${this.sparkTs().slice(9)},${String(this.int(1000)).padStart(3, '0')}`;
  }

  host(): string {
    return `ip-10-0-${this.int(16)}-${this.int(250)}.ec2.internal`;
  }

  hex(length: number): string {
    let out = '';
    while (out.length < length) out += this.int(0x100000000).toString(16).padStart(8, '0');
    return out.slice(0, length);
  }
}

const FRAMES = [
  'at sun.nio.ch.FileDispatcherImpl.read0(Native Method)',
  'at sun.nio.ch.IOUtil.readIntoNativeBuffer(IOUtil.java:223)',
  'at io.netty.buffer.PooledByteBuf.setBytes(PooledByteBuf.java:253)',
  'at io.netty.channel.nio.AbstractNioByteChannel$NioByteUnsafe.read(AbstractNioByteChannel.java:151)',
  'at io.netty.channel.nio.NioEventLoop.run(NioEventLoop.java:493)',
  'at org.apache.spark.network.util.TransportFrameDecoder.channelRead(TransportFrameDecoder.java:102)',
  'at org.apache.spark.scheduler.Task.run(Task.scala:141)',
  'at org.apache.spark.executor.Executor$TaskRunner.run(Executor.scala:620)',
  'at java.util.concurrent.ThreadPoolExecutor.runWorker(ThreadPoolExecutor.java:1149)',
  'at java.lang.Thread.run(Thread.java:750)',
];

/** One ordinary log record (one or more lines): INFO/WARN of Spark, YARN and Flink, stack traces, long lines. */
function record(n: Noise): string {
  const roll = n.int(1000);
  const ts = n.sparkTs();
  const stage = n.int(60);
  const task = n.int(2000);
  if (roll < 260)
    return `${ts} INFO TaskSetManager: Finished task ${task}.0 in stage ${stage}.0 (TID ${n.tid++}) in ${n.int(9000)} ms on ${n.host()} (executor ${n.int(40)}) (${task}/2000)`;
  if (roll < 420) return `${ts} INFO Executor: Running task ${task}.0 in stage ${stage}.0 (TID ${n.tid++})`;
  if (roll < 520)
    return `${ts} INFO BlockManagerInfo: Added broadcast_${n.int(90)}_piece0 in memory on ${n.host()}:${30000 + n.int(9000)} (size: ${n.int(900)}.${n.int(10)} KiB, free: ${n.int(5000)}.${n.int(10)} MiB)`;
  if (roll < 600)
    return `${ts} INFO MemoryStore: Block rdd_${n.int(400)}_${task} stored as values in memory (estimated size ${n.int(900)}.${n.int(10)} KiB, free ${n.int(5000)}.${n.int(10)} MiB)`;
  if (roll < 660)
    return `${ts} INFO ShuffleBlockFetcherIterator: Getting ${n.int(2000)} (${n.int(900)}.${n.int(10)} MiB) non-empty blocks including ${n.int(40)} (${n.int(90)}.0 MiB) local and 0 (0.0 B) host-local and ${n.int(2000)} remote blocks`;
  if (roll < 700) return `${ts} INFO CodeGenerator: Code generated in ${n.int(400)}.${n.int(1000)} ms`;
  if (roll < 780)
    return `${n.isoTs()} INFO org.apache.hadoop.yarn.server.nodemanager.containermanager.monitor.ContainersMonitorImpl: Memory usage of ProcessTree ${n.int(99999)} for container-id container_e12_1700000000000_0042_01_${String(n.int(999999)).padStart(6, '0')}: ${n.int(10)}.${n.int(10)} GB of 11 GB physical memory used; ${n.int(20)}.${n.int(10)} GB of 23.1 GB virtual memory used`;
  if (roll < 820)
    return `${n.isoTs()} INFO org.apache.hadoop.yarn.server.nodemanager.containermanager.container.ContainerImpl: Container container_e12_1700000000000_0042_01_${String(n.int(999999)).padStart(6, '0')} transitioned from LOCALIZED to RUNNING`;
  if (roll < 880)
    return `${n.isoTs()} INFO  org.apache.flink.runtime.checkpoint.CheckpointCoordinator [] - Completed checkpoint ${n.int(90000)} for job ${n.hex(32)} (${n.int(99999999)} bytes, checkpointDuration=${n.int(9000)} ms, finalizationTime=${n.int(9)} ms).`;
  if (roll < 920)
    return `${n.isoTs()} INFO  org.apache.flink.runtime.taskexecutor.TaskExecutor [] - Received task Source: Kafka -> Map (${n.int(64)}/64)#0 (${n.hex(32)}), deploy into slot with allocation id ${n.hex(32)}.`;
  if (roll < 960)
    return `[${n.int(90000)}.${n.int(1000)}s][info][gc] GC(${n.int(99999)}) Pause Young (Normal) (G1 Evacuation Pause) ${n.int(4000)}M->${n.int(900)}M(8192M) ${n.int(90)}.${n.int(1000)}ms`;
  if (roll < 985)
    return `${ts} WARN NativeCodeLoader: Unable to load native-hadoop library for your platform... using builtin-java classes where applicable`;
  if (roll < 998) {
    const frames = Array.from({ length: 8 + n.int(20) }, () => `\t${n.pick(FRAMES)}`);
    return [
      `${ts} WARN TransportChannelHandler: Exception in connection from /${n.host()}:${n.int(60000)}`,
      'java.io.IOException: Connection reset by peer',
      ...frames,
    ].join('\n');
  }
  // A long line: a classpath or a configuration dump, 2 to 40 KB.
  const jars = Array.from(
    { length: 20 + n.int(400) },
    () => `/usr/lib/spark/jars/lib-${n.hex(12)}-${n.int(9)}.${n.int(20)}.jar`,
  );
  return `${ts} INFO Client: classpath: ${jars.join(':')}`;
}

/**
 * One record of the realistic profile: ordinary scheduling, shuffle, checkpoint and container
 * lifecycle lines with no memory wording, and about 2% benign memory wording (a block stored in
 * memory, a YARN memory report, a young GC pause), as a healthy job's logs mostly are.
 */
function realisticRecord(n: Noise): string {
  const roll = n.int(1000);
  if (roll < 20) return record(n); // ~2%: the synthetic mix, where most records carry memory words
  const ts = n.sparkTs();
  const stage = n.int(60);
  const task = n.int(2000);
  if (roll < 300)
    return `${ts} INFO TaskSetManager: Starting task ${task}.0 in stage ${stage}.0 (TID ${n.tid++}) (${n.host()}, executor ${n.int(40)}, partition ${task}, PROCESS_LOCAL, ${4000 + n.int(4000)} bytes) taskResourceAssignments Map()`;
  if (roll < 520)
    return `${ts} INFO TaskSetManager: Finished task ${task}.0 in stage ${stage}.0 (TID ${n.tid++}) in ${n.int(9000)} ms on ${n.host()} (executor ${n.int(40)}) (${task}/2000)`;
  if (roll < 600)
    return `${ts} INFO DAGScheduler: Submitting ${n.int(2000)} missing tasks from ShuffleMapStage ${stage} (MapPartitionsRDD[${n.int(400)}] at parquet at Job.scala:${n.int(300)}) (first 15 tasks are for partitions Vector(0, 1, 2, 3, 4))`;
  if (roll < 680)
    return `${ts} INFO MapOutputTrackerMasterEndpoint: Asked to send map output locations for shuffle ${n.int(90)} to ${n.host()}:${30000 + n.int(9000)}`;
  if (roll < 760)
    return `${n.isoTs()} INFO org.apache.hadoop.yarn.server.nodemanager.containermanager.container.ContainerImpl: Container container_e12_1700000000000_0042_01_${String(n.int(999999)).padStart(6, '0')} transitioned from LOCALIZED to RUNNING`;
  if (roll < 840)
    return `${n.isoTs()} INFO  org.apache.flink.runtime.executiongraph.ExecutionGraph [] - Source: Kafka -> Map (${n.int(64)}/64) (${n.hex(32)}) switched from DEPLOYING to RUNNING.`;
  if (roll < 900)
    return `${n.isoTs()} INFO  org.apache.flink.runtime.checkpoint.CheckpointCoordinator [] - Triggering checkpoint ${n.int(90000)} (type=CheckpointType{name='Checkpoint', sharingFilesStrategy=FORWARD_BACKWARD}) @ ${1700000000000 + n.int(99999999)} for job ${n.hex(32)}.`;
  if (roll < 950)
    return `${n.isoTs()} INFO org.apache.hadoop.hdfs.StateChange: BLOCK* allocate blk_${1073741825 + n.int(9999999)}_${n.int(99999)}, replicas=10.0.${n.int(16)}.${n.int(250)}:9866 for /user/spark/out/part-${String(task).padStart(5, '0')}.parquet`;
  if (roll < 990)
    return `${ts} INFO FileOutputCommitter: Saved output of task 'attempt_${n.hex(12)}_${stage}_m_${task}_0' to s3://bucket/out/_temporary/0/task_${task}`;
  return `${ts} WARN TaskSetManager: Stage ${stage} contains a task of very large size (${n.int(9000)} KiB). The maximum recommended task size is 1000 KiB.`;
}

/**
 * One line of the ordinary memory wording a healthy Spark, YARN or Flink job prints, in the shapes
 * those systems print (numbers drawn): storage-level INFO lines of the MemoryStore and the
 * BlockManager, YARN's container memory readings, GC pauses, and heap settings printed at start-up.
 * Where each shape was taken from (real logs pasted into issue threads):
 * - MemoryStore "stored as values/bytes in memory": intel/BigDL#1071, JohnSnowLabs/spark-nlp#923;
 *   "MemoryStore started with capacity": apache/spark core/.../storage/memory/MemoryStore.scala
 * - BlockManagerInfo "Added rdd_... in memory", "Removed broadcast_... in memory": intel/ipex-llm#2619,
 *   h2oai/sparkling-water#1446
 * - ContainersMonitorImpl "Memory usage of ProcessTree": microsoft/pai#1159
 * - "[GC (Allocation Failure) [PSYoungGen: ...]": chewiebug/GCViewer#161, apache/skywalking#2969
 * - Flink start-up ("Maximum heap size: 494 MiBytes", "JVM Options:", "-Xms424m"): dmlc/xgboost#1290,
 *   apache/flink#1062; "Loading configuration property: taskmanager.memory.process.size, 1728m":
 *   j3-signalroom/apache_flink-kickstarter#517; "Requesting new TaskExecutor container with resource
 *   TaskExecutorProcessSpec {...}": apache/flink#21128
 */
function memoryWording(n: Noise): string {
  const roll = n.int(100);
  const ts = n.sparkTs();
  const size = () => `${n.int(900)}.${n.int(10)} ${n.pick(['B', 'KB', 'MB'])}`;
  const free = () => `${n.int(5000)}.${n.int(10)} ${n.pick(['MB', 'GB'])}`;
  if (roll < 22)
    return `${ts} INFO MemoryStore: Block broadcast_${n.int(90)} stored as values in memory (estimated size ${size()}, free ${free()})`;
  if (roll < 36)
    return `${ts} INFO MemoryStore: Block broadcast_${n.int(90)}_piece0 stored as bytes in memory (estimated size ${size()}, free ${free()})`;
  if (roll < 50)
    return `${ts} INFO BlockManagerInfo: Added rdd_${n.int(400)}_${n.int(2000)} in memory on ${n.host()}:${30000 + n.int(9000)} (size: ${size()}, free: ${free()})`;
  if (roll < 58)
    return `${ts} INFO BlockManagerInfo: Removed broadcast_${n.int(90)}_piece0 on ${n.host()}:${30000 + n.int(9000)} in memory (size: ${size()}, free: ${free()})`;
  if (roll < 60)
    return `${ts} INFO MemoryStore: MemoryStore started with capacity ${n.int(5000)}.${n.int(10)} MB`;
  if (roll < 74)
    return `${n.isoTs()} INFO monitor.ContainersMonitorImpl: Memory usage of ProcessTree ${n.int(99999)} for container-id container_e02_1531732078765_0387_01_${String(n.int(999999)).padStart(6, '0')}: ${n.int(900)}.${n.int(10)} MB of 17 GB physical memory used; ${n.int(900)}.${n.int(10)} MB of 35.7 GB virtual memory used`;
  if (roll < 90) {
    const young = 200000 + n.int(60000);
    return `2016-02-09T00:23:47.395-0500: ${n.int(9000)}.${n.int(1000)}: [GC (Allocation Failure) [PSYoungGen: ${young}K->${n.int(40000)}K(295424K)] ${young + 550000}K->${550000 + n.int(40000)}K(994816K), 0.0${n.int(999999)} secs] [Times: user=0.${n.int(99)} sys=0.0${n.int(9)}, real=0.${n.int(99)} secs]`;
  }
  const flink = `${n.isoTs()} INFO  org.apache.flink.runtime.taskexecutor.TaskManagerRunner          [] -`;
  if (roll < 93) return `${flink}  Maximum heap size: ${256 + n.int(4000)} MiBytes`;
  if (roll < 95) return `${flink}  JVM Options:`;
  if (roll < 97) return `${flink}     -Xms${256 + n.int(4000)}m`;
  if (roll < 99)
    return `${n.isoTs()} INFO  org.apache.flink.configuration.GlobalConfiguration           [] - Loading configuration property: taskmanager.memory.process.size, 1728m`;
  return `${n.isoTs()} INFO  org.apache.flink.yarn.YarnResourceManagerDriver              [] - Requesting new TaskExecutor container with resource TaskExecutorProcessSpec {cpuCores=2.0, frameworkHeapSize=128.000mb (134217728 bytes), frameworkOffHeapSize=128.000mb (134217728 bytes), taskHeapSize=25.600mb (26843542 bytes), taskOffHeapSize=0 bytes, networkMemSize=64.000mb (67108864 bytes), managedMemorySize=230.400mb (241591914 bytes), jvmMetaspaceSize=256.000mb (268435456 bytes), jvmOverheadSize=192.000mb (201326592 bytes), numSlots=2}, priority 1.`;
}

/**
 * The realistic log's ordinary lines with `perMille` of every thousand records replaced by ordinary
 * memory wording (memoryWording): what an uploaded log of a healthy job with caching, YARN's
 * monitor and GC logging on looks like. Its lines hold the words the engine looks for, and none fails.
 */
function denseRecord(perMille: number): (n: Noise) => string {
  return (n) => (n.int(1000) < perMille ? memoryWording(n) : realisticRecord(n));
}

/**
 * Which mix of ordinary lines to write: memory-heavy synthetic (near worst case), realistic, or
 * realistic with 2% or 10% of its lines ordinary memory wording (dense2, dense10).
 */
export type Profile = 'synthetic' | 'realistic' | 'dense2' | 'dense10';

export const PROFILES: readonly Profile[] = ['synthetic', 'realistic', 'dense2', 'dense10'];

const RECORDS: Readonly<Record<Profile, (n: Noise) => string>> = {
  synthetic: record,
  realistic: realisticRecord,
  dense2: denseRecord(20),
  dense10: denseRecord(100),
};

/**
 * Writes `bytes` (roughly) of synthetic mixed log to `path`, burying each signature once at its
 * place. Deterministic: the same seed and size give the same file.
 */
export async function generate(
  path: string,
  bytes: number,
  seed: number,
  profile: Profile = 'synthetic',
): Promise<Manifest> {
  const next = RECORDS[profile];
  const noise = new Noise(seed);
  const out = createWriteStream(path);
  const manifest: Manifest = { seed, bytes: 0, lines: 0, buried: {} };
  const pending = [...SIGNATURES].sort((a, b) => a.at - b.at);
  let chunk: string[] = [];
  let chunkBytes = 0;
  const emit = (text: string) => {
    chunk.push(text);
    chunkBytes += text.length + 1;
    manifest.lines += 1 + (text.match(/\n/g)?.length ?? 0);
  };
  while (manifest.bytes + chunkBytes < bytes) {
    const buried = pending[0];
    if (buried && manifest.bytes + chunkBytes >= buried.at * bytes) {
      pending.shift();
      emit(buried.line(noise.sparkTs()));
      manifest.buried[buried.id] = manifest.lines;
    } else emit(next(noise));
    if (chunkBytes >= 4 * 1024 * 1024) {
      const text = `${chunk.join('\n')}\n`;
      manifest.bytes += Buffer.byteLength(text);
      chunk = [];
      chunkBytes = 0;
      if (!out.write(text)) await once(out, 'drain');
    }
  }
  if (chunk.length > 0) {
    const text = `${chunk.join('\n')}\n`;
    manifest.bytes += Buffer.byteLength(text);
    out.write(text);
  }
  out.end();
  await once(out, 'finish');
  return manifest;
}
