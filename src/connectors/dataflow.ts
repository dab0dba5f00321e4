import type { dataflow_v1b3 } from 'googleapis/build/src/apis/dataflow/v1b3.js';
import { ConnectorError } from '../errors.ts';
import { withinDeadline } from './bounded.ts';
import { type DataflowCall, dataflowCall, dataflowClient, requestOptions } from './dataflow-call.ts';
import { jobCitations, jobText, messageCitations, messagesText, metricCitations } from './dataflow-cite.ts';
import type { DataflowTarget } from './dataflow-config.ts';
import { fetchWorkerMemory, memoryCitations, memoryText } from './dataflow-memory.ts';
import { serially } from './http.ts';
import { resourceNamed } from './resource.ts';
import type { Connector, Fetched, FetchRequest, ResourceSpec } from './types.ts';

/** What one resource answered: the call made (for the record), the text and the cited fields. */
interface Answer {
  path: string;
  body: string;
  paste: string;
  citations: string[];
}

interface DataflowResource extends ResourceSpec {
  get(jobId: string, target: DataflowTarget, now: Date): Promise<Answer>;
}

/**
 * Dataflow job ids: the creation time then a number ("2024-06-19_09_43_07-14927685200167458422",
 * as jobs.get answers in gcpdiag's recorded responses and the Dataflow console shows).
 */
const JOB_ID = /^\d{4}-\d{2}-\d{2}_\d{2}_\d{2}_\d{2}-\d{1,20}$/;
export const JOB_ID_EXAMPLE = '2024-06-19_09_43_07-14927685200167458422';

/** The importance the messages are read from: errors only, as the issue asks (enum of the v1b3 API). */
export const MINIMUM_IMPORTANCE = 'JOB_MESSAGE_ERROR';
/** Messages per page asked for; the API may answer fewer, and says when there are more. */
const PAGE_SIZE = 100;

const where = (jobId: string, t: DataflowTarget) =>
  `projects/${t.project}/locations/${t.location}/jobs/${jobId}`;

function call(method: string, permission: string, jobId: string, t: DataflowTarget, command: string) {
  return { method, permission, what: `job ${jobId} in project ${t.project}, region ${t.location}`, command };
}

const getCall = (jobId: string, t: DataflowTarget): DataflowCall =>
  call(
    'jobs.get',
    'dataflow.jobs.get',
    jobId,
    t,
    `gcloud dataflow jobs describe ${jobId} --project ${t.project} --region ${t.location} --format=json`,
  );

async function getJob(jobId: string, target: DataflowTarget) {
  const client = await dataflowClient(target);
  const params = {
    projectId: target.project,
    location: target.location,
    jobId,
    view: 'JOB_VIEW_DESCRIPTION',
  };
  return dataflowCall(getCall(jobId, target), target, () =>
    client.projects.locations.jobs.get(params, requestOptions(target)),
  );
}

/** Every page of error messages, following nextPageToken up to maxPages. */
async function listMessages(jobId: string, target: DataflowTarget) {
  const client = await dataflowClient(target);
  const listed = call(
    'jobs.messages.list',
    'dataflow.messages.list',
    jobId,
    target,
    `gcloud dataflow logs list ${jobId} --project ${target.project} --region ${target.location} --importance=error --format=json`,
  );
  const messages: dataflow_v1b3.Schema$JobMessage[] = [];
  let pageToken: string | undefined;
  let pages = 0;
  do {
    const params = {
      projectId: target.project,
      location: target.location,
      jobId,
      minimumImportance: MINIMUM_IMPORTANCE,
      pageSize: PAGE_SIZE,
      ...(pageToken ? { pageToken } : {}),
    };
    const page = await dataflowCall(listed, target, () =>
      client.projects.locations.jobs.messages.list(params, requestOptions(target)),
    );
    pages++;
    messages.push(...(page.jobMessages ?? []));
    pageToken = page.nextPageToken ?? undefined;
  } while (pageToken && pages < target.maxPages);
  return { messages, pages, more: Boolean(pageToken) };
}

