import type { AlertEvent } from '../incidents/types.ts';
import type { AlertsConfig } from './config.ts';
import { parseAlertmanager } from './payloads/alertmanager.ts';
import { parseEventBridge } from './payloads/eventbridge.ts';
import { parseGcp } from './payloads/gcp.ts';
import { parsePagerDuty } from './payloads/pagerduty.ts';
import { type Parsed, PayloadInvalidError } from './payloads/parsed.ts';
import { type IdCheck, type Routing, routeAlert } from './route.ts';

/** The payload kinds `alerts test` reads; `eventbridge` is an SNS message's Message on its own. */
export const OFFLINE_SOURCES = ['alertmanager', 'pagerduty', 'sns', 'eventbridge', 'gcp'] as const;
export type OfflineSource = (typeof OFFLINE_SOURCES)[number];

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Which sender's payload this looks like, from the fields each one always has. */
export function guessSource(json: unknown): OfflineSource | undefined {
  if (!isObject(json)) return undefined;
  if (json.version === '4' && Array.isArray(json.alerts)) return 'alertmanager';
  if (isObject(json.event) && typeof json.event.event_type === 'string') return 'pagerduty';
  if (typeof json.Type === 'string' && typeof json.TopicArn === 'string') return 'sns';
  if (typeof json['detail-type'] === 'string') return 'eventbridge';
  if (isObject(json.incident)) return 'gcp';
  return undefined;
}

/** The payload read as the receiver for `source` reads it once authenticated (SNS: its Message; no signature is checked). */
function parsedAs(source: OfflineSource, json: unknown, text: string, now: string): Parsed {
  if (source === 'alertmanager') return parseAlertmanager(json, now);
  if (source === 'pagerduty') return parsePagerDuty(json, now);
  if (source === 'gcp') return parseGcp(json, now);
  if (source === 'eventbridge') return parseEventBridge(text, 'offline', now);
  if (!isObject(json) || typeof json.Message !== 'string' || typeof json.MessageId !== 'string')
    throw new PayloadInvalidError('not an SNS message: it needs Message and MessageId');
  return parseEventBridge(json.Message, json.MessageId, now);
}

export interface OfflineResult {
  source: OfflineSource;
  ignored?: string;
  /** Each alert of the payload with where it would go (no `routed`: no route matches it). */
  alerts: { event: AlertEvent; routing: Routing }[];
}

/** What a payload would become at its receiver: the alerts, the route of each, the ids kept and refused. */
export function tryPayload(
  text: string,
  config: Pick<AlertsConfig, 'routes'>,
  idCheck: IdCheck,
  options: { source?: OfflineSource; now?: string } = {},
): OfflineResult {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new PayloadInvalidError(`the payload is not JSON (${(error as Error).message})`);
  }
  const source = options.source ?? guessSource(json);
  if (!source)
    throw new PayloadInvalidError(
      `which sender's payload this is cannot be told: give --source ${OFFLINE_SOURCES.join('|')}`,
    );
  const parsed = parsedAs(source, json, text, options.now ?? new Date().toISOString());
  const alerts = parsed.events.map((event) => ({ event, routing: routeAlert(event, config, idCheck) }));
  return { source, ...(parsed.ignored ? { ignored: parsed.ignored } : {}), alerts };
}
