import { z } from 'zod';
import { type MemdoctorError, messageOf } from '../errors.ts';
import { RedisScripts } from '../redis/commands.ts';
import { type RedisConnection, targetOf } from '../redis/connect.ts';
import { storeFailure } from '../redis/failure.ts';
import { RedisKeys } from '../redis/keys.ts';
import type { RedisTarget } from '../redis/target.ts';
import {
  DEFAULT_DELIVERY_TTL_SECONDS,
  DEFAULT_INCIDENT_TTL_SECONDS,
  DEFAULT_LEASE_MS,
  type DeadLetter,
  type IncidentDelivery,
  type IncidentQueue,
  MAX_DEAD_LETTERS,
} from './queue.ts';
import { type IncidentState, IncidentStateSchema } from './state.ts';
import { RoutedAlertSchema, readStoredJson } from './stored.ts';
import type { IntakeOutcome, RoutedAlert } from './types.ts';

/** Options for the Redis queue. */
export interface RedisIncidentQueueOptions {
  /** Key prefix; tests use a random one each. Default `memdoctor`. */
  prefix?: string;
  leaseMs?: number;
  deliveryTtlSeconds?: number;
  incidentTtlSeconds?: number;
  /** Close the connection on `close()` (true when the queue opened it). */
  ownsConnection?: boolean;
  target?: RedisTarget;
  now?: () => number;
  /** Told of a stored entry that could not be read back (set aside as a dead letter): a bug or a hand edit. */
  onUnreadable?: (id: string, reason: string) => void;
}

/** The consumer group every replica reads the stream in. */
const GROUP = 'memdoctor';

type StreamEntry = [id: string, fields: string[]];

const DeadLetterSchema = z.object({
  alert: RoutedAlertSchema.optional(),
  raw: z.string().optional(),
  attempts: z.number(),
  reason: z.string(),
  at: z.string(),
});

function fieldOf(fields: readonly string[], name: string): string | undefined {
  for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i] === name) return fields[i + 1];
  return undefined;
}

/**
 * The durable intake in Redis: a stream read by one consumer group (every replica a consumer), a
 * sorted set of retries, a list of dead letters, and per incident its state and claim. Each change
 * that touches more than one key is one Lua script (src/redis/lua/*Alert*.lua): all or nothing.
 */
export class RedisIncidentQueue implements IncidentQueue {
  readonly kind = 'redis' as const;
  readonly keys: RedisKeys;
  private readonly scripts: RedisScripts;
  private readonly target: RedisTarget;
  private readonly leaseMs: number;
  private readonly now: () => number;
  private grouped = false;

  constructor(
    private readonly redis: RedisConnection,
    private readonly options: RedisIncidentQueueOptions = {},
  ) {
    this.keys = new RedisKeys(options.prefix);
    this.scripts = new RedisScripts(redis);
    this.target = options.target ?? targetOf(redis);
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    this.now = options.now ?? Date.now;
  }

