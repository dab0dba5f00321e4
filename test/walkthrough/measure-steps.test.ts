import { describe, expect, it } from 'vitest';
import { loadPlaybooks, PLAYBOOKS_DIR } from '../../src/playbooks/load.ts';
import { createRecord, transition } from '../../src/walkthrough/machine.ts';
import { readMeasurement } from '../../src/walkthrough/measurement-units.ts';
import type { Procedure, Step } from '../../src/walkthrough/procedure-schema.ts';
import type { WalkthroughRecord } from '../../src/walkthrough/record.ts';
import { AT } from './helpers.ts';

type Measurement = Extract<Step, { kind: 'measurement' }>;

/**
 * Each measurement step with its metric as the tool really shows it, what it reads as, and the step
 * it leads to. Sources:
 * - AWS Glue docs, "Monitoring AWS Glue using Amazon CloudWatch metrics"
 *   (awsdocs/aws-glue-developer-guide doc_source/monitoring-awsglue-with-cloudwatch-metrics.md):
 *   glue.driver.jvm.heap.usage / glue.ALL.jvm.heap.usage are "the fraction of memory used by the JVM
 *   heap (scale: 0-1)", with Unit: Percentage. So CloudWatch shows 0.93 for 93%.
 * - Spark UI (core/src/main/resources/org/apache/spark/ui/static/utils.js): durations print as
 *   "ms", "s", "min", "h" and sizes as "KiB", "MiB", "GiB"; executorspage.js marks an executor red
 *   when totalGCTime > 0.1 * totalDuration (both milliseconds in the REST ExecutorSummary).
 * - Flink (TaskExecutorProcessUtils.logTaskExecutorConfiguration, MemorySize.toHumanReadableString):
 *   "JVM Overhead:                192.000mb (201326592 bytes)".
 * - Captured here (test/cli/fixtures/SOURCES.md): jstat -gcutil's O column 55.70 after a full GC,
 *   `ls /proc/<pid>/task | wc -l` printing 61, tracemalloc.get_traced_memory() (104100928, 104101160).
 * - Spark's error "Total size of serialized results of N tasks (... MiB) is bigger than
 *   spark.driver.maxResultSize", and spark.executor.cores on the Environment tab: plain counts.
 */
const REAL: Readonly<Record<string, readonly [typed: string, shown: string, next: string][]>> = {
  'glue-heap-oom/driver-heap': [
    ['0.93', '93% (ratio 0.93)', 'driver-collect'],
    ['0.85', '85% (ratio 0.85)', 'driver-collect'],
    ['93%', '93% (ratio 0.93)', 'driver-collect'],
    ['85', '85% (ratio 0.85)', 'driver-collect'],
    ['0.42', '42% (ratio 0.42)', 'stragglers'],
  ],
  'glue-heap-oom/skew-ratio': [
    ['512.0 MiB / 64.0 MiB', '8x', 'skew'],
    ['96.0 MiB / 64.0 MiB', '1.5x', 'broadcast'],
  ],
  'glue-heap-oom/check-heap': [
    // The reported defect: 0.85 read as 0.85% ended "The fix holds".
    ['0.85', '85% (ratio 0.85)', 'still-at-risk'],
    ['0.75', '75% (ratio 0.75)', 'check-stragglers'],
    ['80%', '80% (ratio 0.8)', 'check-stragglers'],
  ],
  'jvm-oom/after-gc': [
    ['55.70', '55.7%', 'allocation-spike'],
    ['85.2', '85.2%', 'histogram'],
  ],
  'jvm-oom/thread-count': [
    ['61', '61', 'thread-limits'],
    ['4,112', '4112', 'thread-leak'],
  ],
  'spark-driver-result-size/task-count': [
    ['1029', '1029', 'raise-limit'],
    ['120000', '120000', 'fewer-tasks'],
  ],
  'spark-executor-overhead-killed/cores': [
    ['4', '4', 'native-libs'],
    ['8', '8', 'fewer-cores'],
  ],
  'spark-heap-oom/partition-skew': [
    ['1.2 GiB / 100.0 MiB', '12.29x', 'skew'],
    ['2', '2x', 'can-grow'],
  ],
  'spark-heap-oom/gc-time': [
    ['7.8 min / 1.2 h', '10.83%', 'tune-gc'],
    ['468000 / 4320000', '10.83%', 'tune-gc'],
    ['2.1 min / 1.2 h', '2.92%', 'fewer-cores'],
    ['4%', '4%', 'fewer-cores'],
  ],
  'flink-container-oom-killed/overhead': [
    ['192.000mb (201326592 bytes)', '192 MiB', 'raise-jvm-overhead'],
    ['JVM Overhead:                192.000mb (201326592 bytes)', '192 MiB', 'raise-jvm-overhead'],
    ['1.000gb (1073741824 bytes)', '1024 MiB', 'nmt-diff'],
  ],
  'flink-jvm-oom/state-size': [
    ['1.2 GB', '1.2 GiB', 'state-on-heap'],
    ['536870912 bytes', '0.5 GiB', 'histogram'],
  ],
  'beam-python-leak/heap-or-native': [
    ['104100928 / 150000000', '69.4% (ratio 0.694)', 'python-trace'],
    ['0.2', '20% (ratio 0.2)', 'memray'],
  ],
};

