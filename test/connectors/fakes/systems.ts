import { byId, fixture, RestFake } from './rest-fake.ts';

export const FLINK_JOB = '1c53a8f1b4937f50456190e884c9f289';
export const FLINK_TM = '192.168.178.34:58646-64d0d8';
export const SPARK_APP = 'app-20161116163331-0000';
export const YARN_APP = 'application_1326821518301_0005';
export const YARN_ATTEMPT = 'appattempt_1326821518301_0005_000001';

// Unknown ids get a 404 with no body: the connectors read only the status, and no 404 body was
// copied from a real system.
const NOT_FOUND = '';

/** The Flink JobManager REST endpoints memdoctor reads (docs/content/docs/ops/rest_api.md). */
export function flinkFake(): RestFake {
  return new RestFake([
    {
      name: 'overview',
      pattern: /^\/overview$/,
      answer: () => ({ body: fixture('flink/overview-sif-flink-1.17.1.json') }),
    },
    {
      name: 'taskmanagers',
      pattern: /^\/taskmanagers$/,
      answer: () => ({ body: fixture('flink/taskmanagers-superzhc-yarn.json') }),
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
      name: 'job',
      pattern: /^\/jobs\/([0-9a-f]{32})$/,
      answer: byId(FLINK_JOB, 'flink/job-dinky-finished.json', NOT_FOUND),
    },
    {
      name: 'jobmanager-config',
      pattern: /^\/jobmanager\/config$/,
      answer: () => ({ body: fixture('flink/jobmanager-config-flink-1.13.5.json') }),
    },
  ]);
}

/** Spark's monitoring REST API (docs/monitoring.md, "REST API"). */
export function sparkFake(executors = 'spark/executor-memory-usage-allexecutors.json'): RestFake {
  const notFound = NOT_FOUND;
  return new RestFake([
    {
      name: 'allexecutors',
      pattern: /^\/api\/v1\/applications\/([^/]+)\/allexecutors$/,
      answer: byId(SPARK_APP, executors, notFound),
    },
    {
      name: 'environment',
      pattern: /^\/api\/v1\/applications\/([^/]+)\/environment$/,
      answer: byId(SPARK_APP, 'spark/environment-trimmed.json', notFound),
    },
  ]);
}

/** The ResourceManager REST API (hadoop-yarn-site ResourceManagerRest.md). */
export function yarnFake(app = 'yarn/app-docs-finished.json'): RestFake {
  const notFound = NOT_FOUND;
  return new RestFake([
    {
      name: 'app',
      pattern: /^\/ws\/v1\/cluster\/apps\/(application_\d+_\d+)$/,
      answer: byId(YARN_APP, app, notFound),
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
