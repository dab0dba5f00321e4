import { describe, expect, it } from 'vitest';
import { WEAK_CONFIDENCE } from '../../src/engine/diagnose.ts';
import { diagnoseText } from '../../src/engine/index.ts';
import { loadPlaybooks } from '../../src/playbooks/load.ts';

const playbooks = loadPlaybooks();

async function top(text: string) {
  const { report } = await diagnoseText('test', text, playbooks);
  return report.diagnoses[0];
}

// Weak families point at memory without showing it; they stay below WEAK_CONFIDENCE and the
// diagnosis opens with what would confirm them.
describe('weak signals give low confidence and say what would confirm them', () => {
  it.each([
    ['spark-heap-oom', 'py4j.protocol.Py4JNetworkError: Answer from Java side is empty', 'driver'],
    [
      'beam-python-leak',
      'Workflow failed. Causes: The job failed because a work item has failed 4 times. Root cause: The worker lost contact with the service.',
      'OOM-killer',
    ],
    [
      'beam-python-leak',
      'Vertical Autoscaling has a desire to upscale memory, but we have hit the memory scaling limit of 26.0 GiB. This is only a problem if the pipeline continues to see memory throttling and/or OOMs.',
      'would confirm',
    ],
    // Flink's FatalExitExceptionHandler exits with -17: YARN reports the byte, 239.
    [
      'flink-jvm-oom',
      '2020-05-05 10:00:00,000 INFO  org.apache.flink.yarn.YarnResourceManager - Closing TaskExecutor connection container_e01_1588672000000_0001_01_000002. Container exited with a non-zero exit code 239. Error file: prelaunch.err.',
      'with an OutOfMemoryError, in that TaskManager',
    ],
    [
      'glue-heap-oom',
      'Logs from /aws-glue/jobs/error indicate the Glue Job is unhealthy! Shutting down...',
      '"OutOfMemoryError:" line',
    ],
  ])('%s from %s', async (playbook, text, confirming) => {
    const diagnosis = await top(text);
    expect(diagnosis?.playbook).toBe(playbook);
    expect(diagnosis?.confidence).toBeLessThan(WEAK_CONFIDENCE);
    expect(diagnosis?.actions[0]).toMatch(/^Low confidence \(\d+%\): /);
    expect(diagnosis?.actions[0]).toContain(confirming);
  });

  it.each([
    [
      'spark-executor-overhead-killed',
      'WARN YarnAllocator: Container killed by YARN for exceeding physical memory limits. 6.6 GB of 6.6 GB physical memory used. Consider boosting spark.executor.memoryOverhead.',
    ],
    ['jvm-oom', 'Could not reserve enough space for 2097152KB object heap'],
    [
      'spark-driver-result-size',
      'WARN Executor: Finished task 17.0 in stage 6.0 (TID 433). Result is larger than maxResultSize (1031.4 KiB > 1024.0 KiB), dropping it.',
    ],
    [
      'beam-python-leak',
      'Vertical Autoscaling has a desire to upscale memory, but we have hit the memory scaling limit of 16.0 GiB. Job will fail because we have upsized to maximum size, and the pipeline is still OOMing.',
    ],
    [
      'flink-pending-slots',
      '2023-07-24 15:32:05,621 WARN  org.apache.flink.runtime.resourcemanager.slotmanager.FineGrainedSlotManager [] - Could not fulfill resource requirements of job 525d55a98516a8918aa77bef5b8e4e64.',
    ],
  ])('a strong family stays strong: %s', async (playbook, text) => {
    const diagnosis = await top(text);
    expect(diagnosis?.playbook).toBe(playbook);
    expect(diagnosis?.confidence).toBeGreaterThanOrEqual(WEAK_CONFIDENCE);
    expect(diagnosis?.actions.some((a) => a.startsWith('Low confidence'))).toBe(false);
  });
});