  /** Runs Redis calls; a failure becomes a StoreUnavailableError naming the setting. */
  private async call<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      throw (await storeFailure(error, this.redis, this.target)) as MemdoctorError;
    }
  }

  async accept(alert: RoutedAlert): Promise<IntakeOutcome> {
    const queued = await this.call(() =>
      this.scripts.acceptAlert(
        {
          delivery: this.keys.alertDelivery(alert.event.deliveryId),
          stream: this.keys.alertStream(),
          incident: this.keys.incident(alert.event.incidentKey),
        },
        {
          json: JSON.stringify(alert),
          deliveryTtlSeconds: this.options.deliveryTtlSeconds ?? DEFAULT_DELIVERY_TTL_SECONDS,
          incidentTtlSeconds: this.incidentTtl(),
        },
      ),
    );
    return queued ? 'queued' : 'duplicate';
  }

  private incidentTtl(): number {
    return this.options.incidentTtlSeconds ?? DEFAULT_INCIDENT_TTL_SECONDS;
  }

  /** The consumer group, made once per process (with the stream, from its first entry). */
  private async ensureGroup(): Promise<void> {
    if (this.grouped) return;
    try {
      await this.redis.xgroup('CREATE', this.keys.alertStream(), GROUP, '0', 'MKSTREAM');
    } catch (error) {
      if (!/BUSYGROUP/.test(messageOf(error))) throw error;
    }
    this.grouped = true;
  }

  async take(consumer: string, max: number): Promise<IncidentDelivery[]> {
    return this.call(async () => {
      await this.ensureGroup();
      const stream = this.keys.alertStream();
      await this.scripts.dueAlerts({ retries: this.keys.alertRetries(), stream }, this.now(), max);
      const claimed = (await this.redis.xautoclaim(
        stream,
        GROUP,
        consumer,
        this.leaseMs,
        '0-0',
        'COUNT',
        max,
      )) as [string, StreamEntry[]];
      const entries = [...claimed[1]];
      if (entries.length < max) {
        const read = (await this.redis.xreadgroup(
          'GROUP',
          GROUP,
          consumer,
          'COUNT',
          max - entries.length,
          'STREAMS',
          stream,
          '>',
        )) as [string, StreamEntry[]][] | null;
        entries.push(...(read?.[0]?.[1] ?? []));
      }
      return this.readable(entries);
    });
  }

  /** The entries as deliveries; one that cannot be read back is set aside as a dead letter, not retried forever. */
  private async readable(entries: readonly StreamEntry[]): Promise<IncidentDelivery[]> {
    const deliveries: IncidentDelivery[] = [];
    for (const [id, fields] of entries) {
      try {
        deliveries.push(this.deliveryOf(id, fields));
      } catch (error) {
        const reason = messageOf(error);
        const letter = {
          raw: fieldOf(fields, 'alert') ?? '',
          attempts: 0,
          reason,
          at: new Date(this.now()).toISOString(),
        };
        await this.scripts.deadLetterAlert(
          { stream: this.keys.alertStream(), dead: this.keys.alertDeadLetters() },
          { group: GROUP, id, json: JSON.stringify(letter), keep: MAX_DEAD_LETTERS },
        );
        this.options.onUnreadable?.(id, reason);
      }
    }
    return deliveries;
  }

  private deliveryOf(id: string, fields: readonly string[]): IncidentDelivery {
    const alert = readStoredJson(RoutedAlertSchema, fieldOf(fields, 'alert') ?? '', `alert ${id}`);
    return { id, alert, attempts: Number(fieldOf(fields, 'attempts') ?? 0) };
  }

  async renew(delivery: IncidentDelivery, consumer: string): Promise<void> {
    await this.call(() =>
      // XCLAIM with no minimum idle time and JUSTID: resets the entry's idle time, nothing else.
      this.redis.call('XCLAIM', this.keys.alertStream(), GROUP, consumer, 0, delivery.id, 'JUSTID'),
    );
  }

  async done(delivery: IncidentDelivery): Promise<void> {
    await this.call(() => this.scripts.finishAlert(this.keys.alertStream(), GROUP, delivery.id));
  }

  async later(delivery: IncidentDelivery, delayMs: number, attempts: number): Promise<void> {
    const member = JSON.stringify({ id: delivery.id, alert: JSON.stringify(delivery.alert), attempts });
    await this.call(() =>
      this.scripts.postponeAlert(
        { stream: this.keys.alertStream(), retries: this.keys.alertRetries() },
        { group: GROUP, id: delivery.id, atMs: this.now() + delayMs, member },
      ),
    );
  }

  async deadLetter(delivery: IncidentDelivery, reason: string): Promise<void> {
    const letter: DeadLetter = {
      alert: delivery.alert,
      attempts: delivery.attempts + 1,
      reason,
      at: new Date(this.now()).toISOString(),
    };
    await this.call(() =>
      this.scripts.deadLetterAlert(
        { stream: this.keys.alertStream(), dead: this.keys.alertDeadLetters() },
        { group: GROUP, id: delivery.id, json: JSON.stringify(letter), keep: MAX_DEAD_LETTERS },
      ),
    );
  }

  async deadLetters(limit: number): Promise<DeadLetter[]> {
    const items = await this.call(() => this.redis.lrange(this.keys.alertDeadLetters(), 0, limit - 1));
    return items.map((item, i) => readStoredJson(DeadLetterSchema, item, `dead letter ${i + 1}`));
  }

  async backlog(): Promise<number> {
    const [waiting, retrying] = await this.call(() =>
      Promise.all([this.redis.xlen(this.keys.alertStream()), this.redis.zcard(this.keys.alertRetries())]),
    );
    return waiting + retrying;
  }

  async claimIncident(key: string, owner: string, ms: number): Promise<boolean> {
    const claim = this.keys.incidentClaim(key);
    const set = await this.call(() => this.redis.set(claim, owner, 'PX', ms, 'NX'));
    if (set === 'OK') return true;
    if ((await this.call(() => this.redis.get(claim))) !== owner) return false;
    await this.call(() => this.redis.pexpire(claim, ms));
    return true;
  }

  async releaseIncident(key: string, owner: string): Promise<void> {
    await this.call(() => this.scripts.releaseClaim(this.keys.incidentClaim(key), owner));
  }

  async incident(key: string): Promise<IncidentState | undefined> {
    const json = await this.call(() => this.redis.hget(this.keys.incident(key), 'state'));
    return json ? readStoredJson(IncidentStateSchema, json, `incident ${key}`) : undefined;
  }

  async saveIncident(key: string, state: IncidentState): Promise<void> {
    const hash = this.keys.incident(key);
    await this.call(() =>
      this.redis.multi().hset(hash, 'state', JSON.stringify(state)).expire(hash, this.incidentTtl()).exec(),
    );
  }

  async close(): Promise<void> {
    if (this.options.ownsConnection) await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
