import { Counter, type Registry } from 'prom-client';

/** Why a request was refused, as memdoctor_alert_requests_refused_total labels it. */
export type RefusalReason = 'unauthenticated' | 'forbidden' | 'stale' | 'too_large' | 'invalid';

/**
 * The receivers' counters, registered on the registry GET /metrics serves (the Slack app's), so a
 * refused request shows up where the rest of memdoctor is scraped.
 */
export class AlertMetrics {
  readonly refused: Counter<'receiver' | 'reason'>;
  readonly accepted: Counter<'receiver' | 'outcome'>;
  readonly unrouted: Counter<'receiver'>;
  readonly ignored: Counter<'receiver'>;
  readonly intakeFailures: Counter<'receiver'>;

  constructor(registry: Registry) {
    const registers = [registry];
    this.refused = new Counter({
      name: 'memdoctor_alert_requests_refused_total',
      help: 'Alert requests refused before anything was done with them, by receiver and reason',
      labelNames: ['receiver', 'reason'],
      registers,
    });
    this.accepted = new Counter({
      name: 'memdoctor_alerts_accepted_total',
      help: 'Alerts stored by the intake (queued) or recognised as already stored (duplicate), by receiver',
      labelNames: ['receiver', 'outcome'],
      registers,
    });
    this.unrouted = new Counter({
      name: 'memdoctor_alerts_unrouted_total',
      help: 'Alerts no route of MEMDOCTOR_ALERTS matched (answered 2xx, nothing stored)',
      labelNames: ['receiver'],
      registers,
    });
    this.ignored = new Counter({
      name: 'memdoctor_alert_payloads_ignored_total',
      help: 'Authentic payloads that hold no alert memdoctor acts on (a Glue run that succeeded, a service event)',
      labelNames: ['receiver'],
      registers,
    });
    this.intakeFailures = new Counter({
      name: 'memdoctor_alert_intake_failures_total',
      help: 'Requests answered 503 because the intake could not store their alerts (the sender retries)',
      labelNames: ['receiver'],
      registers,
    });
  }
}
