import { type Answer, byId, fixture, RestFake } from './rest-fake.ts';

export const FLINK_JOB = '1c53a8f1b4937f50456190e884c9f289';
/** The job id of the sample in Flink's REST docs (docs/monitoring/rest_api.md), whose exceptions sample the fake serves. */
export const FLINK_DOCS_JOB = 'ab78dcdbb1db025539e30217ec54ee16';
export const FLINK_TM = '192.168.178.34:58646-64d0d8';
export const SPARK_APP = 'app-20161116163331-0000';
/** The Spark-on-YARN application of Spark's own test event log whose settings the fake's /environment answers. */
export const SPARK_YARN_APP = 'application_1506645932520_24630151';
export const YARN_APP = 'application_1326821518301_0005';
export const YARN_ATTEMPT = 'appattempt_1326821518301_0005_000001';

// Unknown ids get a 404 with no body: the connectors read only the status, and no 404 body was
// copied from a real system.
const NOT_FOUND = '';

const METRICS_FIXTURE = 'flink/assembled-taskmanager-metrics-direct-200m.json';

/**
 * `/taskmanagers/<id>/metrics?get=a,b`: the asked metrics the TaskManager has, in the asked order, as
 * Flink's AbstractMetricsHandler answers; without `get` Flink lists names, which memdoctor never asks.
 * A TaskManager its MetricStore holds nothing of (an unknown id, or metrics not fetched yet) gets an
 * empty MetricCollectionResponseBody, `[]` with 200, not a 404 (AbstractMetricsHandler.handleRequest).
 */
function taskManagerMetrics(fake: RestFake, m: RegExpExecArray, url: URL): Answer {
  const tm = decodeURIComponent(m[1] ?? '');
  const get = url.searchParams.get('get');
  if (!get || get.split(',').some((id) => !/^[\w.]+$/.test(id))) {
    fake.violations.push(`metrics asked with ${url.search}`);
    return { status: 400, body: '' };
  }
  if (tm !== FLINK_TM) return { body: '[]' };
  const known = JSON.parse(fixture(METRICS_FIXTURE)) as { id: string; value: string }[];
  const answer = get.split(',').flatMap((id) => known.filter((k) => k.id === id));
  return { body: JSON.stringify(answer) };
}

/** `/jobs/<id>/exceptions`: the exception history of FLINK_JOB, the docs' legacy sample for FLINK_DOCS_JOB. */
function jobExceptions(m: RegExpExecArray): Answer {
  if (m[1] === FLINK_JOB) return { body: fixture('flink/assembled-exceptions-datasqrl-780-heap.json') };
  if (m[1] === FLINK_DOCS_JOB) return { body: fixture('flink/exceptions-docs-legacy.json') };
  return { status: 404, body: NOT_FOUND };
}

/** The Flink JobManager REST endpoints memdoctor reads (docs/content/docs/ops/rest_api.md). */
export function flinkFake(
  overview = 'flink/overview-sif-flink-1.17.1.json',
  taskManagers = 'flink/taskmanagers-superzhc-yarn.json',
): RestFake {
  const fake: RestFake = new RestFake([
    {
      name: 'overview',
      pattern: /^\/overview$/,
      answer: () => ({ body: fixture(overview) }),
    },
    {
      name: 'taskmanagers',
      pattern: /^\/taskmanagers$/,
      answer: () => ({ body: fixture(taskManagers) }),
    },
    {
      name: 'taskmanager',
      pattern: /^\/taskmanagers\/([^/]+)$/,
      answer: (m) =>
        decodeURIComponent(m[1] ?? '') === FLINK_TM
          ? { body: fixture('flink/taskmanager-detail-flink-13547.json') }
          : { status: 404, body: NOT_FOUND },
    },
    {
      name: 'taskmanager-metrics',
      pattern: /^\/taskmanagers\/([^/]+)\/metrics$/,
      query: ['get'],
      answer: (m, url) => taskManagerMetrics(fake, m, url),
    },
    {
      name: 'job',
      pattern: /^\/jobs\/([0-9a-f]{32})$/,
      answer: byId(FLINK_JOB, 'flink/job-dinky-finished.json', NOT_FOUND),
    },
    {
      // rest_v1_dispatcher: maxExceptions and failureLabelFilter are its query parameters.
      name: 'exceptions',
      pattern: /^\/jobs\/([0-9a-f]{32})\/exceptions$/,
      query: ['maxExceptions', 'failureLabelFilter'],
      answer: jobExceptions,
    },
    {
      name: 'jobmanager-config',
      pattern: /^\/jobmanager\/config$/,
      answer: () => ({ body: fixture('flink/jobmanager-config-flink-1.13.5.json') }),
    },
  ]);
  return fake;
}

/** The answer for whichever of two applications was asked, a 404 for any other. */
function byApp(files: Readonly<Record<string, string>>): (m: RegExpExecArray) => Answer {
  return (m) => {
    const file = files[m[1] ?? ''];
    return file ? { body: fixture(file) } : { status: 404, body: NOT_FOUND };
  };
}

/**
 * Spark's monitoring REST API (docs/monitoring.md, "REST API"): SPARK_APP, and SPARK_YARN_APP with
 * its own settings and, by default, its own executors (`yarnExecutors` serves others under its id).
 */
export function sparkFake(
  executors = 'spark/executor-memory-usage-allexecutors.json',
  yarnExecutors = 'spark/executor-metrics-allexecutors-trimmed.json',
): RestFake {
  return new RestFake([
    {
      name: 'allexecutors',
      pattern: /^\/api\/v1\/applications\/([^/]+)\/allexecutors$/,
      answer: byApp({ [SPARK_APP]: executors, [SPARK_YARN_APP]: yarnExecutors }),
    },
    {
      name: 'environment',
      pattern: /^\/api\/v1\/applications\/([^/]+)\/environment$/,
      answer: byApp({
        [SPARK_APP]: 'spark/environment-trimmed.json',
        [SPARK_YARN_APP]: 'spark/converted-environment-yarn-24630151.json',
      }),
    },
  ]);
}

/** The ResourceManager REST API (hadoop-yarn-site ResourceManagerRest.md); `app` is answered under `appId`. */
export function yarnFake(app = 'yarn/app-docs-finished.json', appId = YARN_APP): RestFake {
  const notFound = NOT_FOUND;
  return new RestFake([
    {
      name: 'app',
      pattern: /^\/ws\/v1\/cluster\/apps\/(application_\d+_\d+)$/,
      answer: byId(appId, app, notFound),
    },
    {
      name: 'appattempts',
      pattern: /^\/ws\/v1\/cluster\/apps\/(application_\d+_\d+)\/appattempts$/,
      answer: byId(YARN_APP, 'yarn/appattempts-docs.json', notFound),
    },
    {
      name: 'containers',
      pattern:
        /^\/ws\/v1\/cluster\/apps\/application_\d+_\d+\/appattempts\/(appattempt_\d+_\d+_\d+)\/containers$/,
      answer: byId(YARN_ATTEMPT, 'yarn/containers-timeline-docs-trimmed.json', notFound),
    },
  ]);
}