const resources: Record<string, DataflowResource> = {
  job: {
    what: 'job',
    ids: ['jobId'],
    parser: 'dataflow-messages',
    async get(jobId, target) {
      const job = await getJob(jobId, target);
      const text = jobText(job);
      return {
        path: `jobs.get ${where(jobId, target)}`,
        body: text,
        paste: text,
        citations: jobCitations(job),
      };
    },
  },
  messages: {
    what: 'error messages of the job',
    ids: ['jobId'],
    parser: 'dataflow-messages',
    async get(jobId, target) {
      const { messages, pages, more } = await listMessages(jobId, target);
      return {
        path: `jobs.messages.list ${where(jobId, target)} minimumImportance=${MINIMUM_IMPORTANCE}`,
        body: JSON.stringify({ jobMessages: messages }, null, 2),
        paste: messagesText(messages),
        citations: messageCitations(messages, pages, more),
      };
    },
  },
  metrics: {
    what: 'metrics of the job',
    ids: ['jobId'],
    async get(jobId, target) {
      const client = await dataflowClient(target);
      const params = { projectId: target.project, location: target.location, jobId };
      const asked = call(
        'jobs.getMetrics',
        'dataflow.metrics.get',
        jobId,
        target,
        `gcloud dataflow metrics list ${jobId} --project ${target.project} --region ${target.location} --format=json`,
      );
      const metrics = await dataflowCall(asked, target, () =>
        client.projects.locations.jobs.getMetrics(params, requestOptions(target)),
      );
      const text = JSON.stringify(metrics, null, 2);
      return {
        path: `jobs.getMetrics ${where(jobId, target)}`,
        body: text,
        // Counters and element counts, nothing a paste step reads: cited, not judged.
        paste: '',
        citations: metricCitations(metrics),
      };
    },
  },
  memory: {
    what: "workers' memory of the job (Cloud Monitoring)",
    ids: ['jobId'],
    parser: 'cloud-monitoring-series',
    empty:
      "Cloud Monitoring holds no worker memory points for the job over its run (worker/memory/bytes_used and container_limit answered {}): the job may have had no workers yet, or its points may have aged out of Monitoring's retention",
    // The job's name and run bound the series asked for, so jobs.get comes first.
    async get(jobId, target, now) {
      const job = await getJob(jobId, target);
      const memory = await fetchWorkerMemory(job, target, now);
      const text = memoryText(memory);
      const { start, end } = memory.window;
      return {
        path: `jobs.get ${where(jobId, target)}, timeSeries.list projects/${target.project} dataflow.googleapis.com/worker/memory/{bytes_used,container_limit} job_name=${job.name} ${start.toISOString()}..${end.toISOString()}`,
        body: text,
        paste: text,
        citations: memoryCitations(memory),
      };
    },
  },
};

function checkedJobId(request: FetchRequest): string {
  const jobId = request.ids?.jobId ?? '';
  if (!JOB_ID.test(jobId))
    throw new ConnectorError(
      `Dataflow: "${jobId}" is not a job id (expected something like ${JOB_ID_EXAMPLE}).`,
    );
  return jobId;
}

/** Google Cloud Dataflow, read-only, through Google's generated v1b3 client (googleapis). */
export const dataflowConnector: Connector<DataflowTarget> = {
  name: 'dataflow',
  title: 'Google Cloud Dataflow',
  resources,
  checkIds(request) {
    resourceNamed('Dataflow', resources, request.resource);
    checkedJobId(request);
  },
  async fetch(request, context): Promise<Fetched> {
    const resource = resourceNamed('Dataflow', resources, request.resource);
    const jobId = checkedJobId(request);
    const target = context.target;
    const now = context.now?.() ?? new Date();
    // One answer at a time per project and region, and one deadline for all its calls and pages.
    const answer = await serially(`dataflow:${target.project}:${target.location}`, () =>
      withinDeadline(target.timeoutMs, () => resource.get(jobId, target, now)),
    );
    const fetchedAt = (context.now?.() ?? new Date()).toISOString();
    return {
      resource: request.resource,
      from: { connector: 'dataflow', path: answer.path, fetchedAt },
      body: answer.body,
      paste: answer.paste,
      ...(resource.parser ? { parser: resource.parser } : {}),
      citations: answer.citations,
    };
  },
};
