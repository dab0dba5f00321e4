import type { JobRun } from '@aws-sdk/client-glue';
import { ConnectorError } from '../errors.ts';
import { type AwsCall, awsCall } from './aws-call.ts';
import { awsClientConfig, shellQuote } from './aws-clients.ts';
import type { GlueTarget } from './glue-config.ts';

/** A Glue job run's identity: the job's name and the run's id (jr_...). */
export interface RunIds {
  jobName: string;
  runId: string;
}

export function getJobRunCall(ids: RunIds, target: GlueTarget): AwsCall {
  return {
    service: 'AWS Glue',
    operation: 'GetJobRun',
    what: `job run ${ids.runId} of job "${ids.jobName}"`,
    action: 'glue:GetJobRun',
    cli: `aws glue get-job-run --job-name ${shellQuote(ids.jobName)} --run-id ${ids.runId} --region ${target.region}`,
  };
}

/** GetJobRun (JobName, RunId), through the real AWS SDK client. */
export async function fetchJobRun(ids: RunIds, target: GlueTarget): Promise<JobRun> {
  const { GlueClient, GetJobRunCommand } = await import('@aws-sdk/client-glue');
  const client = new GlueClient(awsClientConfig(target, 'glue'));
  try {
    const call = getJobRunCall(ids, target);
    const answer = await awsCall(call, target, (abortSignal) =>
      client.send(new GetJobRunCommand({ JobName: ids.jobName, RunId: ids.runId }), { abortSignal }),
    );
    if (!answer.JobRun)
      throw new ConnectorError(
        `AWS Glue answered GetJobRun without a JobRun; paste the output of \`${call.cli}\` instead.`,
      );
    return answer.JobRun;
  } finally {
    client.destroy();
  }
}

/** The run as `aws glue get-job-run` prints it: the answer's JSON, timestamps in ISO 8601. */
export function jobRunText(run: JobRun): string {
  return JSON.stringify({ JobRun: run }, null, 4);
}

/** Job arguments worth citing for memory: Spark settings (--conf) and memory or worker options. */
const MEMORY_ARGUMENT = /^--(conf|enable-auto-scaling|executor-cores)$|memory/i;

// Units as the Glue API reference gives them (JobRun structure): ExecutionTime in seconds, Timeout
// in minutes, MaxCapacity and AllocatedCapacity in DPUs (4 vCPU and 16 GB each).
/** The fields of a job run a diagnosis cites. */
export function jobRunCitations(run: JobRun): string[] {
  const out = [`JobRun.JobRunState = ${run.JobRunState ?? 'unknown'}`];
  if (run.ErrorMessage) out.push(`JobRun.ErrorMessage = ${run.ErrorMessage.split('\n')[0]?.slice(0, 300)}`);
  const workers = [
    run.WorkerType ? `JobRun.WorkerType = ${run.WorkerType}` : undefined,
    run.NumberOfWorkers !== undefined ? `NumberOfWorkers = ${run.NumberOfWorkers}` : undefined,
    run.MaxCapacity !== undefined ? `MaxCapacity = ${run.MaxCapacity} DPU` : undefined,
    run.GlueVersion ? `GlueVersion = ${run.GlueVersion}` : undefined,
  ].filter(Boolean);
  if (workers.length) out.push(workers.join(', '));
  if (run.ExecutionTime !== undefined) out.push(`JobRun.ExecutionTime = ${run.ExecutionTime} s`);
  for (const [key, value] of Object.entries(run.Arguments ?? {}))
    if (MEMORY_ARGUMENT.test(key) || MEMORY_ARGUMENT.test(value))
      out.push(`JobRun.Arguments["${key}"] = ${value.slice(0, 200)}`);
  return out;
}
