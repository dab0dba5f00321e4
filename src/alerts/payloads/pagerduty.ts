import { z } from 'zod';
import type { AlertEvent } from '../../incidents/types.ts';
import { Json, JsonObject, type Parsed, titleOf, validated } from './parsed.ts';

// PagerDuty's v3 webhook payload: one event, whose data is an incident for incident.* event types
// (developer.pagerduty.com, docs/webhooks/01-Overview.md).
const Incident = z.looseObject({
  id: z.string().min(1),
  type: z.literal('incident'),
  title: z.string().default(''),
  status: z.string().optional(),
  created_at: z.string().optional(),
});
const Event = z.looseObject({
  id: z.string().min(1),
  event_type: z.string().min(1),
  resource_type: z.string(),
  occurred_at: z.string(),
  data: z.record(z.string(), Json),
});
const Payload = z.object({ event: Event });

/** When the event happened, for the replay window: the signed body's own `occurred_at`. */
export function pagerDutyOccurredAt(json: unknown): number | undefined {
  const parsed = Payload.safeParse(json);
  return parsed.success ? Date.parse(parsed.data.event.occurred_at) : undefined;
}

/** An incident event of a v3 webhook as one alert; other event types (service.*, notes) are ignored. */
export function parsePagerDuty(json: unknown, receivedAt: string): Parsed {
  const { event } = validated(Payload, json, 'a PagerDuty v3 webhook payload');
  if (!event.event_type.startsWith('incident.') || event.data.type !== 'incident')
    return { events: [], ignored: `${event.event_type} is not an incident event` };
  const incident = validated(Incident, event.data, 'a PagerDuty incident');
  const alert: AlertEvent = {
    source: 'pagerduty',
    kind: `pagerduty-${event.event_type}`,
    incidentKey: incident.id,
    deliveryId: event.id,
    status: event.event_type === 'incident.resolved' ? 'resolved' : 'firing',
    title: titleOf(incident.title || `PagerDuty incident ${incident.id}`),
    ...(incident.created_at ? { startsAt: incident.created_at } : {}),
    ...(event.event_type === 'incident.resolved' ? { endsAt: event.occurred_at } : {}),
    receivedAt,
    fields: JsonObject.parse({
      event_type: event.event_type,
      occurred_at: event.occurred_at,
      data: event.data,
    }),
  };
  return { events: [alert] };
}
