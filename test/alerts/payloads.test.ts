import { describe, expect, it } from 'vitest';
import { parseAlertmanager } from '../../src/alerts/payloads/alertmanager.ts';
import { parseEventBridge } from '../../src/alerts/payloads/eventbridge.ts';
import { parseGcp } from '../../src/alerts/payloads/gcp.ts';
import { parsePagerDuty } from '../../src/alerts/payloads/pagerduty.ts';
import { PayloadInvalidError } from '../../src/alerts/payloads/parsed.ts';
import { fixture, fixtureText, RECEIVED_AT } from './support.ts';

describe('Alertmanager webhook v4', () => {
  it('makes one alert per alert, keyed by its fingerprint, Go’s zero endsAt dropped', () => {
    const { events } = parseAlertmanager(fixture('alertmanager-v4-firing.json'), RECEIVED_AT);
    expect(events).toEqual([
      {
        source: 'alertmanager',
        kind: 'alertmanager-v4',
        incidentKey: '948c667b1fc76492',
        deliveryId: '948c667b1fc76492:firing:2022-10-04T13:32:56.014Z',
        status: 'firing',
        title: 'HighValue: poc_metric above 0.5',
        startsAt: '2022-10-04T13:32:56.014Z',
        receivedAt: RECEIVED_AT,
        fields: {
          labels: { alertname: 'HighValue', instance: 'api:8000', job: 'api', severity: 'high' },
          annotations: { summary: 'poc_metric above 0.5' },
          groupKey: '{}:{}',
          receiver: 'webhook_receiver',
          commonLabels: { alertname: 'HighValue', instance: 'api:8000', job: 'api', severity: 'high' },
        },
      },
    ]);
  });

  it('keeps a resolved alert under the same incident, with its end', () => {
    const message = fixture<{ status: string; alerts: Record<string, unknown>[] }>(
      'alertmanager-v4-firing.json',
    );
    const alert = { ...message.alerts[0], status: 'resolved', endsAt: '2022-10-04T13:40:56.014Z' };
    const { events } = parseAlertmanager({ ...message, status: 'resolved', alerts: [alert] }, RECEIVED_AT);
    expect(events[0]).toMatchObject({
      incidentKey: '948c667b1fc76492',
      status: 'resolved',
      endsAt: '2022-10-04T13:40:56.014Z',
    });
  });

  it('refuses another version, naming the field', () => {
    const message = { ...fixture('alertmanager-v4-firing.json'), version: '3' };
    expect(() => parseAlertmanager(message, RECEIVED_AT)).toThrow(PayloadInvalidError);
    expect(() => parseAlertmanager(message, RECEIVED_AT)).toThrow(/version/);
  });
});

describe('PagerDuty v3', () => {
  it('reads an incident event, keyed by the incident, delivered once per event id', () => {
    const { events } = parsePagerDuty(fixture('pagerduty-incident-priority-updated.json'), RECEIVED_AT);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      source: 'pagerduty',
      kind: 'pagerduty-incident.priority_updated',
      incidentKey: 'PGR0VU2',
      deliveryId: '5ac64822-4adc-4fda-ade0-410becf0de4f',
      status: 'firing',
      title: 'A little bump in the road',
      startsAt: '2020-04-09T15:16:27Z',
    });
    expect(events[0]?.fields.data).toMatchObject({ incident_key: 'd3640fbd41094207a1c11e58e46b1662' });
  });

  it('resolves on incident.resolved', () => {
    const payload = fixture<{ event: Record<string, unknown> }>('pagerduty-incident-priority-updated.json');
    const resolved = { event: { ...payload.event, event_type: 'incident.resolved' } };
    expect(parsePagerDuty(resolved, RECEIVED_AT).events[0]).toMatchObject({
      status: 'resolved',
      incidentKey: 'PGR0VU2',
    });
  });

  it('ignores a service event', () => {
    expect(parsePagerDuty(fixture('pagerduty-service-updated.json'), RECEIVED_AT)).toEqual({
      events: [],
      ignored: 'service.updated is not an incident event',
    });
  });
});

