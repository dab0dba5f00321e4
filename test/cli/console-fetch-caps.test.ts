import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FLINK_JOB, flinkFake } from '../connectors/fakes/systems.ts';
import { useFake } from '../connectors/support.ts';
import { cli } from './in-process.ts';

/** flink-pending-slots by its answer numbers up to job-slots: not running, only timeouts, waits, TMs up. */
const TO_JOB_SLOTS = ['2', '1', '1', '2'];

/**
 * Issue 35: `memdoctor walk` (the console's walkthroughs) fetches under the caps the operator set
 * (MEMDOCTOR_FETCHES_*), as `check` and the Slack app do, not under the defaults.
 */
describe('memdoctor walk: a step’s fetch under the configured caps', () => {
  const flink = useFake(flinkFake);
  beforeEach(() => {
    const yaml = join(mkdtempSync(join(tmpdir(), 'walk-caps-')), 'connectors.yaml');
    writeFileSync(yaml, `flink: { url: ${flink.url}, timeoutMs: 2000 }\n`);
    vi.stubEnv('MEMDOCTOR_CONNECTORS', yaml);
    vi.stubEnv('REDIS_URL', '');
    vi.stubEnv('OPENAI_API_KEY', '');
    vi.stubEnv('MEMDOCTOR_PLAYBOOKS_DIR', '');
    vi.stubEnv('LOG_LEVEL', 'silent');
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('MEMDOCTOR_FETCHES_PER_USER_PER_MINUTE=1: the second fetch in a minute is refused, naming the cap', async () => {
    vi.stubEnv('MEMDOCTOR_FETCHES_PER_USER_PER_MINUTE', '1');
    const input = [...TO_JOB_SLOTS, `fetch ${FLINK_JOB}`, '1', '1', 'fetch', 'quit', ''].join('\n');
    const { code, out } = await cli(['walk', 'flink-pending-slots'], input);
    expect(code).toBe(0);
    expect(out).toContain(`fetched GET /jobs/${FLINK_JOB} from flink`);
    expect(out).toContain('You started 1 fetches in the last minute');
    expect(out).toContain('each person may start 1 a minute');
    expect(flink.fake.seen.map((s) => s.path)).toEqual(['/overview', `/jobs/${FLINK_JOB}`]);
  });

  it('unset, the default caps let both fetches through', async () => {
    const input = [...TO_JOB_SLOTS, `fetch ${FLINK_JOB}`, '1', '1', 'fetch', 'quit', ''].join('\n');
    const { out } = await cli(['walk', 'flink-pending-slots'], input);
    expect(out).not.toContain('You started');
    expect(flink.fake.seen.map((s) => s.path)).toEqual(['/overview', `/jobs/${FLINK_JOB}`, '/taskmanagers']);
  });
});
