import { RedisScripts } from '../redis/commands.ts';
import type { RedisConnection } from '../redis/connect.ts';
import type { RedisKeys } from '../redis/keys.ts';
import {
  type Activity,
  ActivitySchema,
  type Counter,
  type FeedbackAnswer,
  fieldOf,
  MAX_ACTIVITIES,
  MAX_NOTE_CHARS,
  type OutcomeRow,
  type OutcomeStore,
  type OutcomeSubject,
  rowsOf,
} from './outcomes.ts';

/** A year: outcomes are a team's memory of what worked; each write pushes the expiry on. */
export const OUTCOME_TTL_SECONDS = 365 * 24 * 3600;

/**
 * Outcomes in Redis, shared by every replica and by `memdoctor stats`. A workspace's keys share one
 * hash tag, so the feedback script's two keys sit in one Cluster slot.
 */
export class RedisOutcomeStore implements OutcomeStore {
  readonly kind = 'redis';
  private readonly scripts: RedisScripts;

  constructor(
    private readonly redis: RedisConnection,
    private readonly keys: RedisKeys,
    private readonly ttlSeconds = OUTCOME_TTL_SECONDS,
  ) {
    this.scripts = new RedisScripts(redis);
  }

  async count(subject: OutcomeSubject, counter: Counter): Promise<void> {
    const key = this.keys.outcomeCounts(subject.workspace);
    // One HINCRBY is atomic on its own; the EXPIRE only pushes the year on.
    await this.redis
      .multi()
      .hincrby(key, fieldOf(subject.playbook, subject.cause, counter), 1)
      .expire(key, this.ttlSeconds)
      .exec();
  }

  async feedback(answer: FeedbackAnswer): Promise<void> {
    await this.scripts.recordFeedback(
      {
        counts: this.keys.outcomeCounts(answer.workspace),
        answers: this.keys.outcomeAnswers(answer.workspace),
      },
      {
        walkthrough: answer.walkthrough,
        field: fieldOf(answer.playbook, answer.conclusion, answer.answer),
        ttlSeconds: this.ttlSeconds,
      },
    );
  }

  async note(workspace: string, walkthrough: string, note: string): Promise<void> {
    const key = this.keys.outcomeNotes(workspace);
    await this.redis
      .multi()
      .hset(key, walkthrough, note.slice(0, MAX_NOTE_CHARS))
      .expire(key, this.ttlSeconds)
      .exec();
  }

  async remember(workspace: string, activity: Activity): Promise<void> {
    const key = this.keys.outcomeActivity(workspace);
    await this.redis
      .multi()
      .lpush(key, JSON.stringify(activity))
      .ltrim(key, 0, MAX_ACTIVITIES - 1)
      .expire(key, this.ttlSeconds)
      .exec();
  }

  /** Stored JSON is a boundary: entries that do not parse are skipped. */
  async recent(workspace: string): Promise<Activity[]> {
    const raw = await this.redis.lrange(this.keys.outcomeActivity(workspace), 0, -1);
    return raw.flatMap((entry) => {
      try {
        const parsed = ActivitySchema.safeParse(JSON.parse(entry));
        return parsed.success ? [parsed.data] : [];
      } catch {
        return [];
      }
    });
  }

  async rows(workspace: string): Promise<OutcomeRow[]> {
    return rowsOf(await this.redis.hgetall(this.keys.outcomeCounts(workspace)));
  }
}
