import { describe, expect, it } from 'vitest';
import { SPARK_YARN_APP, sparkFake, yarnFake } from '../connectors/fakes/systems.ts';
import { targetFor, useFake } from '../connectors/support.ts';
import { runRealConsole } from './console-harness.ts';

/** On YARN (1), the limit not known (3: read the diagnostics). */
const TO_DIAGNOSTICS = ['walk spark-executor-overhead-killed', '1', '3'];
/** JVM code only (2), no off-heap memory (2). */
const TO_CORES = ['2', '2'];
/** No native libraries (2). */
const TO_CONCLUSION = ['2'];

describe('console: a Spark executor killed on YARN, fetched from the ResourceManager and the History Server', () => {
  // YARN's docs sample, a finished application whose diagnostics are empty, under the Spark application's id;
  // Spark's executors with one removed by YARN for memory, and the application's settings.
  const yarn = useFake(() => yarnFake('yarn/app-docs-finished.json', SPARK_YARN_APP));
  const spark = useFake(() => sparkFake(undefined, 'spark/assembled-allexecutors-removed-for-memory.json'));
  const connectors = () => ({ yarn: targetFor(yarn.url), spark: targetFor(spark.url) });

  it('reaches the conclusion with no paste: the kill from allexecutors, the cores from /environment', async () => {
    const out = await runRealConsole(
      [
        ...TO_DIAGNOSTICS,
        `fetch ${SPARK_YARN_APP}`,
        ...TO_CORES,
        // The application id given for the kill serves the settings too.
        'fetch',
        ...TO_CONCLUSION,
        'transcript',
      ],
      connectors(),
    );
    expect(out).toContain(
      'or type `fetch <appId>` to fetch it from YARN ResourceManager or Spark History Server',
    );
    expect(out).toContain('or type `fetch` to fetch it from Spark History Server');
    expect(out).not.toContain('or type `fetch <appId>` to fetch it from Spark History Server');
    // The removed executor's reason, cited from the fetched list, and judged as the pasted line.
    expect(out).toContain(
      '[2].removeReason = Container killed by YARN for exceeding memory limits. 5.5 GB of 5.5 GB physical memory used.',
    );
    expect(out).toContain('YARN killed the container for physical memory: 5.5 GB used of 5.5 GB');
    expect(out).toContain('environment.sparkProperties.spark.executor.cores = 1');
    expect(out).toContain('## Conclusion: The memory overhead is too small');
    expect(out).toMatch(
      new RegExp(`Fetched from spark: GET /api/v1/applications/${SPARK_YARN_APP}/allexecutors at \\d{4}-`),
    );
    expect(out).toMatch(
      new RegExp(`Fetched from spark: GET /api/v1/applications/${SPARK_YARN_APP}/environment at \\d{4}-`),
    );
    expect(yarn.fake.seen.map((s) => s.path)).toEqual([`/ws/v1/cluster/apps/${SPARK_YARN_APP}`]);
    expect(spark.fake.seen.map((s) => s.path)).toEqual([
      `/api/v1/applications/${SPARK_YARN_APP}/allexecutors`,
      `/api/v1/applications/${SPARK_YARN_APP}/environment`,
    ]);
  });

  it('unconfigured, the steps offer no fetch and nothing is requested', async () => {
    const out = await runRealConsole([...TO_DIAGNOSTICS, 'status']);
    expect(out).not.toContain('fetch it from');
    expect(yarn.fake.seen).toEqual([]);
    expect(spark.fake.seen).toEqual([]);
  });
});
