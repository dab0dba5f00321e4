import { z } from 'zod';
import type { AlertEvent } from '../../incidents/types.ts';
import { Json, JsonObject, type Parsed, titleOf, validated } from './parsed.ts';

// An EventBridge event as an SNS target receives it in Message: the envelope, then the service's detail
// (AWS Glue "Glue Job State Change"; CloudWatch "CloudWatch Alarm State Change").
const Envelope = z.looseObject({
  version: z.string(),
  id: z.string().min(1),
  'detail-type': z.string(),
  source: z.string(),
  account: z.string(),
  time: z.string(),
  region: z.string(),
  resources: z.array(z.string()).default([]),
  detail: z.record(z.string(), Json),
});
type Envelope = z.infer<typeof Envelope>;

const GlueDetail = z.looseObject({
  jobName: z.string().min(1),
  jobRunId: z.string().min(1),
  state: z.string(),
  message: z.string().default(''),
});

const AlarmState = z.looseObject({
  value: z.string(),
  reason: z.string().default(''),
  timestamp: z.string(),
});
const AlarmDetail = z.looseObject({
  alarmName: z.string().min(1),
  state: AlarmState,
  previousState: AlarmState.partial().optional(),
});

const GLUE_FAILED = new Set(['FAILED', 'TIMEOUT']);

function fieldsOf(event: Envelope) {
  return JsonObject.parse({ ...event, detailType: event['detail-type'] });
}

function glue(event: Envelope, deliveryId: string, receivedAt: string): Parsed {
  const detail = validated(GlueDetail, event.detail, 'a Glue Job State Change detail');
  if (!GLUE_FAILED.has(detail.state))
    return { events: [], ignored: `Glue job run ${detail.state} is not a failure (FAILED or TIMEOUT)` };
  const alert: AlertEvent = {
    source: 'sns',
    kind: 'eventbridge-glue-job-state-change',
    incidentKey: detail.jobRunId,
    deliveryId,
    status: 'firing',
    title: titleOf(
      `Glue job ${detail.jobName} ${detail.state}${detail.message ? `: ${detail.message}` : ''}`,
    ),
    startsAt: event.time,
    receivedAt,
    fields: fieldsOf(event),
  };
  return { events: [alert] };
}

function alarm(event: Envelope, deliveryId: string, receivedAt: string): Parsed {
  const detail = validated(AlarmDetail, event.detail, 'a CloudWatch Alarm State Change detail');
  const value = detail.state.value;
  if (value !== 'ALARM' && value !== 'OK')
    return { events: [], ignored: `alarm state ${value} is neither ALARM nor OK` };
  const arn = event.resources[0] ?? `${event.account}:${event.region}:${detail.alarmName}`;
  // One incident from entering ALARM to leaving it: an OK change names the ALARM it ends as its previous state.
  const began = value === 'ALARM' ? detail.state.timestamp : (detail.previousState?.timestamp ?? '');
  const alert: AlertEvent = {
    source: 'sns',
    kind: 'cloudwatch-alarm',
    incidentKey: `${arn}@${began}`,
    deliveryId,
    status: value === 'ALARM' ? 'firing' : 'resolved',
    title: titleOf(`${detail.alarmName} ${value}: ${detail.state.reason}`),
    startsAt: began,
    ...(value === 'OK' ? { endsAt: detail.state.timestamp } : {}),
    receivedAt,
    fields: fieldsOf(event),
  };
  return { events: [alert] };
}

/** An EventBridge event delivered in an SNS Notification's Message; `deliveryId` is the SNS MessageId. */
export function parseEventBridge(message: string, deliveryId: string, receivedAt: string): Parsed {
  let json: unknown;
  try {
    json = JSON.parse(message);
  } catch {
    return { events: [], ignored: 'the SNS message is not JSON (an EventBridge event is)' };
  }
  const event = validated(Envelope, json, 'an EventBridge event');
  if (event.source === 'aws.glue' && event['detail-type'] === 'Glue Job State Change')
    return glue(event, deliveryId, receivedAt);
  if (event.source === 'aws.cloudwatch' && event['detail-type'] === 'CloudWatch Alarm State Change')
    return alarm(event, deliveryId, receivedAt);
  return { events: [], ignored: `${event.source} "${event['detail-type']}" is not an event memdoctor reads` };
}
