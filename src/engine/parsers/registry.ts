import { classHistogramParser } from './class-histogram.ts';
import { cloudMonitoringSeriesParser } from './cloud-monitoring-series.ts';
import { cloudwatchMetricsParser } from './cloudwatch-metrics.ts';
import { dataflowMessagesParser } from './dataflow-messages.ts';
import { flinkJobSlotsParser } from './flink-job-slots.ts';
import { flinkResourceProfileParser } from './flink-resource-profile.ts';
import { flinkRestParser } from './flink-rest.ts';
import { flinkSlotFitParser } from './flink-slot-fit.ts';
import { flinkTmMetricsParser } from './flink-tm-metrics.ts';
import { gcLogParser } from './gc-log.ts';
import { javaVersionParser } from './java-version.ts';
import { k8sPodParser } from './k8s-pod.ts';
import { linesParser } from './lines.ts';
import { memorySamplesParser } from './memory-samples.ts';
import { memrayParser } from './memray.ts';
import { nmtParser } from './nmt.ts';
import { pmapParser } from './pmap.ts';
import { sparkEnvironmentParser } from './spark-environment.ts';
import { sparkEventLogParser } from './spark-eventlog.ts';
import { sparkExecutorsParser } from './spark-executors.ts';
import { tracemallocParser } from './tracemalloc.ts';
import type { Parser } from './types.ts';
import { yarnContainerParser } from './yarn-container.ts';

/**
 * Every parser, by id. Adding one: one file, one line here. Detection tries them in this order, so
 * the most specific formats come first and the catch-all memory samples come last (the name list is
 * never auto-detected).
 */
export const PARSERS: Readonly<Record<string, Parser>> = {
  'spark-eventlog': sparkEventLogParser,
  'spark-executors': sparkExecutorsParser,
  'spark-environment': sparkEnvironmentParser,
  'flink-rest': flinkRestParser,
  'flink-tm-metrics': flinkTmMetricsParser,
  'cloudwatch-metrics': cloudwatchMetricsParser,
  'cloud-monitoring-series': cloudMonitoringSeriesParser,
  'k8s-pod': k8sPodParser,
  'dataflow-messages': dataflowMessagesParser,
  nmt: nmtParser,
  'class-histogram': classHistogramParser,
  'gc-log': gcLogParser,
  pmap: pmapParser,
  'java-version': javaVersionParser,
  'yarn-container': yarnContainerParser,
  memray: memrayParser,
  tracemalloc: tracemallocParser,
  'flink-resource-profile': flinkResourceProfileParser,
  'memory-samples': memorySamplesParser,
  lines: linesParser,
  'flink-slot-fit': flinkSlotFitParser,
  'flink-job-slots': flinkJobSlotsParser,
};
