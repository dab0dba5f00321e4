import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SlackMetrics } from './metrics.ts';

/**
 * Longest a listener's work after its ack waits for other requests' acks: under a steady stream of
 * requests the work still goes on, a little later.
 */
export const MAX_DEFER_MS = 500;

/**
 * How long no new request must have arrived before work after an ack goes on. Requests still in
 * the kernel's buffers cannot be counted; in a burst they arrive well within this of each other.
 */
export const QUIET_MS = 10;

/**
 * Acknowledgements before everything else on the event loop. Fifty slash commands arriving at once
 * each cost a few milliseconds to read, verify and parse; if the work after one command's ack (the
 * hand-over to the worker pool, the "queued" notice, rendering the diagnosis, posting it) ran as soon
 * as that ack was sent, the fiftieth command would wait behind forty-nine commands' work. So the HTTP
 * receiver counts the requests it is still to answer, and each listener's `await ack()` returns
 * only once none is left and none has arrived for QUIET_MS (or after MAX_DEFER_MS in all).
 */
export class AckQueue {
  private unanswered = 0;
  private lastArrival = Number.NEGATIVE_INFINITY;
  private waiting: (() => void)[] = [];

  constructor(
    private readonly maxDeferMs = MAX_DEFER_MS,
    private readonly quietMs = QUIET_MS,
  ) {}

  /** Requests read but not yet answered (the tests read it). */
  get pending(): number {
    return this.unanswered;
  }

  /** Counts one request from its arrival until its response is ended (the ack, or any refusal). */
  track(res: ServerResponse): void {
    this.unanswered++;
    this.lastArrival = performance.now();
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    let answered = false;
    const done = () => {
      if (answered) return;
      answered = true;
      this.unanswered--;
      if (this.unanswered === 0) this.release();
    };
    res.end = ((...args: unknown[]) => {
      done();
      return end(...args);
    }) as ServerResponse['end'];
    res.once('close', done);
  }

  /**
   * Resolves once no request is waiting for its answer and none has arrived for QUIET_MS, or after
   * the deferral limit. Always after at least one turn of the event loop, so requests whose bytes
   * have already arrived are read first.
   */
  settled(): Promise<void> {
    const deadline = performance.now() + this.maxDeferMs;
    return new Promise((resolve) => {
      let finished = false;
      const finish = () => {
        if (finished) return;
        finished = true;
        clearTimeout(limit);
        resolve();
      };
      const limit = setTimeout(finish, this.maxDeferMs);
      const check = () => {
        if (finished) return;
        const now = performance.now();
        if (now >= deadline) return finish();
        if (this.unanswered > 0) return void this.waiting.push(check);
        const quietFor = now - this.lastArrival;
        if (quietFor >= this.quietMs) return finish();
        setTimeout(check, this.quietMs - quietFor);
      };
      setImmediate(check);
    });
  }

  private release(): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const wake of waiting) wake();
  }
}

interface AckableEvent {
  body: unknown;
  ack: (response?: unknown) => Promise<void>;
}

/** A slash command's ack never carries a body in memdoctor (its answers go to response_url). */
function isSlashCommand(body: unknown): boolean {
  return typeof (body as { command?: unknown } | null)?.command === 'string';
}

/**
 * Wraps the ack the receiver hands to App.processEvent: a slash command is acknowledged at once,
 * before authorization, middleware (the dedupe claim in Redis) or the listener (over HTTP the
 * receiver has already answered it, see receiver.ts; over Socket Mode this is its ack); with
 * `metrics`, every ack is timed for GET /metrics; and the listener's `await ack()` resumes only
 * when the acks of the other requests that arrived have gone out (AckQueue.settled).
 */
export function acknowledgeFirst(
  app: { processEvent(event: AckableEvent): Promise<void> },
  options: { metrics?: SlackMetrics; acks?: AckQueue },
): void {
  const process = app.processEvent.bind(app);
  const { metrics, acks } = options;
  app.processEvent = (event: AckableEvent) => {
    const stop = metrics?.ackSeconds.startTimer();
    const ack = event.ack;
    let sent: Promise<void> | undefined;
    const send = (response?: unknown) => {
      if (!sent) {
        stop?.();
        sent = ack(response);
      }
      return sent;
    };
    if (isSlashCommand(event.body)) void send().catch(() => undefined);
    event.ack = async (response?: unknown) => {
      await send(response);
      await acks?.settled();
    };
    return process(event);
  };
}

/** The HTTP receiver's request listener, counting each request in `queue` until it is answered. */
export function countingRequests(
  handle: (req: IncomingMessage, res: ServerResponse) => void,
  queue: AckQueue,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    if (req.method === 'POST') queue.track(res);
    handle(req, res);
  };
}
