import { ErrorCode, MemdoctorError } from '../errors.ts';
import type { RedisConnection } from './connect.ts';
import { defineScripts, type RunScript, ScriptCode } from './scripts.ts';

/**
 * A script refused its change with one of its negative codes (ScriptCode), named. `stored` is what
 * the script returned with it (the stored record JSON, for a version mismatch).
 */
export class ScriptRefusedError extends Error {
  constructor(
    readonly script: string,
    readonly code: ScriptCode,
    readonly stored?: string,
  ) {
    super(`${script} refused: ${ScriptCode[code] ?? code}`);
    this.name = 'ScriptRefusedError';
  }
}

/** The four keys a walkthrough write touches, in the scripts' KEYS order. */
export interface WalkthroughKeys {
  record: string;
  active: string;
  thread: string;
  audit: string;
}

/** One walkthrough write: what createWalkthrough-4.lua and replaceWalkthrough-4.lua take. */
export interface WalkthroughWrite {
  keys: WalkthroughKeys;
  id: string;
  version: number;
  json: string;
  ttlSeconds: number;
  /** Last activity, ms since the epoch (the active index's score). */
  activityMs: number;
  /** Listed in the active index. */
  listed: boolean;
  threaded: boolean;
  /** Audit entries (JSON each) leaving the record for the audit log, oldest first. */
  archived: readonly string[];
}

/** One change to a case, as addCaseInput-1.lua takes it. */
export interface CaseInputChange {
  expectedVersion: number;
  /** The input's facts as JSON; unset: record `leftOutByCount` as left out. */
  inputJson?: string;
  inputBytes: number;
  maxInputs: number;
  maxBytes: number;
  ttlSeconds: number;
  leftOutByCount: string;
  leftOutByBytes: string;
  answerTs?: string;
  engine?: string;
  at: string;
  maxLeftOut: number;
}

/** The keys of one person's fetch places (RedisKeys.fetchesRunning, ...RunningBy, ...StartedBy). */
export interface FetchSlotKeys {
  running: string;
  runningBy: string;
  startedBy: string;
}

/** One fetch's request for a place, as takeFetchSlot-3.lua takes it. */
export interface FetchSlotRequest {
  lease: string;
  leaseMs: number;
  perUser: number;
  perUserPerWindow: number;
  total: number;
  windowMs: number;
}

/** A place taken, or the cap that refused it. */
export type FetchSlotReply =
  | { taken: true }
  | { refused: ScriptCode.FetchPerUser | ScriptCode.FetchTotal; count: number }
  | { refused: ScriptCode.FetchPerWindow; count: number; waitMs: number };

/** How a case change went: added, left out as asked, or left out by a limit. */
export type CaseOutcome = 'added' | 'left-out' | ScriptCode.CaseInputsFull | ScriptCode.CaseBytesFull;

const flag = (on: boolean) => (on ? '1' : '0');

function keyList(keys: WalkthroughKeys): string[] {
  return [keys.record, keys.active, keys.thread, keys.audit];
}

/**
 * Every Lua script memdoctor runs, with its arguments packed in the order its header names them
 * (src/redis/lua/<name>-<keys>.lua) and its negative codes thrown as ScriptRefusedError: the one
 * place that knows the scripts' calling conventions (BullMQ's shape).
 */
export class RedisScripts {
  private readonly run: RunScript;

  constructor(redis: RedisConnection) {
    this.run = defineScripts(redis);
  }

  /** Throws ScriptRefusedError(RecordExists) when the id is taken. */
  async createWalkthrough(write: WalkthroughWrite): Promise<void> {
    const code = await this.run('createWalkthrough', keyList(write.keys), [
      write.json,
      write.version,
      write.ttlSeconds,
      write.id,
      write.activityMs,
      flag(write.listed),
      flag(write.threaded),
      ...write.archived,
    ]);
    if (code === ScriptCode.RecordExists) throw new ScriptRefusedError('createWalkthrough', code);
  }

  /** Throws ScriptRefusedError(RecordMissing), or (VersionMismatch) with the stored record. */
  async replaceWalkthrough(write: WalkthroughWrite, expectedVersion: number): Promise<void> {
    const reply = (await this.run('replaceWalkthrough', keyList(write.keys), [
      expectedVersion,
      write.version,
      write.json,
      write.ttlSeconds,
      write.id,
      write.activityMs,
      flag(write.listed),
      flag(write.threaded),
      ...write.archived,
    ])) as [number, string?];
    const [code, stored] = reply;
    if (code === ScriptCode.RecordMissing || code === ScriptCode.VersionMismatch)
      throw new ScriptRefusedError('replaceWalkthrough', code, stored);
    if (code !== write.version)
      throw new MemdoctorError(
        ErrorCode.Internal,
        `unexpected reply from replaceWalkthrough: ${JSON.stringify(reply)}`,
      );
  }

