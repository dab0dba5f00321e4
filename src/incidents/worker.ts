import type { Logger } from 'pino';
import { messageOf } from '../errors.ts';
import { backoffMs, DELIVERY_BACKOFF } from './backoff.ts';
import { DEFAULT_LEASE_MS, type IncidentDelivery, type IncidentQueue } from './queue.ts';

/** What the worker asks of whoever handles a delivery (the Slack surface, through the use case). */
export type DeliveryHandler = (delivery: IncidentDelivery, attempt: { last: boolean }) => Promise<void>;

/** A failure that says how long to wait (Slack's Retry-After): the retry waits at least that long. */
export interface WaitHint {
  retryAfterMs?: number;
}

/** What the worker tells its counters (GET /metrics). */
export interface WorkerEvents {
  processed?(delivery: IncidentDelivery): void;
  retried?(delivery: IncidentDelivery, reason: string): void;
  deadLettered?(delivery: IncidentDelivery, reason: string): void;
}

export interface WorkerOptions {
  /** This worker's name in the consumer group: unique per replica and process. */
  consumer: string;
  /** Attempts before a delivery becomes a dead letter. Default 8 (about 10 minutes of backoff). */
  maxAttempts?: number;
  /** The wait before retry n (1-based). Default DELIVERY_BACKOFF: 5 s, doubling, at most 5 minutes. */
  backoffMs?: (retry: number) => number;
  /** How long to wait for an incident another worker holds. Default 1 s. */
  heldWaitMs?: number;
  /** How long to sleep when there was nothing to take. Default 500 ms. */
  idleMs?: number;
  /** Deliveries taken at once (each incident one at a time). Default 8. */
  batch?: number;
  leaseMs?: number;
  log?: Logger;
  events?: WorkerEvents;
}

export const DEFAULT_MAX_ATTEMPTS = 8;

export function defaultBackoffMs(retry: number): number {
  return backoffMs(DELIVERY_BACKOFF, retry);
}

/**
 * Takes accepted alerts from the queue and hands each to the handler, at least once: one worker at a
 * time per incident (its claim), the lease renewed while it works, a failure retried with backoff
 * and, after the last attempt, kept as a dead letter (logged and counted), never dropped.
 */
export class IncidentWorker {
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private readonly leaseMs: number;

  constructor(
    private readonly queue: IncidentQueue,
    private readonly handle: DeliveryHandler,
    private readonly options: WorkerOptions,
  ) {
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Stops taking deliveries and waits for those in hand to finish. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (this.running) {
      let handled = 0;
      try {
        handled = await this.runOnce();
      } catch (error) {
        // The queue could not be read (Redis down): try again after the idle wait, as its client reconnects.
        this.options.log?.warn({ err: messageOf(error) }, 'alert queue not read');
      }
      if (handled === 0 && this.running) await this.sleep(this.options.idleMs ?? 500);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  /** Takes one batch and works it off; how many deliveries it took. */
  async runOnce(): Promise<number> {
    const taken = await this.queue.take(this.options.consumer, this.options.batch ?? 8);
    // Each delivery settles on its own: one that cannot even be put back (Redis gone) stays pending
    // and comes back after its lease, and must not leave the rest of the batch running unawaited.
    const settled = await Promise.allSettled(taken.map((delivery) => this.work(delivery)));
    for (const failed of settled.filter((s) => s.status === 'rejected'))
      this.options.log?.warn(
        { err: messageOf(failed.reason) },
        'alert left pending: handed out again after its lease',
      );
    return taken.length;
  }

  private async work(delivery: IncidentDelivery): Promise<void> {
    const key = delivery.alert.event.incidentKey;
    const { consumer } = this.options;
    // Per delivery, not per worker: two deliveries of one incident in a batch must not both hold it.
    const owner = `${consumer}/${delivery.id}`;
    try {
      if (!(await this.queue.claimIncident(key, owner, this.leaseMs))) {
        await this.queue.later(delivery, this.options.heldWaitMs ?? 1000, delivery.attempts);
        return;
      }
    } catch (error) {
      this.options.log?.warn({ incident: key, err: messageOf(error) }, 'incident not claimed');
      return; // Still pending: handed out again when its lease runs out.
    }
    const renewing = setInterval(() => {
      void Promise.all([
        this.queue.renew(delivery, consumer),
        this.queue.claimIncident(key, owner, this.leaseMs),
      ]).catch(() => {});
    }, this.leaseMs / 3);
    try {
      await this.attempt(delivery);
    } finally {
      clearInterval(renewing);
      await this.queue.releaseIncident(key, owner).catch(() => {});
    }
  }

  private async attempt(delivery: IncidentDelivery): Promise<void> {
    const maxAttempts = this.options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
    const last = delivery.attempts + 1 >= maxAttempts;
    const where = {
      incident: delivery.alert.event.incidentKey,
      delivery: delivery.alert.event.deliveryId,
      route: delivery.alert.route,
      attempt: delivery.attempts + 1,
    };
    try {
      await this.handle(delivery, { last });
      await this.queue.done(delivery);
      this.options.events?.processed?.(delivery);
      return;
    } catch (error) {
      const reason = messageOf(error);
      if (last) {
        await this.queue.deadLetter(delivery, reason).catch(() => {});
        this.options.log?.error({ ...where, err: reason }, 'alert given up on: kept as a dead letter');
        this.options.events?.deadLettered?.(delivery, reason);
        return;
      }
      const backoff = (this.options.backoffMs ?? defaultBackoffMs)(delivery.attempts + 1);
      const wait = Math.max(backoff, (error as WaitHint).retryAfterMs ?? 0);
      await this.queue.later(delivery, wait, delivery.attempts + 1).catch(() => {});
      this.options.log?.warn({ ...where, err: reason, retryInMs: wait }, 'alert not posted yet: retrying');
      this.options.events?.retried?.(delivery, reason);
    }
  }
}
