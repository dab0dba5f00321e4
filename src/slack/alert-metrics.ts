import { Counter, Gauge, type Registry } from 'prom-client';

/** The alert intake's figures in the app's GET /metrics (issue 38): what an operator alerts on. */
export class AlertMetrics {
  readonly processed: Counter<'change'>;
  readonly retries: Counter<'route'>;
  readonly deadLetters: Counter<'route'>;

  constructor(registry: Registry, backlog: () => Promise<number>) {
    this.processed = new Counter({
      name: 'memdoctor_alerts_processed_total',
      help: 'Alert deliveries done, by what they changed in their thread (opened, resolved, refired, unchanged)',
      labelNames: ['change'],
      registers: [registry],
    });
    this.retries = new Counter({
      name: 'memdoctor_alert_retries_total',
      help: 'Alert deliveries put back to be tried again (Slack or a connector did not answer)',
      labelNames: ['route'],
      registers: [registry],
    });
    this.deadLetters = new Counter({
      name: 'memdoctor_alert_dead_letters_total',
      help: 'Alert deliveries given up on after their last try and kept as dead letters',
      labelNames: ['route'],
      registers: [registry],
    });
    new Gauge({
      name: 'memdoctor_alert_backlog',
      help: 'Accepted alert deliveries not done yet (waiting, being posted or waiting to be retried)',
      registers: [registry],
      async collect() {
        this.set(await backlog().catch(() => Number.NaN));
      },
    });
  }
}
