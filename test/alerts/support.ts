import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));

/** A fixture's text, as its source published it (fixtures/SOURCES.md). */
export function fixtureText(name: string): string {
  return readFileSync(`${FIXTURES}${name}`, 'utf8');
}

export function fixture<T = Record<string, unknown>>(name: string): T {
  return JSON.parse(fixtureText(name)) as T;
}

export const RECEIVED_AT = '2026-12-07T03:00:00.000Z';

export const ROUTES_YAML = `
receivers:
  alertmanager: { bearer: env:AM_TOKEN, basic: { username: alertmanager, password: env:AM_PASSWORD } }
  pagerduty: { secrets: [env:PD_SECRET, env:PD_OLD_SECRET] }
  sns: { topics: ["arn:aws:sns:us-west-2:123456789012:MyTopic"] }
  gcp: { token: env:GCP_TOKEN, basic: { username: google, password: env:GCP_PASSWORD } }
routes:
  - name: flink-oom
    channel: C0FLINK01
    when: { source: alertmanager, labels.alertname: { regex: "^(KubePodOOMKilled|HighValue)$" } }
    checks:
      kubernetes: "{{labels.namespace}}/{{labels.pod}}"
  - name: glue-failures
    channel: C0GLUE001
    when: { kind: eventbridge-glue-job-state-change }
    checks:
      glue: "{{detail.jobName}}/{{detail.jobRunId}}"
  - name: aws-alarms
    channel: C0AWS0001
    when: { kind: cloudwatch-alarm }
  - name: spark-pages
    channel: C0SPARK01
    when: { source: pagerduty }
    checks:
      spark: "{{data.incident_key}}"
  - name: dataflow
    channel: C0GCP0001
    when: { source: gcp-monitoring }
    checks:
      dataflow: "{{resource.labels.job_id}}"
`;

export const SECRETS: Record<string, string> = {
  AM_TOKEN: 'am-token-1',
  AM_PASSWORD: 'am-password-1',
  PD_SECRET: 'pd-secret-new',
  PD_OLD_SECRET: 'pd-secret-old',
  GCP_TOKEN: 'gcp-token-1',
  GCP_PASSWORD: 'gcp-password-1',
};
