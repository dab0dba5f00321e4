import { describe, expect, it } from 'vitest';
import { WEAK_CONFIDENCE } from '../../src/engine/diagnose.ts';
import { diagnoseText } from '../../src/engine/index.ts';
import { loadPlaybooks } from '../../src/playbooks/load.ts';

const playbooks = loadPlaybooks();

async function top(lines: readonly string[]) {
  const { report } = await diagnoseText('test', lines.join('\n'), playbooks);
  return report.diagnoses[0];
}

// A JobManager's task transitions (Execution.transitionState, as a Flink batch job's log quotes them)
// and the bare TimeoutException Flink 1.5-1.13's FutureUtils$Timeout throws (Alibaba Cloud's Flink FAQ).
const SCHEDULED =
  '15:33:57,537 INFO  org.apache.flink.runtime.executiongraph.ExecutionGraph       [] - DataSink (collect()) (1/1) (1feb48784b233306f550eda82cf1b5e9) switched from CREATED to SCHEDULED.';
const DEPLOYING =
  '15:33:57,602 INFO  org.apache.flink.runtime.executiongraph.ExecutionGraph       [] - DataSink (collect()) (1/1) (1feb48784b233306f550eda82cf1b5e9) switched from SCHEDULED to DEPLOYING.';
const TIMEOUT = [
  'java.util.concurrent.TimeoutException',
  '  at org.apache.flink.runtime.concurrent.FutureUtils$Timeout.run(FutureUtils.java:834)',
  '  at java.util.concurrent.Executors$RunnableAdapter.call(Executors.java:511)',
];

// Flink 1.5-1.6.2 failed a batch job whose slot request timed out with a bare TimeoutException
// (FLINK-10883); the timeout says slots only together with tasks waiting in SCHEDULED.
describe("Flink 1.5-1.9's bare slot request timeout", () => {
  it('with tasks waiting in SCHEDULED it is flink-pending-slots', async () => {
    const diagnosis = await top([SCHEDULED, ...TIMEOUT]);
    expect(diagnosis?.playbook).toBe('flink-pending-slots');
    expect(diagnosis?.confidence).toBeGreaterThanOrEqual(WEAK_CONFIDENCE);
  });

  it('alone it is no diagnosis: many futures time out', async () => {
    expect(await top(TIMEOUT)).toBeUndefined();
  });

  it('when tasks did get slots it is weak, and says what would confirm it', async () => {
    const diagnosis = await top([SCHEDULED, DEPLOYING, ...TIMEOUT]);
    expect(diagnosis?.playbook).toBe('flink-pending-slots');
    expect(diagnosis?.confidence).toBeLessThan(WEAK_CONFIDENCE);
    expect(diagnosis?.actions[0]).toContain(
      'still SCHEDULED when it fired (none of them switched to DEPLOYING) would confirm',
    );
  });
});
