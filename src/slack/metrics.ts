import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { EngineBusyError, EngineTimeoutError, ErrorCode, MemdoctorError } from '../errors.ts';

/** Why an input was refused, as memdoctor_refusals_total labels it; undefined: not a refusal. */
export function refusalReason(error: unknown): 'busy' | 'timeout' | 'too_large' | undefined {
  if (error instanceof EngineBusyError) return 'busy';
  if (error instanceof EngineTimeoutError) return 'timeout';
  if (error instanceof MemdoctorError && error.code === ErrorCode.InputTooLarge) return 'too_large';
  return undefined;
}

/** Seconds; the ack buckets sit around Slack's 3 s limit and the 100 ms goal. */
const ACK_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 3];
const DIAGNOSIS_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/**
 * What GET /metrics shows (Prometheus text). One registry per app, not prom-client's global one,
 * so two apps in one process (tests, replicas in a bench) never share counters.
 */
export class SlackMetrics {
  readonly registry = new Registry();
  readonly diagnoses = new Counter({
    name: 'memdoctor_diagnoses_total',
    help: 'Diagnoses finished, by top playbook ("none" when nothing was recognised)',
    labelNames: ['playbook'],
    registers: [this.registry],
  });
  readonly diagnosisSeconds = new Histogram({
    name: 'memdoctor_diagnosis_duration_seconds',
    help: 'Time from the start of a diagnosis (reading a download included) to its result',
    buckets: DIAGNOSIS_BUCKETS,
    registers: [this.registry],
  });
  readonly ackSeconds = new Histogram({
    name: 'memdoctor_ack_latency_seconds',
    help: 'Time from a Slack request reaching the app to its acknowledgement',
    buckets: ACK_BUCKETS,
    registers: [this.registry],
  });
  readonly walkthroughStarts = new Counter({
    name: 'memdoctor_walkthrough_starts_total',
    help: 'Walkthroughs started, by playbook',
    labelNames: ['playbook'],
    registers: [this.registry],
  });
  readonly walkthroughTransitions = new Counter({
    name: 'memdoctor_walkthrough_transitions_total',
    help: 'Walkthrough events applied, by event type',
    labelNames: ['event'],
    registers: [this.registry],
  });
  readonly redisErrors = new Counter({
    name: 'memdoctor_redis_errors_total',
    help: 'Errors reported by the Redis connection the app opens (a cluster client and each of its nodes included)',
    labelNames: ['source'],
    registers: [this.registry],
  });

  readonly engineThreadErrors = new Counter({
    name: 'memdoctor_engine_thread_errors_total',
    help: 'Diagnosis threads that died holding no input (the pool starts another)',
    registers: [this.registry],
  });

  readonly refusals = new Counter({
    name: 'memdoctor_refusals_total',
    help: 'Inputs refused and the person told why: busy (queue full), memory (in-flight byte cap), timeout (time budget), too_large',
    labelNames: ['reason'],
    registers: [this.registry],
  });

  readonly inflightBytes = new Gauge({
    name: 'memdoctor_inflight_bytes',
    help: 'Bytes of pastes and uploads in hand now (counted against MEMDOCTOR_MAX_INFLIGHT_BYTES)',
    registers: [this.registry],
  });

  readonly inflightPeakBytes = new Gauge({
    name: 'memdoctor_inflight_bytes_peak',
    help: 'The most bytes of pastes and uploads in hand at once since the app started',
    registers: [this.registry],
  });

  /** Sets the in-flight gauges to `held` bytes (InflightBytes tells each change). */
  inflightChanged(held: number): void {
    this.inflightBytes.set(held);
    if (held > (this.peakHeld ?? 0)) {
      this.peakHeld = held;
      this.inflightPeakBytes.set(held);
    }
  }

  private peakHeld: number | undefined;

  constructor(queueDepth: () => number = () => 0) {
    new Gauge({
      name: 'memdoctor_diagnosis_queue_depth',
      help: 'Inputs waiting for a diagnosis thread',
      registers: [this.registry],
      collect() {
        this.set(queueDepth());
      },
    });
    // Node's and the process's own metrics keep their usual names (process_*, nodejs_*), so stock
    // dashboards read them; only memdoctor's own carry the memdoctor_ prefix.
    collectDefaultMetrics({ register: this.registry });
  }

  /** Times `work`, then counts the diagnosis under its top playbook, or its refusal by reason. */
  async timeDiagnosis<T extends { report: { diagnoses: readonly { playbook: string }[] } }>(
    work: () => Promise<T>,
  ): Promise<T> {
    const stop = this.diagnosisSeconds.startTimer();
    let result: T;
    try {
      result = await work();
    } catch (error) {
      const reason = refusalReason(error);
      if (reason) this.refusals.inc({ reason });
      throw error;
    }
    stop();
    this.diagnoses.inc({ playbook: result.report.diagnoses[0]?.playbook ?? 'none' });
    return result;
  }
}
