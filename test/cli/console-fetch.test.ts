import { describe, expect, it } from 'vitest';
import { FLINK_JOB, flinkFake } from '../connectors/fakes/systems.ts';
import { targetFor, useFake } from '../connectors/support.ts';
import { runRealConsole } from './console-harness.ts';

/** flink-pending-slots by its answer numbers up to job-slots: not running, only timeouts, waits, TMs up. */
const TO_JOB_SLOTS = ['walk flink-pending-slots', '2', '1', '1', '2'];

describe('console: fetching a step from the Flink fake', () => {
  const flink = useFake(flinkFake);

  it('reaches the conclusion with no paste: job-slots and free-slots are fetched', async () => {
    const out = await runRealConsole(
      [...TO_JOB_SLOTS, `fetch ${FLINK_JOB}`, '1', '1', 'fetch', '1', 'transcript'],
      { flink: targetFor(flink.url) },
    );
    expect(out).toContain('or type `fetch <jobId>` to fetch it from Flink JobManager');
    expect(out).toContain(`fetched GET /jobs/${FLINK_JOB} from flink`);
    expect(out).toContain('or type `fetch` to fetch it from Flink JobManager');
    expect(out).toContain('taskmanagers[0].freeSlots = 8 of slotsNumber = 12');
    expect(out).toContain('## Conclusion: TaskManagers start more slowly than the slot request timeout');
    expect(out).toMatch(/Fetched from flink: GET \/taskmanagers at \d{4}-/);
    expect(flink.fake.seen.map((s) => s.path)).toEqual(['/overview', `/jobs/${FLINK_JOB}`, '/taskmanagers']);
  });

  it('a 503 shows the connector message and the step still takes a paste', async () => {
    flink.fake.override('overview', { status: 503 });
    const out = await runRealConsole([...TO_JOB_SLOTS, `fetch ${FLINK_JOB}`, 'status'], {
      flink: targetFor(flink.url),
    });
    expect(out).toContain('Flink JobManager did not answer (HTTP 503 for GET /overview); paste the output');
    expect(out).toContain('The step can still be answered by hand.');
    expect(out).toMatch(/Current:\n.*Does the cluster have as many slots/);
  });

  it('unconfigured, no step offers a fetch and nothing is requested', async () => {
    const out = await runRealConsole([...TO_JOB_SLOTS, 'status']);
    expect(out).not.toContain('fetch it from');
    expect(flink.fake.seen).toEqual([]);
  });
});