  /**
   * Adds an input's facts (`inputJson`) to a case, or records it as left out; resolves to the new
   * version and how it went. Throws ScriptRefusedError(VersionMismatch) when the case moved on.
   */
  async addCaseInput(key: string, change: CaseInputChange): Promise<{ version: number; code: CaseOutcome }> {
    const reply = (await this.run(
      'addCaseInput',
      [key],
      [
        change.expectedVersion,
        change.inputJson ?? '',
        change.inputBytes,
        change.maxInputs,
        change.maxBytes,
        change.ttlSeconds,
        change.leftOutByCount,
        change.leftOutByBytes,
        change.answerTs ?? '',
        change.engine ?? '',
        change.at,
        change.maxLeftOut,
      ],
    )) as [number, number?];
    const [first, second] = reply;
    if (first === ScriptCode.VersionMismatch) throw new ScriptRefusedError('addCaseInput', first);
    if (first === ScriptCode.CaseInputsFull || first === ScriptCode.CaseBytesFull)
      return { version: Number(second), code: first };
    if (first > 0 && (second === 0 || second === 1))
      return { version: first, code: second === 1 ? 'added' : 'left-out' };
    throw new MemdoctorError(
      ErrorCode.Internal,
      `unexpected reply from addCaseInput: ${JSON.stringify(reply)}`,
    );
  }

  /** Counts one model request in its window; the count so far. */
  async countModelRequest(key: string, windowSeconds: number): Promise<number> {
    return Number(await this.run('countModelRequest', [key], [windowSeconds]));
  }

  /**
   * Takes a fetch's place under the caps, across replicas: `taken`, or the cap that refused it with
   * its count (and, for the window, the ms until a start leaves it).
   */
  async takeFetchSlot(keys: FetchSlotKeys, slot: FetchSlotRequest): Promise<FetchSlotReply> {
    const reply = (await this.run(
      'takeFetchSlot',
      [keys.running, keys.runningBy, keys.startedBy],
      [slot.lease, slot.leaseMs, slot.perUser, slot.perUserPerWindow, slot.total, slot.windowMs],
    )) as [number, number?, number?];
    const [code, count = 0, waitMs = 0] = reply;
    if (code === 1) return { taken: true };
    if (code === ScriptCode.FetchPerUser || code === ScriptCode.FetchTotal) return { refused: code, count };
    if (code === ScriptCode.FetchPerWindow) return { refused: code, count, waitMs };
    throw new MemdoctorError(
      ErrorCode.Internal,
      `unexpected reply from takeFetchSlot: ${JSON.stringify(reply)}`,
    );
  }

  /** Renews a running fetch's lease; false when it had lapsed already. */
  async renewFetchSlot(keys: FetchSlotKeys, lease: string, leaseMs: number): Promise<boolean> {
    return Number(await this.run('renewFetchSlot', [keys.running, keys.runningBy], [lease, leaseMs])) === 1;
  }

  /** Gives a finished fetch's place back. */
  async releaseFetchSlot(keys: FetchSlotKeys, lease: string): Promise<void> {
    await this.run('releaseFetchSlot', [keys.running, keys.runningBy], [lease]);
  }

  /** Accepts an alert delivery (acceptAlert-3.lua): true when queued, false for a duplicate. */
  async acceptAlert(
    keys: { delivery: string; stream: string; incident: string },
    alert: { json: string; deliveryTtlSeconds: number; incidentTtlSeconds: number },
  ): Promise<boolean> {
    const reply = await this.run(
      'acceptAlert',
      [keys.delivery, keys.stream, keys.incident],
      [alert.json, alert.deliveryTtlSeconds, alert.incidentTtlSeconds],
    );
    return Number(reply) === 1;
  }

  /** Acknowledges and removes a stream entry (finishAlert-1.lua): false when it was not pending. */
  async finishAlert(stream: string, group: string, id: string): Promise<boolean> {
    return Number(await this.run('finishAlert', [stream], [group, id])) === 1;
  }

  /** Moves a pending entry to the retries, due at `atMs` (postponeAlert-2.lua). */
  async postponeAlert(
    keys: { stream: string; retries: string },
    entry: { group: string; id: string; atMs: number; member: string },
  ): Promise<boolean> {
    const reply = await this.run(
      'postponeAlert',
      [keys.stream, keys.retries],
      [entry.group, entry.id, entry.atMs, entry.member],
    );
    return Number(reply) === 1;
  }

  /** Moves the retries due by `nowMs` back onto the stream (dueAlerts-2.lua); how many. */
  async dueAlerts(keys: { retries: string; stream: string }, nowMs: number, max: number): Promise<number> {
    return Number(await this.run('dueAlerts', [keys.retries, keys.stream], [nowMs, max]));
  }

  /** Moves a pending entry to the dead letters (deadLetterAlert-2.lua). */
  async deadLetterAlert(
    keys: { stream: string; dead: string },
    entry: { group: string; id: string; json: string; keep: number },
  ): Promise<boolean> {
    const reply = await this.run(
      'deadLetterAlert',
      [keys.stream, keys.dead],
      [entry.group, entry.id, entry.json, entry.keep],
    );
    return Number(reply) === 1;
  }

  /** Deletes a claim if `owner` still holds it (releaseClaim-1.lua). */
  async releaseClaim(key: string, owner: string): Promise<boolean> {
    return Number(await this.run('releaseClaim', [key], [owner])) === 1;
  }

  /** Records (or moves) one walkthrough's "Did this fix it?" answer under `field`. */
  async recordFeedback(
    keys: { counts: string; answers: string },
    answer: { walkthrough: string; field: string; ttlSeconds: number },
  ): Promise<void> {
    await this.run(
      'recordFeedback',
      [keys.counts, keys.answers],
      [answer.walkthrough, answer.field, answer.ttlSeconds],
    );
  }
}
