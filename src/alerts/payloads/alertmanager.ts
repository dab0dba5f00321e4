import { z } from 'zod';
import type { AlertEvent } from '../../incidents/types.ts';
import { JsonObject, type Parsed, titleOf, validated } from './parsed.ts';

// Alertmanager's webhook message, version 4 (notify/webhook/webhook.go, docs/configuration.md).
const Labels = z.record(z.string(), z.string());
const Alert = z.object({
  status: z.enum(['firing', 'resolved']),
  labels: Labels,
  annotations: Labels.default({}),
  startsAt: z.string(),
  endsAt: z.string().optional(),
  fingerprint: z.string().min(1),
});
const Message = z.object({
  version: z.literal('4'),
  groupKey: z.string(),
  status: z.enum(['firing', 'resolved']),
  receiver: z.string().default(''),
  alerts: z.array(Alert),
  groupLabels: Labels.default({}),
  commonLabels: Labels.default({}),
  commonAnnotations: Labels.default({}),
  truncatedAlerts: z.number().int().optional(),
});

// Alertmanager sends Go's zero time for an alert that has not ended.
const GO_ZERO_TIME = '0001-01-01T00:00:00Z';

function eventOf(
  alert: z.infer<typeof Alert>,
  message: z.infer<typeof Message>,
  receivedAt: string,
): AlertEvent {
  const name = alert.labels.alertname ?? 'alert';
  const summary = alert.annotations.summary;
  return {
    source: 'alertmanager',
    kind: 'alertmanager-v4',
    incidentKey: alert.fingerprint,
    // Alertmanager repeats a firing alert each repeat_interval with the same start: one delivery.
    deliveryId: `${alert.fingerprint}:${alert.status}:${alert.startsAt}`,
    status: alert.status,
    title: titleOf(summary ? `${name}: ${summary}` : name),
    startsAt: alert.startsAt,
    ...(alert.endsAt && alert.endsAt !== GO_ZERO_TIME ? { endsAt: alert.endsAt } : {}),
    receivedAt,
    fields: JsonObject.parse({
      labels: alert.labels,
      annotations: alert.annotations,
      groupKey: message.groupKey,
      receiver: message.receiver,
      commonLabels: message.commonLabels,
    }),
  };
}

/** One event per alert of an Alertmanager webhook message; its fingerprint is the incident. */
export function parseAlertmanager(json: unknown, receivedAt: string): Parsed {
  const message = validated(Message, json, 'an Alertmanager webhook message (version 4)');
  return { events: message.alerts.map((alert) => eventOf(alert, message, receivedAt)) };
}
