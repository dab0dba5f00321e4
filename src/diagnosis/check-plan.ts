import type { ConnectorName } from '../connectors/config.ts';
import { podToCheck } from '../connectors/kubernetes-cite.ts';
import type { Fetched, FetchRequest } from '../connectors/types.ts';
import { attemptIdOf, lastAttemptOf } from '../connectors/yarn.ts';
import type { EngineHint } from '../engine/index.ts';
import { UsageError } from '../errors.ts';

/** What `check <system> [<id>]` fetches, in which order, and which answers are read as one input. */
export interface Plan {
  hint?: EngineHint;
  requests: FetchRequest[];
  /** What to fetch next with ids the first answers gave (YARN: the last attempt's containers). */
  next?: (fetched: readonly Fetched[]) => FetchRequest[];
  /**
   * Resources diagnosed as one input, as a person pastes them together into one `diagnose` (Glue:
   * the run, whose worker type sizes the fix, and its error log); the others are diagnosed one by one.
   */
  together?: readonly string[];
}

/** The containers of the application's last attempt, once /appattempts has named it. */
function yarnContainers(appId: string) {
  return (fetched: readonly Fetched[]): FetchRequest[] => {
    const attempts = fetched.find((a) => a.resource === 'attempts');
    const last = attempts ? lastAttemptOf(JSON.parse(attempts.body)) : undefined;
    if (last === undefined) return [];
    return [{ resource: 'containers', ids: { appId, attemptId: attemptIdOf(appId, last) } }];
  };
}

/**
 * The log of the container that was killed or restarted, once the pod has named it: the previous log
 * of a restarted container, the container's own log when it was not restarted (restartPolicy Never).
 */
function previousLog(pod: string) {
  return (fetched: readonly Fetched[]): FetchRequest[] => {
    const answer = fetched.find((a) => a.resource === 'pod');
    const ended = answer ? podToCheck(JSON.parse(answer.body)) : undefined;
    if (!ended) return [];
    return [{ resource: ended.previous ? 'log' : 'ended-log', ids: { pod, container: ended.container } }];
  };
}

const ID_EXAMPLES: Readonly<Record<Exclude<ConnectorName, 'flink' | 'glue'>, string>> = {
  spark: '<app-id>',
  yarn: '<app-id>',
  kubernetes: '<namespace>/<pod>',
  dataflow: '<job-id>',
};

/** `<job-name>/<run-id>`: the run id never holds a "/", a job name may. */
function glueRun(id: string | undefined): Record<string, string> {
  const at = id?.lastIndexOf('/') ?? -1;
  if (!id || at <= 0 || at === id.length - 1)
    throw new UsageError(
      'check glue needs the job name and the run id, e.g. memdoctor check glue "nightly rollup/jr_0123..."',
    );
  return { jobName: id.slice(0, at), runId: id.slice(at + 1) };
}

function gluePlan(id: string | undefined): Plan {
  const ids = glueRun(id);
  return {
    hint: 'glue',
    requests: ['job-run', 'heap-metrics', 'error-log'].map((resource) => ({ resource, ids })),
    together: ['job-run', 'error-log'],
  };
}

/** What `check <system>` takes as its id, named when it is missing. */
const ID_NEEDED: Readonly<Record<keyof typeof ID_EXAMPLES, string>> = {
  spark: 'the application id',
  yarn: 'the application id',
  kubernetes: 'the pod',
  dataflow: 'the job id',
};

/** The fetches `check <system> [<id>]` makes; a missing or malformed id is a UsageError saying what to type. */
export function planFor({ system, id }: { system: ConnectorName; id?: string }): Plan {
  if (system === 'glue') return gluePlan(id);
  if (system === 'flink') {
    // The job's exceptions name what failed in it (an OutOfMemoryError), read as a pasted trace is.
    const job = id ? ['job', 'exceptions'].map((resource) => ({ resource, ids: { jobId: id } })) : [];
    return { hint: 'flink', requests: [{ resource: 'overview' }, { resource: 'taskmanagers' }, ...job] };
  }
  if (!id)
    throw new UsageError(
      `check ${system} needs ${ID_NEEDED[system]}, e.g. memdoctor check ${system} ${ID_EXAMPLES[system]}`,
    );
  if (system === 'kubernetes')
    return {
      requests: ['pod', 'events'].map((resource) => ({ resource, ids: { pod: id } })),
      next: previousLog(id),
    };
  if (system === 'dataflow')
    return {
      // memory: the workers' memory from Cloud Monitoring, charted against the containers' limits.
      requests: ['job', 'messages', 'metrics', 'memory'].map((resource) => ({
        resource,
        ids: { jobId: id },
      })),
      // The job names the SDK release; its messages say what killed the workers: one input, as pasted.
      together: ['job', 'messages'],
    };
  if (system === 'spark')
    return {
      hint: 'spark',
      requests: ['executors', 'environment'].map((resource) => ({ resource, ids: { appId: id } })),
    };
  return {
    requests: ['app', 'attempts'].map((resource) => ({ resource, ids: { appId: id } })),
    next: yarnContainers(id),
  };
}
