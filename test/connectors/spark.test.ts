import { afterEach, describe, expect, it } from 'vitest';
import { sparkConnector } from '../../src/connectors/spark.ts';
import { parseText } from '../../src/engine/parsers/parse-text.ts';
import { fixture, type RestFake } from './fakes/rest-fake.ts';
import { SPARK_APP, SPARK_YARN_APP, sparkFake } from './fakes/systems.ts';
import { FIXED_NOW, targetFor } from './support.ts';

describe('Spark connector against a fake History Server answering real responses', () => {
  let fake: RestFake;
  afterEach(async () => {
    expect(fake.violations).toEqual([]);
    await fake.stop();
  });
  async function fetchFrom(file: string | undefined, resource: string, appId = SPARK_APP) {
    fake = sparkFake(file);
    const url = await fake.start();
    return sparkConnector.fetch({ resource, ids: { appId } }, { target: targetFor(url), now: FIXED_NOW });
  }

  it('fetches allexecutors and judges it as the pasted list is judged', async () => {
    const got = await fetchFrom(undefined, 'executors');
    expect(got.from.path).toBe(`/api/v1/applications/${SPARK_APP}/allexecutors`);
    const paste = fixture('spark/executor-memory-usage-allexecutors.json');
    const judged = parseText('spark-executors', got.paste);
    expect(judged).toEqual(parseText('spark-executors', paste));
    expect(judged.values).toMatchObject({ executors: 4, removedForMemory: 0, hasPeakMetrics: false });
    expect(got.citations).toEqual([]);
  });

  it('cites the peak memory metrics of Spark 3', async () => {
    const got = await fetchFrom('spark/executor-metrics-allexecutors-trimmed.json', 'executors');
    expect(got.citations).toContain('[2].peakMemoryMetrics.JVMHeapMemory = 495 MB (executor 4)');
    expect(parseText('spark-executors', got.paste).values).toMatchObject({ peakJvmHeapBytes: 726805712 });
  });

  it('cites the process tree by the names Spark releases send, with Python workers apart', async () => {
    const got = await fetchFrom('spark/allexecutors-process-tree-metrics.json', 'executors');
    expect(got.citations).toContain('[1].peakMemoryMetrics.ProcessTreeJVMRSSMemory = 387 MB (executor 9)');
    expect(got.citations).toContain(
      '[1].peakMemoryMetrics.ProcessTreePythonRSSMemory = 65.8 MB (executor 9)',
    );
    expect(got.citations).toContain('[1].peakMemoryMetrics.ProcessTreeOtherRSSMemory = 0 B (executor 9)');
    expect(parseText('spark-executors', got.paste).values).toMatchObject({ peakProcessRssBytes: 474873856 });
  });

  it('cites zeros Spark sent while processTreeMetrics was off as not measured (Spark 3.0 on Kubernetes)', async () => {
    const got = await fetchFrom(
      'spark/allexecutors-wave-operator-spark-3.0-process-tree-off.json',
      'executors',
    );
    expect(got.citations).toContain(
      '[0].peakMemoryMetrics.ProcessTreeJVMRSSMemory = 0 (not measured: spark.executor.processTreeMetrics.enabled is off) (executor 1)',
    );
    expect(got.citations).toContain('[0].peakMemoryMetrics.JVMHeapMemory = 474 MB (executor 1)');
    expect(got.citations.join('\n')).not.toMatch(/RSSMemory = 0 B/);
    expect(parseText('spark-executors', got.paste).values).toMatchObject({ processTreeMeasured: false });
  });

  it('does not cite the all-zero peaks of a real History Server answer as "peak JVM heap 0 B"', async () => {
    const got = await fetchFrom('spark/allexecutors-all-zero-peaks-exclude-on-failure.json', 'executors');
    expect(got.citations).toContain('[1].peakMemoryMetrics.JVMHeapMemory = 0 (not measured) (executor 3)');
    expect(got.citations.join('\n')).not.toMatch(/= 0 B/);
    const judged = parseText('spark-executors', got.paste);
    expect(judged.values).toMatchObject({ executors: 4, hasPeakMetrics: true, peakMetricsMeasured: false });
    expect(judged.summary).toContain(
      'peak memory metrics all 0: sent without being measured, so the peaks are unknown',
    );
  });

  it('cites why an executor was removed', async () => {
    const got = await fetchFrom('spark/assembled-allexecutors-removed-for-memory.json', 'executors');
    expect(got.citations).toEqual([
      '[2].removeReason = Container killed by YARN for exceeding memory limits. 5.5 GB of 5.5 GB physical memory used. Consider boosting spark.yarn.executor.memoryOverhead. (executor 2)',
    ]);
    expect(parseText('spark-executors', got.paste).verdict).toBe('1 executor(s) removed for memory');
  });

  it('cites the resource profiles of a Spark 3.1+ /environment, memory in MiB', async () => {
    fake = sparkFake();
    fake.override('environment', { body: fixture('spark/environment-multiple-resource-profiles.json') });
    const url = await fake.start();
    const got = await sparkConnector.fetch(
      { resource: 'environment', ids: { appId: SPARK_APP } },
      { target: targetFor(url), now: FIXED_NOW },
    );
    expect(got.citations.slice(0, 3)).toEqual([
      'environment.resourceProfiles[0] (id 0).executorResources.cores = 1',
      'environment.resourceProfiles[0] (id 0).executorResources.memory = 1024 MiB',
      'environment.resourceProfiles[1] (id 1).executorResources.cores = 4',
    ]);
    expect(parseText('spark-environment', got.paste).values).toMatchObject({
      executorMemoryBytes: 1024 ** 3,
    });
  });

  it('fetches the environment and cites only memory settings (this application set none)', async () => {
    const got = await fetchFrom(undefined, 'environment');
    expect(got.parser).toBe('spark-environment');
    expect(JSON.parse(got.body).sparkProperties).toHaveLength(26);
    expect(got.citations).toEqual([]);
  });

  it('judges a fetched environment as the pasted `curl .../environment`, sizes in Spark units', async () => {
    const got = await fetchFrom(undefined, 'environment', SPARK_YARN_APP);
    expect(got.from.path).toBe(`/api/v1/applications/${SPARK_YARN_APP}/environment`);
    const judged = parseText('spark-environment', got.paste);
    const pasted = parseText('spark-environment', fixture('spark/converted-environment-yarn-24630151.json'));
    expect(judged).toEqual(pasted);
    expect(judged.values).toMatchObject({
      executorCores: 1,
      executorMemoryBytes: 2 * 1024 ** 3,
      offHeapEnabled: false,
    });
    expect(got.citations).toEqual([
      'environment.sparkProperties.spark.driver.cores = 1',
      'environment.sparkProperties.spark.driver.memory = 2G (2 GB)',
      'environment.sparkProperties.spark.executor.cores = 1',
      'environment.sparkProperties.spark.executor.memory = 2G (2 GB)',
    ]);
  });

  it('says which application was not found', async () => {
    await expect(fetchFrom(undefined, 'executors', 'app-20990101000000-0001')).rejects.toThrow(
      'Spark History Server has no application with that id (executors) (404 for GET /api/v1/applications/app-20990101000000-0001/allexecutors)',
    );
  });
});
