import type { IncidentState } from './state.ts';
import type { AlertIntake, RoutedAlert } from './types.ts';

/** One accepted alert handed to a worker. */
export interface IncidentDelivery {
  /** The queue's id for it (a stream entry id in Redis). */
  id: string;
  alert: RoutedAlert;
  /** Failed attempts before this one. */
  attempts: number;
}

/** An alert given up on after its last attempt: kept, with why, for an operator to read. */
export interface DeadLetter {
  /** The alert; absent for a stored entry that could not be read back (then `raw` holds it). */
  alert?: RoutedAlert;
  raw?: string;
  attempts: number;
  reason: string;
  at: string;
}

/**
 * The durable intake as the workers see it. Two implementations with the same semantics (one
 * contract suite, test/incidents/queue-contract.ts): memory (the embedded default, one process) and
 * Redis (shared by replicas, survives restarts).
 */
export interface IncidentQueue extends AlertIntake {
  readonly kind: 'memory' | 'redis';
  /**
   * Up to `max` deliveries for `consumer`: those whose retry time has come, those a consumer took and
   * did not finish within the lease (it died), then new ones. Each stays owned by `consumer` until it
   * is done, retried or dead-lettered, or its lease runs out.
   */
  take(consumer: string, max: number): Promise<IncidentDelivery[]>;
  /** Extends the lease of a delivery still being worked on. */
  renew(delivery: IncidentDelivery, consumer: string): Promise<void>;
  /** Finished: removed for good. */
  done(delivery: IncidentDelivery): Promise<void>;
  /** Handed out again after `delayMs`, `attempts` as given (one more after a failure, the same when postponed). */
  later(delivery: IncidentDelivery, delayMs: number, attempts: number): Promise<void>;
  /** Given up on: removed from the queue and kept with the reason. */
  deadLetter(delivery: IncidentDelivery, reason: string): Promise<void>;
  /** The latest dead letters, newest first. */
  deadLetters(limit: number): Promise<DeadLetter[]>;
  /** Deliveries waiting, retrying or being worked on: what is not done yet. */
  backlog(): Promise<number>;
  /** Claims an incident for `owner` for `ms` (true for the same owner again): one worker at a time per incident. */
  claimIncident(key: string, owner: string, ms: number): Promise<boolean>;
  /** Lets the claim go, if `owner` still holds it. */
  releaseIncident(key: string, owner: string): Promise<void>;
  incident(key: string): Promise<IncidentState | undefined>;
  /** Stores the incident's state; the caller holds its claim. */
  saveIncident(key: string, state: IncidentState): Promise<void>;
  close(): Promise<void>;
}

/** How long a delivery, and an incident's claim, stays with a worker that stops renewing it. */
export const DEFAULT_LEASE_MS = 60_000;
/** How long a delivery id is remembered as seen: senders retry within hours, not weeks. */
export const DEFAULT_DELIVERY_TTL_SECONDS = 7 * 24 * 3600;
/** How long an incident's state is kept after its last delivery: as long as a case. */
export const DEFAULT_INCIDENT_TTL_SECONDS = 7 * 24 * 3600;
/** How many dead letters are kept (the oldest go first); every one is also logged and counted. */
export const MAX_DEAD_LETTERS = 1000;
