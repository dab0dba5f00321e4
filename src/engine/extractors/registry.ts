import { configValues } from './config-values.ts';
import { containerKill } from './container-kill.ts';
import { withDataFamilies } from './data-families.ts';
import { dataflowWorker } from './dataflow-worker.ts';
import { engineMarkers } from './engine-markers.ts';
import { exitCodes } from './exit-codes.ts';
import { flinkMemory } from './flink-memory.ts';
import { flinkSlots } from './flink-slots.ts';
import { jdkVersion } from './jdk-version.ts';
import { jvmNativeAlloc } from './jvm-native-alloc.ts';
import { jvmOom } from './jvm-oom.ts';
import { k8sEvents } from './k8s-events.ts';
import { memoryReport } from './memory-report.ts';
import { osOomKiller } from './os-oom-killer.ts';
import { pythonMemory } from './python-memory.ts';
import { runtimeVersions } from './runtime-versions.ts';
import { sparkExecutorLoss } from './spark-executor-loss.ts';
import { sparkResultSize } from './spark-result-size.ts';
import { stackCauses } from './stack-causes.ts';
import type { Extractor } from './types.ts';
import { yarnCgroups } from './yarn-cgroups.ts';

/** The extractors as written, by id. Adding one: one file, one line here. */
const WRITTEN: Readonly<Record<string, Extractor>> = {
  'jvm-oom': jvmOom,
  'jvm-native-alloc': jvmNativeAlloc,
  'python-memory': pythonMemory,
  'container-kill': containerKill,
  'yarn-cgroups': yarnCgroups,
  'exit-codes': exitCodes,
  'os-oom-killer': osOomKiller,
  'spark-result-size': sparkResultSize,
  'spark-executor-loss': sparkExecutorLoss,
  'flink-slots': flinkSlots,
  'flink-memory': flinkMemory,
  'k8s-events': k8sEvents,
  'dataflow-worker': dataflowWorker,
  'memory-report': memoryReport,
  'engine-markers': engineMarkers,
  'jdk-version': jdkVersion,
  'runtime-versions': runtimeVersions,
  'config-values': configValues,
  'stack-causes': stackCauses,
};

/**
 * Every extractor the engine runs, by id, each with the message families kept as data for it
 * (src/engine/extractors/families/*.yaml): adding a family to an existing extractor is data only.
 */
export const EXTRACTORS: Readonly<Record<string, Extractor>> = Object.fromEntries(
  Object.entries(WRITTEN).map(([id, extractor]) => [id, withDataFamilies(extractor)]),
);
