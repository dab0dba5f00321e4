/**
 * The contract between the alert receivers (src/alerts, a surface) and the durable intake that turns
 * an accepted alert into one diagnosed Slack thread per incident (src/incidents, the use case behind
 * it, and the Slack surface that posts). A receiver authenticates and parses a sender's payload, routes
 * it with the operator's MEMDOCTOR_ALERTS file into a RoutedAlert, and hands it to an AlertIntake; it
 * answers the sender 2xx only once `accept` has resolved, i.e. once the alert is durably stored.
 */

/** Who sent the alert: the receiver that authenticated it. */
export type AlertSource = 'alertmanager' | 'pagerduty' | 'sns' | 'gcp-monitoring';

/** Whether the incident is happening or over, as the sender says it. */
export type AlertStatus = 'firing' | 'resolved';

/** A JSON value as it came in a payload: the fields routing templates read. */
export type AlertField = string | number | boolean | null | AlertField[] | { [key: string]: AlertField };

/** One alert, normalised from its sender's payload. */
export interface AlertEvent {
  source: AlertSource;
  /** The payload's own type, e.g. `alertmanager-v4`, `pagerduty-incident.triggered`, `eventbridge-glue-job-state-change`, `cloudwatch-alarm`, `gcp-incident`. */
  kind: string;
  /**
   * One incident's stable identity across repeats, retries, redeliveries and its resolution: the
   * Alertmanager alert's fingerprint, PagerDuty's incident id, the Glue job run id, the CloudWatch
   * alarm's ARN plus the state change's start, Cloud Monitoring's incident_id. One thread per key.
   */
  incidentKey: string;
  /** One delivery's identity (PagerDuty's event id, SNS MessageId, ...): the same delivery twice is a duplicate. */
  deliveryId: string;
  status: AlertStatus;
  /** A one-line title for the thread's root message, from the payload (escaped by whoever posts it). */
  title: string;
  /** ISO-8601 times as the sender gave them, when it did. */
  startsAt?: string;
  endsAt?: string;
  /** When the receiver accepted it (ISO-8601). */
  receivedAt: string;
  /** The payload's fields that routing matchers and id templates read (`labels`, `annotations`, `detail`, ...). */
  fields: { [key: string]: AlertField };
}

/** A check the routing asks for: a configured connector and an id typed as `/memdoctor check` takes it. */
export interface AlertCheck {
  connector: string;
  id: string;
}

/** An alert with where it goes and what to fetch for it, decided by the operator's routing file. */
export interface RoutedAlert {
  event: AlertEvent;
  /** The name of the route that matched, for logs and the thread. */
  route: string;
  /** The Slack channel id the thread goes to. */
  channel: string;
  /** The ids to fetch, each already checked by the same id grammar as a typed id. */
  checks: AlertCheck[];
}

/** What happened to an accepted alert at intake. */
export type IntakeOutcome = 'queued' | 'duplicate';

/**
 * The durable intake. `accept` resolves only once the alert is stored so that it survives a restart;
 * it rejects when it cannot be stored (Redis down), and the receiver then answers 5xx so the sender retries.
 */
export interface AlertIntake {
  accept(alert: RoutedAlert): Promise<IntakeOutcome>;
}
