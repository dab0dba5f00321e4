import type { OutputLogEvent } from '@aws-sdk/client-cloudwatch-logs';
import { type AwsCall, awsCall } from './aws-call.ts';
import { awsClientConfig } from './aws-clients.ts';
import type { GlueTarget } from './glue-config.ts';
import type { RunIds } from './glue-job-run.ts';

/**
 * Glue writes a run's driver errors to the stream named after the run id in the group
 * "<LogGroupName>/error", /aws-glue/jobs/error unless the job names another (AWS Glue developer
 * guide, "Logging for AWS Glue jobs"; the run's LogGroupName is /aws-glue/jobs by default).
 */
export const DEFAULT_ERROR_LOG_GROUP = '/aws-glue/jobs/error';

/** The lines that say what killed a run, cited first: an OutOfMemoryError, a container kill, an exit code. */
const TELLING = /OutOfMemoryError|Container killed|killed by|exit code|MemoryError|Java heap space/;

export function errorLogGroup(target: GlueTarget): string {
  return target.logGroup ?? DEFAULT_ERROR_LOG_GROUP;
}

export function getLogEventsCall(ids: RunIds, target: GlueTarget): AwsCall {
  const group = errorLogGroup(target);
  return {
    service: 'CloudWatch Logs',
    operation: 'GetLogEvents',
    what: `error log stream ${ids.runId} in ${group} (a run that logged no error has none, and a job with --continuous-log-logGroup logs elsewhere: set glue.logGroup)`,
    action: 'logs:GetLogEvents',
    cli: `aws logs get-log-events --log-group-name ${group} --log-stream-name ${ids.runId} --no-start-from-head --limit ${target.logEvents} --region ${target.region} --query 'events[].message' --output text`,
  };
}

/** The tail of the run's error stream: the last `logEvents` events, oldest first, in one call. */
export async function fetchErrorLog(ids: RunIds, target: GlueTarget): Promise<OutputLogEvent[]> {
  const { CloudWatchLogsClient, GetLogEventsCommand } = await import('@aws-sdk/client-cloudwatch-logs');
  const client = new CloudWatchLogsClient(awsClientConfig(target, 'logs'));
  try {
    const input = {
      logGroupName: errorLogGroup(target),
      logStreamName: ids.runId,
      limit: target.logEvents,
      // From the end: the events before a failure are the ones that explain it.
      startFromHead: false,
    };
    const answer = await awsCall(getLogEventsCall(ids, target), target, (abortSignal) =>
      client.send(new GetLogEventsCommand(input), { abortSignal }),
    );
    return answer.events ?? [];
  } finally {
    client.destroy();
  }
}

/** What a person copies from the stream: each event's message, one after the other. */
export function errorLogText(events: readonly OutputLogEvent[]): string {
  // trimEnd, not /\n+$/: that regex is quadratic on a long run of newlines.
  return events.map((e) => (e.message ?? '').trimEnd()).join('\n');
}

// OutputLogEvent.timestamp and ingestionTime are milliseconds since the epoch (CloudWatch Logs API).
const isoMillis = (ms: number | undefined) => (ms === undefined ? 'unknown' : new Date(ms).toISOString());

/** How many events were read and when, and the first line that tells what happened. */
export function errorLogCitations(
  events: readonly OutputLogEvent[],
  ids: RunIds,
  target: GlueTarget,
): string[] {
  const where = `${errorLogGroup(target)}/${ids.runId}`;
  if (events.length === 0) return [`${where}: no events`];
  const out = [
    `${where}: ${events.length} event(s) from ${isoMillis(events[0]?.timestamp)} to ${isoMillis(events.at(-1)?.timestamp)}`,
  ];
  const index = events.findIndex((e) => TELLING.test(e.message ?? ''));
  if (index >= 0)
    out.push(`events[${index}].message = ${(events[index]?.message ?? '').trim().slice(0, 300)}`);
  return out;
}
