import { describe, expect, it } from 'vitest';
import { diagnoseText } from '../../src/engine/index.ts';
import { loadPlaybooks } from '../../src/playbooks/load.ts';

const playbooks = loadPlaybooks();

async function playbooksFor(text: string): Promise<string[]> {
  const { report } = await diagnoseText('test', text, playbooks);
  return report.diagnoses.map((d) => d.playbook);
}

// The job server's own start-up lines, as Beam's Python SDK relays them (apache_beam/utils/subprocess_server.py
// prefixes each line the Java job server prints), then a Flink TaskExecutor's heap OutOfMemoryError.
const JOB_SERVER = [
  'INFO:apache_beam.utils.subprocess_server:Apr 18, 2025 9:50:17 PM org.apache.beam.runners.jobsubmission.JobServerDriver createJobServer',
  'INFO:apache_beam.utils.subprocess_server:INFO: JobService started on localhost:45805',
];
const FLINK_OOM = [
  '2025-04-18 21:52:03,114 ERROR org.apache.flink.runtime.taskexecutor.TaskExecutor - Fatal error occurred in TaskExecutor.',
  'java.lang.OutOfMemoryError: Java heap space',
];

// The corpus labels a Flink cluster embedded in a Beam job server as the job server's (jvm-oom), the
// way it labels any JVM system without a playbook of its own.
describe("a Beam job server's embedded Flink", () => {
  it('is the job server: jvm-oom, not flink-jvm-oom', async () => {
    const found = await playbooksFor([...JOB_SERVER, ...FLINK_OOM].join('\n'));
    expect(found[0]).toBe('jvm-oom');
    expect(found).not.toContain('flink-jvm-oom');
  });

  it('without the job server lines the same error is a Flink cluster', async () => {
    expect((await playbooksFor(FLINK_OOM.join('\n')))[0]).toBe('flink-jvm-oom');
  });
});
