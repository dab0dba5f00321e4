import { describe, expect, it } from 'vitest';
import { parseAlertsConfig } from '../../src/alerts/config.ts';
import { parseAlertmanager } from '../../src/alerts/payloads/alertmanager.ts';
import { parseEventBridge } from '../../src/alerts/payloads/eventbridge.ts';
import { parseGcp } from '../../src/alerts/payloads/gcp.ts';
import { parsePagerDuty } from '../../src/alerts/payloads/pagerduty.ts';
import { routeAlert } from '../../src/alerts/route.ts';
import { type ConnectorsConfig, checkIdProblem } from '../../src/usecases/connectors.ts';
import { fixture, fixtureText, RECEIVED_AT, ROUTES_YAML, SECRETS } from './support.ts';

const config = parseAlertsConfig(ROUTES_YAML, 'alerts.yaml', (name) => SECRETS[name]);
const connectors = {
  kubernetes: { namespace: 'default', namespaces: ['streaming'] },
  glue: { region: 'us-west-2' },
  spark: { url: 'http://history:18080' },
} as unknown as ConnectorsConfig;
const idCheck = (connector: Parameters<typeof checkIdProblem>[0], id: string) =>
  checkIdProblem(connector, id, connectors);

/** The Alertmanager sample with the labels kube-state-metrics puts on an OOMKilled container (changed in memory). */
function oomKilled(labels: Record<string, string>) {
  const message = fixture<{ alerts: { labels: Record<string, string> }[] }>('alertmanager-v4-firing.json');
  const alert = { ...message.alerts[0], labels: { alertname: 'KubePodOOMKilled', ...labels } };
  return parseAlertmanager({ ...message, alerts: [alert] }, RECEIVED_AT).events[0];
}

describe('routing as data', () => {
  it('sends a TaskManager pod OOMKilled to its channel with the pod to check', () => {
    const event = oomKilled({
      namespace: 'streaming',
      pod: 'flink-taskmanager-1-3',
      container: 'flink-main-container',
    });
    if (!event) throw new Error('no event');
    const { routed, refused } = routeAlert(event, config, idCheck);
    expect(refused).toEqual([]);
    expect(routed).toMatchObject({
      route: 'flink-oom',
      channel: 'C0FLINK01',
      checks: [{ connector: 'kubernetes', id: 'streaming/flink-taskmanager-1-3' }],
    });
  });

  it('matches a regex against the whole value, as Alertmanager does, and never a value past 1,024 characters', () => {
    const whole = parseAlertsConfig(
      ROUTES_YAML.replace('{ regex: "^(KubePodOOMKilled|HighValue)$" }', '{ regex: "KubePod.*" }'),
      'alerts.yaml',
      (name) => SECRETS[name],
    );
    const route = (alertname: string) => {
      const event = oomKilled({ namespace: 'streaming', pod: 'p-1' });
      if (!event) throw new Error('no event');
      const labels = { ...(event.fields.labels as Record<string, string>), alertname };
      return routeAlert({ ...event, fields: { ...event.fields, labels } }, whole, idCheck).routed?.route;
    };
    expect(route('KubePodOOMKilled')).toBe('flink-oom');
    expect(route('NotKubePodOOMKilled')).toBeUndefined();
    expect(route(`KubePod${'x'.repeat(1017)}`)).toBe('flink-oom');
    expect(route(`KubePod${'x'.repeat(1018)}`)).toBeUndefined();
  });

  it('keeps the alert but not an id the connector may not read', () => {
    const event = oomKilled({ namespace: 'kube-system', pod: 'etcd-0' });
    if (!event) throw new Error('no event');
    const { routed, refused } = routeAlert(event, config, idCheck);
    expect(routed?.checks).toEqual([]);
    expect(refused).toEqual([
      { connector: 'kubernetes', reason: expect.stringMatching(/namespace "kube-system"/) },
    ]);
  });

  it('keeps no id built from a label that tries to leave the path', () => {
    const event = oomKilled({ namespace: 'streaming', pod: '../../../api/v1/secrets' });
    if (!event) throw new Error('no event');
    expect(routeAlert(event, config, idCheck).routed?.checks).toEqual([]);
  });

  it('says which field a template missed', () => {
    const [event] = parseAlertmanager(fixture('alertmanager-v4-firing.json'), RECEIVED_AT).events;
    if (!event) throw new Error('no event');
    const { routed, refused } = routeAlert(event, config, idCheck);
    expect(routed?.route).toBe('flink-oom');
    expect(refused).toEqual([
      {
        connector: 'kubernetes',
        reason: 'the alert has no labels.namespace for {{labels.namespace}}/{{labels.pod}}',
      },
    ]);
  });

  it('turns a failed Glue run into the job/run id check glue takes', () => {
    const [event] = parseEventBridge(
      fixtureText('eventbridge-glue-job-failed.json'),
      'm',
      RECEIVED_AT,
    ).events;
    if (!event) throw new Error('no event');
    expect(routeAlert(event, config, idCheck).routed).toMatchObject({
      route: 'glue-failures',
      channel: 'C0GLUE001',
      checks: [
        {
          connector: 'glue',
          id: 'MyJob/jr_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
        },
      ],
    });
  });

  it('routes by kind with no checks, and by source to a connector not configured (refused)', () => {
    const [alarm] = parseEventBridge(
      fixtureText('eventbridge-cloudwatch-alarm.json'),
      'm',
      RECEIVED_AT,
    ).events;
    if (!alarm) throw new Error('no event');
    expect(routeAlert(alarm, config, idCheck).routed).toMatchObject({ route: 'aws-alarms', checks: [] });
    const [incident] = parseGcp(fixture('gcp-incident-open.json'), RECEIVED_AT).events;
    if (!incident) throw new Error('no event');
    // The sample is a VM incident: it names no Dataflow job.
    expect(routeAlert(incident, config, idCheck).refused).toEqual([
      {
        connector: 'dataflow',
        reason: 'the alert has no resource.labels.job_id for {{resource.labels.job_id}}',
      },
    ]);
  });

  it('leaves an alert no route matches unrouted', () => {
    const [event] = parsePagerDuty(fixture('pagerduty-incident-priority-updated.json'), RECEIVED_AT).events;
    if (!event) throw new Error('no event');
    const only = { routes: config.routes.filter((r) => r.name !== 'spark-pages') };
    expect(routeAlert(event, only, idCheck)).toEqual({ refused: [] });
  });
});
