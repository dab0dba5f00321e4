import { describe, expect, it } from 'vitest';
import { DF_JOB, dataflowFake, dataflowTargetFor } from '../connectors/fakes/dataflow-fake.ts';
import { useFake } from '../connectors/support.ts';
import { runRealConsole } from './console-harness.ts';

/** beam-python-leak's first question, answered "It runs on Dataflow: read it from the job" (answer 4). */
const TO_DATAFLOW_JOB = ['walk beam-python-leak', '4'];

describe('console: a Beam Python pipeline on Dataflow, fetched from the Dataflow fake', () => {
  const dataflow = useFake(() => dataflowFake());

  it('reaches the conclusion with no paste: the job names a leaking Beam release', async () => {
    const out = await runRealConsole([...TO_DATAFLOW_JOB, `fetch ${DF_JOB}`, 'transcript'], {
      dataflow: dataflowTargetFor(dataflow.url),
    });
    expect(out).toContain('or type `fetch <jobId>` to fetch it from Google Cloud Dataflow');
    expect(out).toContain('## Conclusion: This Beam release leaks memory by itself');
    expect(out).toMatch(/Fetched from dataflow: jobs\.get projects\/.*, jobs\.messages\.list .* at \d{4}-/);
    expect(out).toContain('Verdict: known SDK leak (apache/beam#28246)');
    expect(dataflow.fake.seen.map((s) => new URL(s.path, 'http://x').pathname.split('/').pop())).toEqual([
      DF_JOB,
      'messages',
      'messages',
    ]);
  });

  it('a 403 names the role, and the step still takes a paste', async () => {
    dataflow.fake.override('dataflow.projects.locations.jobs.get', {
      status: 403,
      body: JSON.stringify({
        error: { code: 403, message: 'The caller does not have permission', status: 'PERMISSION_DENIED' },
      }),
    });
    const out = await runRealConsole([...TO_DATAFLOW_JOB, `fetch ${DF_JOB}`, 'status'], {
      dataflow: dataflowTargetFor(dataflow.url),
    });
    expect(out).toContain('which roles/dataflow.viewer grants');
    expect(out).toContain('The step can still be answered by hand.');
    expect(out).toMatch(/Current:\n.*What do the Dataflow job and its error messages say\?/);
  });

  it('unconfigured, the step offers no fetch and nothing is requested', async () => {
    const out = await runRealConsole([...TO_DATAFLOW_JOB, 'status']);
    expect(out).not.toContain('fetch it from');
    expect(dataflow.fake.seen).toEqual([]);
  });
});
