import { describe, expect, it } from 'vitest';
import { parseAlertsConfig } from '../../src/alerts/config.ts';
import { guessSource } from '../../src/alerts/offline.ts';
import { alertsCommand } from '../../src/alerts/test-command.ts';
import { UsageError } from '../../src/errors.ts';
import { type ConnectorsConfig, checkIdProblem } from '../../src/usecases/connectors.ts';
import { fixture, ROUTES_YAML, SECRETS } from './support.ts';

const FIXTURES = new URL('./fixtures/', import.meta.url).pathname;
const connectors = { glue: { region: 'us-west-2' } } as unknown as ConnectorsConfig;
const command = alertsCommand({
  config: () => parseAlertsConfig(ROUTES_YAML, 'alerts.yaml', (name) => SECRETS[name]),
  idCheck: () => (connector, id) => checkIdProblem(connector, id, connectors),
});

async function run(...args: string[]) {
  let out = '';
  const code = await command.run(args, { stdout: { write: (t: string) => (out += t) } });
  return { code, out };
}

describe('memdoctor alerts test', () => {
  it('shows the route, the channel and the id a failed Glue run yields', async () => {
    const { code, out } = await run('test', `${FIXTURES}eventbridge-glue-job-failed.json`);
    expect(code).toBe(0);
    expect(out).toContain('eventbridge payload: 1 alert(s).');
    expect(out).toContain('  route glue-failures -> Slack channel C0GLUE001');
    expect(out).toContain(
      '  would check: glue MyJob/jr_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
    );
  });

  it('says which ids are left out and why', async () => {
    const { out } = await run('test', `${FIXTURES}alertmanager-v4-firing.json`);
    expect(out).toContain('  route flink-oom -> Slack channel C0FLINK01');
    expect(out).toContain(
      '  left out: kubernetes: the alert has no labels.namespace for {{labels.namespace}}/{{labels.pod}}',
    );
    const pd = await run('test', `${FIXTURES}pagerduty-incident-priority-updated.json`);
    expect(pd.out).toContain('  left out: spark: spark is not configured in connectors.yaml.');
  });

  it('says when a payload holds nothing to act on', async () => {
    const { out } = await run('test', `${FIXTURES}eventbridge-glue-job-succeeded.json`);
    expect(out).toBe(
      'eventbridge payload: nothing to do (Glue job run SUCCEEDED is not a failure (FAILED or TIMEOUT)).\n',
    );
  });

  it('takes --source when a payload is read as another sender’s', async () => {
    await expect(
      run('test', `${FIXTURES}gcp-incident-open.json`, '--source', 'alertmanager'),
    ).rejects.toThrow(/not an Alertmanager webhook message/);
    await expect(run('test', `${FIXTURES}gcp-incident-open.json`, '--source', 'nope')).rejects.toThrow(
      UsageError,
    );
    await expect(run('check')).rejects.toThrow(/usage: memdoctor alerts test/);
  });

  it('tells each fixture’s sender from its fields', () => {
    expect(guessSource(fixture('alertmanager-v4-firing.json'))).toBe('alertmanager');
    expect(guessSource(fixture('pagerduty-incident-priority-updated.json'))).toBe('pagerduty');
    expect(guessSource(fixture('sns-notification.json'))).toBe('sns');
    expect(guessSource(fixture('eventbridge-cloudwatch-alarm.json'))).toBe('eventbridge');
    expect(guessSource(fixture('gcp-incident-open.json'))).toBe('gcp');
    expect(guessSource({ hello: 'world' })).toBeUndefined();
  });
});