const PLAYBOOKS = loadPlaybooks(PLAYBOOKS_DIR);

const STEPS = PLAYBOOKS.flatMap((p) =>
  ((p.procedure as Procedure | undefined)?.steps ?? [])
    .filter((s): s is Measurement => s.kind === 'measurement')
    .map((step) => ({ key: `${p.id}/${step.id}`, step, playbook: p })),
);

function atStep(key: string): WalkthroughRecord {
  const found = STEPS.find((s) => s.key === key);
  const procedure = found?.playbook.procedure as Procedure | undefined;
  if (!found || !procedure) throw new Error(`no measurement step ${key}`);
  const { playbook, step } = found;
  const record = createRecord({
    id: 'local-test-abc123',
    workspace: 'local',
    conversation: 'test',
    playbook: { id: playbook.id, version: 'v1', title: playbook.title },
    procedure,
    owner: 'U1',
    at: AT,
  });
  return { ...record, current: step.id, version: 1 };
}

it('has the real form of every measurement step of every playbook', () => {
  expect(STEPS.length).toBeGreaterThanOrEqual(12);
  expect(Object.keys(REAL).sort()).toEqual(STEPS.map((s) => s.key).sort());
});

describe.each(Object.entries(REAL))('%s', (key, rows) => {
  it.each(rows)('"%s" reads as %s and leads to %s', (typed, shown, next) => {
    const step = STEPS.find((s) => s.key === key)?.step as Measurement;
    const read = readMeasurement(typed, step.unit);
    expect(read).toMatchObject({ ok: true, shown });
    const result = transition(
      atStep(key),
      { type: 'measure', value: read.ok ? read.value : Number.NaN },
      {
        actor: 'U1',
        at: AT,
      },
    );
    expect(result.ok ? result.record.path.at(-1)?.next : result.error.message).toBe(next);
  });
});

describe('what the Glue heap step refuses', () => {
  it.each([
    ['150', /outside 0 to 1 \(0% to 100%\)/],
    ['0,85', /has a comma: write decimals with a dot/],
    ['-0.2', /outside/],
    ['0.85 GiB', /is not a share/],
    ['', /is empty/],
  ])('"%s"', (typed, message) => {
    const read = readMeasurement(typed, 'ratio');
    expect(read.ok).toBe(false);
    expect(read.ok ? '' : read.error).toMatch(message);
    expect(read.ok ? '' : read.error).toContain('type a ratio from 0 to 1 as the metric shows it (0.85)');
  });
});
