import { z } from 'zod';
import type { AlertEvent } from '../../incidents/types.ts';
import { Json, JsonObject, type Parsed, titleOf, validated } from './parsed.ts';

// Cloud Monitoring's webhook notification, schema version 1.2
// (cloud.google.com/monitoring/support/notification-options#webhooks).
const Incident = z.looseObject({
  incident_id: z.string().min(1),
  state: z.string().transform((s) => s.toLowerCase()),
  started_at: z.number().nullable().optional(),
  ended_at: z.number().nullable().optional(),
  policy_name: z.string().default(''),
  condition_name: z.string().default(''),
  summary: z.string().default(''),
});
const Notification = z.object({ version: z.string(), incident: z.record(z.string(), Json) });

const isoOf = (seconds: number | null | undefined) =>
  seconds ? new Date(seconds * 1000).toISOString() : undefined;

/** A Cloud Monitoring incident as one alert, keyed by its incident_id; `open` fires, `closed` resolves. */
export function parseGcp(json: unknown, receivedAt: string): Parsed {
  const notification = validated(Notification, json, 'a Cloud Monitoring webhook notification');
  const incident = validated(Incident, notification.incident, 'a Cloud Monitoring incident');
  if (incident.state !== 'open' && incident.state !== 'closed')
    return { events: [], ignored: `incident state ${incident.state} is neither open nor closed` };
  const startsAt = isoOf(incident.started_at);
  const endsAt = isoOf(incident.ended_at);
  const name = [incident.policy_name, incident.condition_name].filter(Boolean).join(': ');
  const alert: AlertEvent = {
    source: 'gcp-monitoring',
    kind: 'gcp-incident',
    incidentKey: incident.incident_id,
    // Google sends no delivery id: an incident is opened once and closed once.
    deliveryId: `${incident.incident_id}:${incident.state}`,
    status: incident.state === 'open' ? 'firing' : 'resolved',
    title: titleOf(name || incident.summary || `Cloud Monitoring incident ${incident.incident_id}`),
    ...(startsAt ? { startsAt } : {}),
    ...(endsAt ? { endsAt } : {}),
    receivedAt,
    fields: JsonObject.parse({ ...notification.incident, version: notification.version }),
  };
  return { events: [alert] };
}
