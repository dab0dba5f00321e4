import { CaseConflictError } from '../../errors.ts';
import { type CaseRecord, type CaseWhere, MAX_LEFT_OUT } from '../record.ts';
import {
  bytesLimitReason,
  type CaseAddition,
  type CaseChangeResult,
  type CaseStore,
  DEFAULT_CASE_TTL_SECONDS,
  inputsLimitReason,
} from './types.ts';
import { checkAddition, copyRecord } from './validate.ts';

/** Options for the memory store; `now` lets tests move time to check expiry. */
export interface MemoryCaseStoreOptions {
  ttlSeconds?: number;
  now?: () => number;
}

function keyOf(where: CaseWhere): string {
  return `${where.workspace}/${where.conversation}/${where.thread}`;
}

function empty(addition: CaseAddition): CaseRecord {
  return {
    version: 0,
    createdAt: addition.at,
    updatedAt: addition.at,
    ...(addition.engine ? { engine: addition.engine } : {}),
    inputs: [],
    leftOut: [],
    leftOutCount: 0,
    bytes: 0,
  };
}

/** Why the input does not fit, or undefined when it does (the Lua script checks the same, in the same order). */
function overLimit(record: CaseRecord, addition: CaseAddition): string | undefined {
  const { input, limits } = addition;
  if (!input) return undefined;
  if (record.inputs.length >= limits.maxInputs) return inputsLimitReason(limits);
  if (record.bytes + input.bytes > limits.maxBytes) return bytesLimitReason(limits, record.bytes);
  return undefined;
}

/**
 * The embedded default: the Redis store's semantics (version check, limits checked in the same
 * step, TTL refreshed on writes, copies in and out), lost when the process exits.
 */
export class MemoryCaseStore implements CaseStore {
  readonly kind = 'memory' as const;
  private readonly entries = new Map<string, { record: CaseRecord; expiresAt: number }>();
  private readonly claims = new Map<string, { owner: string; expiresAt: number }>();
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(options: MemoryCaseStoreOptions = {}) {
    this.ttlMs = (options.ttlSeconds ?? DEFAULT_CASE_TTL_SECONDS) * 1000;
    this.now = options.now ?? Date.now;
  }

  private live(where: CaseWhere): CaseRecord | undefined {
    const key = keyOf(where);
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry?.record;
  }

  async get(where: CaseWhere): Promise<CaseRecord | undefined> {
    const record = this.live(where);
    return record ? copyRecord(record) : undefined;
  }

  async add(where: CaseWhere, addition: CaseAddition, expectedVersion: number): Promise<CaseChangeResult> {
    const checked = checkAddition(where, addition);
    const stored = this.live(where);
    if ((stored?.version ?? 0) !== expectedVersion)
      throw new CaseConflictError('the case changed since it was read; read it again.');
    const next = copyRecord(stored ?? empty(addition));
    const over = overLimit(next, addition);
    const leftOut =
      over && addition.input
        ? { source: addition.input.name, reason: over }
        : checked.leftOutJson
          ? addition.leftOut
          : undefined;
    if (leftOut) {
      if (next.leftOut.length < MAX_LEFT_OUT) next.leftOut.push({ ...leftOut });
      next.leftOutCount++;
    } else if (checked.inputJson) {
      next.inputs.push(JSON.parse(checked.inputJson));
      next.bytes += addition.input?.bytes ?? 0;
    }
    if (addition.answerTs) next.answerTs = addition.answerTs;
    next.version++;
    next.updatedAt = addition.at;
    this.entries.set(keyOf(where), { record: next, expiresAt: this.now() + this.ttlMs });
    return { record: copyRecord(next), added: !leftOut, ...(leftOut ? { leftOut: { ...leftOut } } : {}) };
  }

  async claimAnswer(where: CaseWhere, owner: string, seconds: number): Promise<boolean> {
    const key = keyOf(where);
    const held = this.claims.get(key);
    if (held && held.expiresAt > this.now()) return held.owner === owner;
    this.claims.set(key, { owner, expiresAt: this.now() + seconds * 1000 });
    return true;
  }

  async close(): Promise<void> {}
}
