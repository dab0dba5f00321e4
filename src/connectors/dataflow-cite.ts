import type { dataflow_v1b3 } from 'googleapis/build/src/apis/dataflow/v1b3.js';

type Job = dataflow_v1b3.Schema$Job;
type JobMessage = dataflow_v1b3.Schema$JobMessage;
type JobMetrics = dataflow_v1b3.Schema$JobMetrics;

/** The lines that say what killed a worker, cited first (the families the engine's extractors read). */
const TELLING =
  /lost contact with the service|Out of memory|OutOfMemory|MemoryError|SDK harness .{0,40}disconnected|OOM|memory scaling limit/i;

const cut = (text: string, n = 300) => {
  const line = text.split('\n')[0] ?? '';
  return line.length > n ? `${line.slice(0, n - 3)}...` : line;
};

/** The job as `gcloud dataflow jobs describe --format=json` prints it: the API's JSON. */
export function jobText(job: Job): string {
  return JSON.stringify(job, null, 2);
}

/** The fields of a job a diagnosis cites: state, type, the SDK and its support, the workers' machines. */
export function jobCitations(job: Job): string[] {
  const out = [`job.currentState = ${job.currentState ?? 'unknown'}`];
  if (job.type) out.push(`job.type = ${job.type}`);
  const sdk = job.jobMetadata?.sdkVersion;
  if (sdk)
    out.push(
      `job.jobMetadata.sdkVersion = ${[sdk.versionDisplayName, sdk.version].filter(Boolean).join(' ')}${sdk.sdkSupportStatus ? ` (${sdk.sdkSupportStatus})` : ''}`,
    );
  for (const bug of sdk?.bugs ?? [])
    out.push(
      `job.jobMetadata.sdkVersion.bugs: ${[bug.type, bug.severity, bug.uri].filter(Boolean).join(' ')}`,
    );
  const agent = job.environment?.userAgent as { name?: unknown; version?: unknown } | undefined;
  if (!sdk && typeof agent?.name === 'string')
    out.push(`job.environment.userAgent = ${agent.name} ${String(agent.version ?? '')}`.trim());
  (job.environment?.workerPools ?? []).forEach((pool, i) => {
    if (pool.machineType) out.push(`job.environment.workerPools[${i}].machineType = ${pool.machineType}`);
  });
  return out;
}

/**
 * The messages as Beam's DataflowRunner logs them while it waits for a job ("<time>:
 * <importance>: <text>"), so a fetched answer reads as the launcher's output a person pastes.
 */
export function messagesText(messages: readonly JobMessage[]): string {
  return messages
    .map((m) => `${m.time ?? ''}: ${m.messageImportance ?? ''}: ${m.messageText ?? ''}`)
    .join('\n');
}

/** How many messages were read and over what span, and the first that says what killed a worker. */
export function messageCitations(messages: readonly JobMessage[], pages: number, more: boolean): string[] {
  if (messages.length === 0) return ['jobMessages: none at JOB_MESSAGE_ERROR or above'];
  const span = `from ${messages[0]?.time ?? '?'} to ${messages.at(-1)?.time ?? '?'}`;
  const out = [
    `jobMessages: ${messages.length} at JOB_MESSAGE_ERROR or above ${span}, ${pages} page(s)${more ? ' (more pages not read: dataflow.maxPages)' : ''}`,
  ];
  const index = messages.findIndex((m) => TELLING.test(m.messageText ?? ''));
  if (index >= 0) out.push(`jobMessages[${index}].messageText = ${cut(messages[index]?.messageText ?? '')}`);
  return out;
}

/** A metric as a person reads it: its origin and name, with the step it was counted in when it has one. */
function metricName(update: dataflow_v1b3.Schema$MetricUpdate): string {
  const name = update.name;
  const step = name?.context?.step ?? name?.context?.original_name;
  return `${name?.origin ?? '?'}/${name?.name ?? '?'}${step ? `[${step}]` : ''}`;
}

/** How many metrics the job reported and when; those about memory, named with their values. */
export function metricCitations(metrics: JobMetrics): string[] {
  const updates = metrics.metrics ?? [];
  const out = [`metrics: ${updates.length} update(s) at ${metrics.metricTime ?? 'an unknown time'}`];
  for (const update of updates) {
    if (!/memory|heap|oom/i.test(update.name?.name ?? '')) continue;
    out.push(`${metricName(update)} = ${JSON.stringify(update.scalar ?? update.gauge ?? null)}`);
  }
  return out;
}
