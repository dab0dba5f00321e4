import { describe, expect, it } from 'vitest';
import { check } from '../../src/diagnosis/check.ts';
import { FetchGate } from '../../src/diagnosis/fetch-access.ts';
import { drawChart } from '../../src/engine/charts/index.ts';
import { loadPlaybooks } from '../../src/playbooks/load.ts';
import { SPARK_YARN_APP, sparkFake } from '../connectors/fakes/systems.ts';
import { FIXED_NOW, targetFor, useFake } from '../connectors/support.ts';

const PLAYBOOKS = loadPlaybooks();

// Spark's own History Server test data for application_1506645932520_24630151: its executors' peaks
// (executor_list_with_executor_metrics_json_expectation.json) and its settings (the event log's).
describe("check spark: the executors' peaks drawn against the executor memory the settings give", () => {
  const spark = useFake(() => sparkFake());

  it('reads spark.executor.memory from /environment for the limit the executor list lacks', async () => {
    const result = await check(
      {
        system: 'spark',
        id: SPARK_YARN_APP,
        workspace: 'T1',
        asker: { surface: 'cli', workspace: 'T1', user: 'U1' },
      },
      {
        connectors: { spark: targetFor(spark.url) },
        playbooks: PLAYBOOKS,
        now: FIXED_NOW,
        gate: new FetchGate(undefined),
      },
    );
    const peaks = result.charts?.find((c) => c.kind === 'peaks');
    if (peaks?.kind !== 'peaks') throw new Error('no peaks chart');
    const env = result.fetched.find((a) => a.parser === 'spark-environment')?.judgement?.values;
    expect(peaks.limitBytes).toBe(env?.executorMemoryBytes);
    expect(peaks.limitBytes).toBe(2 * 1024 ** 3);
    expect(peaks.limitLabel).toBe('spark.executor.memory');
    expect(peaks.rows.map((r) => r.label)).toEqual(['executor 3', 'executor 4']);
    expect(drawChart(peaks).alt).toMatch(/Limit: spark\.executor\.memory \d/);
    expect(peaks.note ?? '').not.toContain('no limit is drawn');
  });
});