describe('EventBridge events in SNS messages', () => {
  it('makes a failed Glue job run an alert keyed by its run id', () => {
    const { events } = parseEventBridge(
      fixtureText('eventbridge-glue-job-failed.json'),
      'msg-1',
      RECEIVED_AT,
    );
    expect(events[0]).toMatchObject({
      source: 'sns',
      kind: 'eventbridge-glue-job-state-change',
      incidentKey: 'jr_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
      deliveryId: 'msg-1',
      status: 'firing',
      startsAt: '2017-09-07T06:02:03Z',
    });
    expect(events[0]?.title).toMatch(/^Glue job MyJob FAILED: JobName:MyJob and JobRunId/);
    expect(events[0]?.fields.detail).toMatchObject({ jobName: 'MyJob', state: 'FAILED' });
  });

  it('makes a timeout an alert too, and ignores a run that succeeded', () => {
    expect(
      parseEventBridge(fixtureText('eventbridge-glue-job-timeout.json'), 'm', RECEIVED_AT).events[0]?.title,
    ).toBe('Glue job MyJob TIMEOUT: Job run timed out');
    expect(parseEventBridge(fixtureText('eventbridge-glue-job-succeeded.json'), 'm', RECEIVED_AT)).toEqual({
      events: [],
      ignored: 'Glue job run SUCCEEDED is not a failure (FAILED or TIMEOUT)',
    });
  });

  it('keys a CloudWatch alarm by its ARN and when it entered ALARM; OK resolves the same incident', () => {
    const firing = parseEventBridge(fixtureText('eventbridge-cloudwatch-alarm.json'), 'm1', RECEIVED_AT)
      .events[0];
    expect(firing).toMatchObject({
      kind: 'cloudwatch-alarm',
      status: 'firing',
      incidentKey:
        'arn:aws:cloudwatch:us-east-1:123456789012:alarm:ServerCpuTooHigh@2019-10-02T17:04:40.989+0000',
    });
    const alarm = fixture<{ detail: { state: Record<string, unknown> } & Record<string, unknown> }>(
      'eventbridge-cloudwatch-alarm.json',
    );
    const ok = {
      ...alarm,
      detail: {
        ...alarm.detail,
        previousState: alarm.detail.state,
        state: { value: 'OK', reason: 'back', timestamp: '2019-10-02T17:30:00.000+0000' },
      },
    };
    const resolved = parseEventBridge(JSON.stringify(ok), 'm2', RECEIVED_AT).events[0];
    expect(resolved).toMatchObject({ status: 'resolved', incidentKey: firing?.incidentKey });
  });

  it('ignores a message that is no EventBridge event memdoctor reads', () => {
    expect(parseEventBridge('Hello world!', 'm', RECEIVED_AT).ignored).toMatch(/not JSON/);
  });
});

describe('Cloud Monitoring webhook 1.2', () => {
  it('makes an open incident an alert keyed by its incident id', () => {
    const { events } = parseGcp(fixture('gcp-incident-open.json'), RECEIVED_AT);
    expect(events[0]).toMatchObject({
      source: 'gcp-monitoring',
      kind: 'gcp-incident',
      incidentKey: '0.mtdi83m6w8ao',
      deliveryId: '0.mtdi83m6w8ao:open',
      status: 'firing',
      title: 'choonho-server-cpu-alert-policy-test: VM Instance - CPU utilization',
      startsAt: '2023-02-02T05:29:47.000Z',
    });
    expect(events[0]).not.toHaveProperty('endsAt');
  });

  it('refuses a notification without an incident', () => {
    expect(() => parseGcp({ version: '1.2' }, RECEIVED_AT)).toThrow(/incident/);
  });
});
