import { LRUCache } from 'lru-cache';
import { StoreProblem, StoreUnavailableError } from '../errors.ts';
import {
  DEFAULT_DELIVERY_TTL_SECONDS,
  DEFAULT_INCIDENT_TTL_SECONDS,
  DEFAULT_LEASE_MS,
  type DeadLetter,
  type IncidentDelivery,
  type IncidentQueue,
  MAX_DEAD_LETTERS,
} from './queue.ts';
import type { IncidentState } from './state.ts';
import type { IntakeOutcome, RoutedAlert } from './types.ts';

/** Options for the memory queue. */
export interface MemoryIncidentQueueOptions {
  leaseMs?: number;
  deliveryTtlSeconds?: number;
  incidentTtlSeconds?: number;
  /** How many delivery ids and incidents are remembered at most; past it the least recently used go first. */
  maxRemembered?: { deliveries: number; incidents: number };
  /** Past this many deliveries not done, `accept` refuses (the sender retries later). Default 10,000. */
  maxBacklog?: number;
  now?: () => number;
}

/**
 * The most one process remembers. Alertmanager repeats a firing every few hours and a sender retries
 * within hours, so a week of ids from a busy install fits (about 150 bytes each); an id forgotten
 * early only lets a late retry post its alert again, never loses one. An incident is used again by
 * every delivery, so the one forgotten first is the one quiet the longest.
 */
export const MEMORY_MAX_REMEMBERED = { deliveries: 50_000, incidents: 10_000 } as const;

interface Entry {
  seq: number;
  alert: RoutedAlert;
  attempts: number;
  notBefore: number;
  owner?: string;
  leasedUntil?: number;
}

/**
 * The intake of the embedded default: everything in this process, lost on restart, seen by no other
 * replica (serve warns of it as it warns of memory walkthroughs). Same semantics as the Redis queue.
 */
export class MemoryIncidentQueue implements IncidentQueue {
  readonly kind = 'memory' as const;
  private readonly entries = new Map<string, Entry>();
  private readonly seen: LRUCache<string, true>;
  private readonly claims = new Map<string, { owner: string; until: number }>();
  private readonly incidents: LRUCache<string, IncidentState>;
  private readonly dead: DeadLetter[] = [];
  private seq = 0;
  private readonly now: () => number;
  private readonly leaseMs: number;

  constructor(private readonly options: MemoryIncidentQueueOptions = {}) {
    this.now = options.now ?? Date.now;
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    const max = options.maxRemembered ?? MEMORY_MAX_REMEMBERED;
    // As Redis expires them (acceptAlert-3.lua, saveIncident): one TTL each, from src/incidents/queue.ts.
    this.seen = this.remembering(max.deliveries, options.deliveryTtlSeconds ?? DEFAULT_DELIVERY_TTL_SECONDS);
    this.incidents = this.remembering(
      max.incidents,
      options.incidentTtlSeconds ?? DEFAULT_INCIDENT_TTL_SECONDS,
    );
  }

  private remembering<V extends {}>(max: number, ttlSeconds: number): LRUCache<string, V> {
    // The queue's clock, read at every call (ttlResolution 0): a test's clock jumps, and lru-cache
    // would otherwise keep the time it read for a millisecond.
    return new LRUCache<string, V>({
      max,
      ttl: ttlSeconds * 1000,
      perf: { now: this.now },
      ttlResolution: 0,
    });
  }

  async accept(alert: RoutedAlert): Promise<IntakeOutcome> {
    if (this.seen.has(alert.event.deliveryId)) return 'duplicate';
    if (this.entries.size >= (this.options.maxBacklog ?? 10_000))
      throw new StoreUnavailableError(
        StoreProblem.Refused,
        'the in-memory intake is full',
        `The in-memory alert intake holds ${this.entries.size} alerts not yet posted; the sender is answered 503 and retries. Set REDIS_URL for a durable intake shared by replicas.`,
      );
    this.seen.set(alert.event.deliveryId, true);
    // A delivery keeps its incident another TTL, as the Lua's EXPIRE does.
    const state = this.incidents.get(alert.event.incidentKey);
    if (state) this.incidents.set(alert.event.incidentKey, state);
    const seq = ++this.seq;
    this.entries.set(String(seq), { seq, alert, attempts: 0, notBefore: 0 });
    return 'queued';
  }

  async take(consumer: string, max: number): Promise<IncidentDelivery[]> {
    const now = this.now();
    const free = (e: Entry) => (e.owner ? (e.leasedUntil ?? 0) <= now : e.notBefore <= now);
    const taken = [...this.entries.values()].filter(free).slice(0, max);
    for (const entry of taken) {
      entry.owner = consumer;
      entry.leasedUntil = now + this.leaseMs;
    }
    return taken.map((e) => ({ id: String(e.seq), alert: e.alert, attempts: e.attempts }));
  }

  async renew(delivery: IncidentDelivery, consumer: string): Promise<void> {
    const entry = this.entries.get(delivery.id);
    if (entry?.owner === consumer) entry.leasedUntil = this.now() + this.leaseMs;
  }

  async done(delivery: IncidentDelivery): Promise<void> {
    this.entries.delete(delivery.id);
  }

  async later(delivery: IncidentDelivery, delayMs: number, attempts: number): Promise<void> {
    const entry = this.entries.get(delivery.id);
    if (!entry) return;
    delete entry.owner;
    delete entry.leasedUntil;
    entry.attempts = attempts;
    entry.notBefore = this.now() + delayMs;
  }

  async deadLetter(delivery: IncidentDelivery, reason: string): Promise<void> {
    if (!this.entries.delete(delivery.id)) return;
    const at = new Date(this.now()).toISOString();
    this.dead.unshift({ alert: delivery.alert, attempts: delivery.attempts + 1, reason, at });
    this.dead.length = Math.min(this.dead.length, MAX_DEAD_LETTERS);
  }

  async deadLetters(limit: number): Promise<DeadLetter[]> {
    return this.dead.slice(0, limit);
  }

  async backlog(): Promise<number> {
    return this.entries.size;
  }

  async claimIncident(key: string, owner: string, ms: number): Promise<boolean> {
    const now = this.now();
    const held = this.claims.get(key);
    if (held && held.until > now && held.owner !== owner) return false;
    this.claims.set(key, { owner, until: now + ms });
    return true;
  }

  async releaseIncident(key: string, owner: string): Promise<void> {
    if (this.claims.get(key)?.owner === owner) this.claims.delete(key);
  }

  async incident(key: string): Promise<IncidentState | undefined> {
    return this.incidents.get(key);
  }

  async saveIncident(key: string, state: IncidentState): Promise<void> {
    this.incidents.set(key, state);
  }

  async close(): Promise<void> {}
}
