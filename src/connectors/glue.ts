import { ConnectorError } from '../errors.ts';
import { withinDeadline } from './bounded.ts';
import type { GlueTarget } from './glue-config.ts';
import { errorLogCitations, errorLogGroup, errorLogText, fetchErrorLog } from './glue-error-log.ts';
import { fetchHeapMetrics, heapCitations, metricDataText } from './glue-heap-metrics.ts';
import { fetchJobRun, jobRunCitations, jobRunText, type RunIds } from './glue-job-run.ts';
import { serially } from './http.ts';
import { resourceNamed } from './resource.ts';
import type { Connector, Fetched, FetchRequest, ResourceSpec } from './types.ts';

/** What one resource answered: the calls made (for the record), the text and the cited fields. */
interface Answer {
  path: string;
  body: string;
  paste: string;
  citations: string[];
}

interface GlueResource extends ResourceSpec {
  get(ids: RunIds, target: GlueTarget, now: Date): Promise<Answer>;
}

// The API's own patterns (GetJobRun: JobName and RunId are single-line strings of 1 to 255
// characters); a run id is "jr_" and 64 hex digits, "_attempt_<n>" for a retry.
const JOB_NAME = /^[\t\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]{1,255}$/u;
const RUN_ID = /^jr_[0-9a-f]{64}(_attempt_\d{1,3})?$/;
export const RUN_ID_EXAMPLE = 'jr_012e176506505074d94d761755e5c62538ee1aad6f17d39f527e9140cf0c9a5e';

const runPath = (ids: RunIds) => `GetJobRun JobName=${ids.jobName} RunId=${ids.runId}`;

const resources: Record<string, GlueResource> = {
  'job-run': {
    what: 'job run',
    ids: ['jobName', 'runId'],
    async get(ids, target) {
      const run = await fetchJobRun(ids, target);
      const text = jobRunText(run);
      return { path: runPath(ids), body: text, paste: text, citations: jobRunCitations(run) };
    },
  },
  'heap-metrics': {
    what: 'heap metrics of the run',
    ids: ['jobName', 'runId'],
    parser: 'cloudwatch-metrics',
    // The run's start and end bound the metrics asked for, so GetJobRun comes first.
    async get(ids, target, now) {
      const run = await fetchJobRun(ids, target);
      const metrics = await fetchHeapMetrics(ids, run, target, now);
      const text = metricDataText(metrics.results);
      const window = `${metrics.start.toISOString()}..${metrics.end.toISOString()}`;
      return {
        path: `${runPath(ids)}, GetMetricData Glue glue.{driver,ALL}.jvm.heap.{usage,used} JobRunId=${ids.runId} ${window}`,
        body: text,
        paste: text,
        citations: heapCitations(metrics.results, run, metrics.period, metrics.cut),
      };
    },
  },
  'error-log': {
    what: 'error log of the run',
    ids: ['jobName', 'runId'],
    async get(ids, target) {
      const events = await fetchErrorLog(ids, target);
      const text = errorLogText(events);
      return {
        path: `GetLogEvents ${errorLogGroup(target)}/${ids.runId} (last ${target.logEvents})`,
        body: JSON.stringify({ events }, null, 4),
        paste: text,
        citations: errorLogCitations(events, ids, target),
      };
    },
  },
};

function checkedIds(request: FetchRequest): RunIds {
  const jobName = request.ids?.jobName ?? '';
  const runId = request.ids?.runId ?? '';
  if (!JOB_NAME.test(jobName))
    throw new ConnectorError(`AWS Glue: "${jobName}" is not a job name (1 to 255 characters on one line).`);
  if (!RUN_ID.test(runId))
    throw new ConnectorError(
      `AWS Glue: "${runId}" is not a job run id (expected something like ${RUN_ID_EXAMPLE}).`,
    );
  return { jobName, runId };
}

/** AWS Glue with CloudWatch and CloudWatch Logs, read-only, through the AWS SDK v3 clients. */
export const glueConnector: Connector<GlueTarget> = {
  name: 'glue',
  title: 'AWS Glue',
  resources,
  checkIds(request) {
    resourceNamed('AWS Glue', resources, request.resource);
    checkedIds(request);
  },
  async fetch(request, context): Promise<Fetched> {
    const resource = resourceNamed('AWS Glue', resources, request.resource);
    const now = context.now?.() ?? new Date();
    const ids = checkedIds(request);
    const target = context.target;
    // One answer at a time per account region (never piling onto a throttled API), and one
    // deadline for all its calls, retries and pages.
    const answer = await serially(`aws:${target.region}:${target.profile ?? ''}`, () =>
      withinDeadline(target.timeoutMs, () => resource.get(ids, target, now)),
    );
    const fetchedAt = (context.now?.() ?? new Date()).toISOString();
    return {
      resource: request.resource,
      from: { connector: 'glue', path: answer.path, fetchedAt },
      body: answer.body,
      paste: answer.paste,
      ...(resource.parser ? { parser: resource.parser } : {}),
      citations: answer.citations,
    };
  },
};
