import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseText } from '../../../src/engine/parsers/parse-text.ts';

const read = (file: string) =>
  readFileSync(join(import.meta.dirname, 'fixtures', 'spark-executors', file), 'utf8');
const parse = (file: string) => parseText('spark-executors', read(file));

// Real allexecutors answers of several Spark versions (fixtures/SOURCES.md), each with the judgement it
// must get (issue 35, findings 10 and 14).
describe('spark-executors on the answers of each Spark version', () => {
  it('reads the process tree as released Spark names it (JVM + Python + other RSS, 3.0+)', () => {
    const out = parse('spark-executor-process-tree-metrics.json');
    // Executor 9 only (the driver is not an executor): 405860352 JVM + 69013504 Python + 0 other.
    expect(out.values).toMatchObject({
      executors: 1,
      processTreeMeasured: true,
      peakProcessRssBytes: 405860352 + 69013504,
      peakPythonRssBytes: 69013504,
      peakJvmHeapBytes: 193766856,
    });
    expect(out.summary).toBe(
      '1 executor(s), 1 active, 0 removed; peak JVM heap 185 MB, off-heap 56.3 MB, process RSS 453 MB (Python workers 65.8 MB).',
    );
  });

  it('says the process tree was not measured when Spark sent zeros (processTreeMetrics off, 3.0 on Kubernetes)', () => {
    const out = parse('wave-operator-spark-3.0-k8s-process-tree-off.json');
    expect(out.values).toMatchObject({
      executors: 2,
      removedExecutors: 1,
      removedForMemory: 0,
      peakJvmHeapBytes: 496777336,
      processTreeMeasured: false,
      peakProcessRssBytes: 0,
    });
    expect(out.summary).toBe(
      '2 executor(s), 1 active, 1 removed; peak JVM heap 474 MB, off-heap 108 MB, process RSS not measured (0 unless spark.executor.processTreeMetrics.enabled=true).',
    );
    expect(out.summary).not.toMatch(/process RSS 0/);
  });

  it('says all-zero peaks are unknown, not "peak JVM heap 0 B"', () => {
    // Edge case beside the real answer above: its peaks all 0, as the issue saw Spark 4 send them.
    const zeroed = JSON.parse(read('wave-operator-spark-3.0-k8s-process-tree-off.json')) as {
      peakMemoryMetrics?: Record<string, number>;
    }[];
    for (const e of zeroed)
      for (const key of Object.keys(e.peakMemoryMetrics ?? {}))
        if (e.peakMemoryMetrics) e.peakMemoryMetrics[key] = 0;
    const out = parseText('spark-executors', JSON.stringify(zeroed, null, 2));
    expect(out.values).toMatchObject({
      hasPeakMetrics: true,
      peakMetricsMeasured: false,
      peakJvmHeapBytes: 0,
    });
    expect(out.summary).toBe(
      '2 executor(s), 1 active, 1 removed; peak memory metrics all 0: sent without being measured, so the peaks are unknown.',
    );
    expect(out.summary).not.toContain('0 B');
  });

  it('says the all-zero peaks of a real answer (a History Server of 3.1.1+, Spark 4 too, replaying a log without task peaks) are unknown', () => {
    // Spark's own HistoryServerSuite answer: every executor's peakMemoryMetrics present and all 0,
    // because AppStatusListener.onTaskEnd (SPARK-34005) folds each task end's executor metrics into
    // the executor's peaks, and a task end without "Task Executor Metrics" reads as zeros.
    const out = parse('history-server-all-zero-peaks-exclude-on-failure.json');
    expect(out.values).toMatchObject({
      executors: 4,
      hasPeakMetrics: true,
      peakMetricsMeasured: false,
      processTreeMeasured: false,
      failedTasks: 8,
    });
    expect(out.summary).toBe(
      '4 executor(s), 4 active, 0 removed; peak memory metrics all 0: sent without being measured, so the peaks are unknown.',
    );
    expect(out.summary).not.toMatch(/peak JVM heap 0|0 B/);
    expect(out.chart).toBeUndefined();
  });

  it('does not count the Spark 1.x driver ("<driver>") as an executor', () => {
    const out = parse('spark-1x-executor-list-legacy-driver.json');
    expect(out.values).toMatchObject({
      executors: 0,
      activeExecutors: 0,
      failedTasks: 0,
      maxStorageMemoryBytes: 0,
    });
    expect(out.summary).toMatch(/^0 executor\(s\)/);
  });

  it('keeps reading the one ProcessTreeRSSMemory of Spark test data written before 3.0 was released', () => {
    const out = parse('spark-executor-metrics-trimmed.json');
    expect(out.values).toMatchObject({ processTreeMeasured: true, peakProcessRssBytes: 200000000 });
  });
});
