import type { AlertEvent, RoutedAlert } from '../../src/incidents/types.ts';

/**
 * A RoutedAlert as a receiver hands it over. The fields are those of Alertmanager's webhook example
 * (prometheus/alertmanager docs/configuration.md, `webhook_config`, version 4): the routing is what
 * the alertsin receivers decide; these tests are about what happens after `accept`.
 */
export function routedAlert(overrides: Partial<AlertEvent> = {}, channel = 'C0ALERTS'): RoutedAlert {
  const incidentKey = overrides.incidentKey ?? 'alertmanager:3c7b1e9f6ad45e21';
  return {
    event: {
      source: 'alertmanager',
      kind: 'alertmanager-v4',
      incidentKey,
      deliveryId: overrides.deliveryId ?? `${incidentKey}:firing:1`,
      status: 'firing',
      title: 'KubePodOOMKilled flink/flink-taskmanager-1-1',
      startsAt: '2026-12-07T02:58:01.000Z',
      receivedAt: '2026-12-07T02:58:31.000Z',
      fields: { labels: { alertname: 'KubePodOOMKilled', namespace: 'flink', pod: 'flink-taskmanager-1-1' } },
      ...overrides,
    },
    route: 'flink-oncall',
    channel,
    checks: [{ connector: 'kubernetes', id: 'flink/flink-taskmanager-1-1' }],
  };
}
