import type { Finding } from '../facts.ts';
import type { Extractor, MessageFamily } from './types.ts';

/** Exit codes that say something about memory, and what they mean where they are seen. */
const MEANINGS: Readonly<Record<string, { meaning: string; memory: 'strong' | 'weak' }>> = {
  '137': {
    meaning: 'killed with SIGKILL (128+9): on YARN and Kubernetes usually a memory kill',
    memory: 'weak',
  },
  '143': {
    meaning: 'stopped with SIGTERM (128+15): YARN sends it when it kills a container',
    memory: 'weak',
  },
  '-103': { meaning: 'YARN killed the container for exceeding its virtual memory limit', memory: 'strong' },
  '-104': { meaning: 'YARN killed the container for exceeding its physical memory limit', memory: 'strong' },
  '52': { meaning: 'a Spark executor exited because of an OutOfMemoryError', memory: 'strong' },
};

// "exit code 137", "Exit code:-103", "exitCode: -104", "exit status: 143", "exited with code 137".
// kubectl aligns its columns: "Exit Code:    137".
// Spark's ExecutorExitCode.explainExitCode puts the code in brackets: "Unknown executor exit code (137)".
const EXIT = /\bexit(?:ed with)?[ _-]?(?:code|status)(?: is)?\s{0,8}[:=]?\s{0,8}\(?(-?\d{1,3})\b/gi;

const FAMILIES: readonly MessageFamily[] = [
  {
    name: 'SIGKILL (128+9), the way YARN, Kubernetes and the OOM killer end a process',
    kind: 'exit.137',
    source:
      'apache/hadoop ContainerExecutor / ContainerLaunch diagnostics ("Container killed on request. Exit code is 137", "Killed by external signal"); apache/spark ExecutorPodsLifecycleManager.scala (describeExitCode "137(SIGKILL, possible container OOM)"); apache/spark core/.../executor/ExecutorExitCode.scala (explainExitCode "Unknown executor exit code (%d) (died from signal %d?)"); kubectl describe; docker compose',
    versions: 'Hadoop 2.x-3.x, Spark 3.x on Kubernetes, Kubernetes 1.x, Docker',
    examples: [
      '[2023-02-27 13:45:18.902]Container killed on request. Exit code is 137',
      'The executor with id 13 exited with exit code 137(SIGKILL, possible container OOM).',
      '      Exit Code:    137',
      'flink_taskmanager_1 exited with code 137',
      ' Exit code:137.',
      'ExecutorLostFailure (executor 2 exited caused by one of the running tasks) Reason: Unknown executor exit code (137) (died from signal 9?)',
    ],
  },
  {
    name: 'SIGTERM (128+15), which YARN sends first when it stops a container',
    kind: 'exit.143',
    source: 'apache/hadoop ContainerLaunch diagnostics; ExitCodeException from Shell.java',
    versions: 'Hadoop 2.x-3.x',
    examples: [
      'Container killed on request. Exit code is 143',
      'Container exited with a non-zero exit code 143',
      'ExitCodeException exitCode=143:',
    ],
  },
  {
    name: 'YARN ContainerExitStatus KILLED_EXCEEDED_PMEM',
    kind: 'exit.-104',
    source:
      'apache/hadoop hadoop-yarn-api/src/main/java/org/apache/hadoop/yarn/api/records/ContainerExitStatus.java (-103, -104); Spark YarnAllocator and Flink YarnResourceManagerDriver print them',
    versions: 'Hadoop 2.x-3.x',
    examples: [
      'ExecutorLostFailure (executor 7 exited caused by one of the running tasks) Reason: Container marked as failed: container_1 on host: h1. Exit status: -104. Diagnostics: Container killed on request.',
      ' Exit code:-104.',
    ],
  },
  {
    name: 'YARN ContainerExitStatus KILLED_EXCEEDED_VMEM',
    kind: 'exit.-103',
    source:
      'apache/hadoop hadoop-yarn-api/src/main/java/org/apache/hadoop/yarn/api/records/ContainerExitStatus.java',
    versions: 'Hadoop 2.x-3.x',
    examples: [
      'Container marked as failed: container_1 on host: h1. Exit status: -103. Diagnostics: Container killed on request.',
    ],
  },
  {
    name: "Spark's executor exit code for an OutOfMemoryError",
    kind: 'exit.52',
    source:
      'apache/spark core/src/main/scala/org/apache/spark/util/SparkExitCode.scala (OOM = 52), ExecutorPodsLifecycleManager.scala ("52(JVM OOM)"), deploy/worker/ExecutorRunner.scala ("Command exited with code 52")',
    versions: 'Spark 1.x-4.x',
    examples: [
      'The executor with id 3 exited with exit code 52(JVM OOM).',
      'ExecutorLostFailure (executor 12 exited caused by one of the running tasks) Reason: Command exited with code 52',
      'Exit status: 52. Diagnostics: Exception from container-launch.',
    ],
  },
];

/** Exit codes of containers and processes that point at memory (137, 143, -103, -104, Spark's 52). */
export const exitCodes: Extractor = {
  id: 'exit-codes',
  description:
    'Exit codes that point at memory: 137/143 kills, YARN -103/-104 memory kills, Spark executor 52',
  triggers: ['exit'],
  extract(line) {
    const findings: Finding[] = [];
    const seen = new Set<string>();
    for (const match of line.matchAll(EXIT)) {
      const code = match[1] ?? '';
      const known = MEANINGS[code];
      if (!known || seen.has(code)) continue;
      seen.add(code);
      findings.push({ kind: `exit.${code}`, values: { code: Number(code), meaning: known.meaning } });
    }
    return findings;
  },
  families: FAMILIES,
  patterns: [EXIT],
};
