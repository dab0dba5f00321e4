import { CaseConflictError, type MemdoctorError } from '../../errors.ts';
import { RedisScripts, ScriptRefusedError } from '../../redis/commands.ts';
import { type RedisConnection, targetOf } from '../../redis/connect.ts';
import { storeFailure } from '../../redis/failure.ts';
import { RedisKeys } from '../../redis/keys.ts';
import { ScriptCode } from '../../redis/scripts.ts';
import type { RedisTarget } from '../../redis/target.ts';
import {
  type CaseRecord,
  type CaseWhere,
  EngineHintSchema,
  LeftOutSchema,
  MAX_LEFT_OUT,
  StoredInputSchema,
} from '../record.ts';
import {
  bytesLimitReason,
  type CaseAddition,
  type CaseChangeResult,
  type CaseStore,
  DEFAULT_CASE_TTL_SECONDS,
  inputsLimitReason,
} from './types.ts';
import { checkAddition, readStored } from './validate.ts';

/** Options for the Redis case store. */
export interface RedisCaseStoreOptions {
  /** Key prefix; tests use a random one each. Default `memdoctor`. */
  prefix?: string;
  ttlSeconds?: number;
  /** Close the connection on `close()` (true when the store opened it). */
  ownsConnection?: boolean;
  /** What the configuration named, for error messages; read from the connection when unset. */
  target?: RedisTarget;
}

/** A case hash, read back into a record: inputs `in:1..n` in order, left-out entries `out:1..`. */
function recordOf(hash: Record<string, string>): CaseRecord {
  const n = Number(hash.n ?? 0);
  const inputs = Array.from({ length: n }, (_, i) =>
    readStored(StoredInputSchema, hash[`in:${i + 1}`] ?? '', `input ${i + 1}`),
  );
  const leftOutCount = Number(hash.left ?? 0);
  const kept = Math.min(leftOutCount, MAX_LEFT_OUT);
  const leftOut = Array.from({ length: kept }, (_, i) =>
    readStored(LeftOutSchema, hash[`out:${i + 1}`] ?? '', `left-out entry ${i + 1}`),
  );
  const engine = hash.engine ? EngineHintSchema.safeParse(hash.engine) : undefined;
  return {
    version: Number(hash.v),
    createdAt: hash.created ?? '',
    updatedAt: hash.updated ?? '',
    ...(hash.answer ? { answerTs: hash.answer } : {}),
    ...(engine?.success ? { engine: engine.data } : {}),
    inputs,
    leftOut,
    leftOutCount,
    bytes: Number(hash.bytes ?? 0),
  };
}

/**
 * Cases in Redis: one hash per case under its conversation's hash tag, each change one Lua script
 * (addCaseInput-1.lua: version check, limits, write, TTL) in one round trip.
 */
export class RedisCaseStore implements CaseStore {
  readonly kind = 'redis' as const;
  readonly keys: RedisKeys;
  private readonly ttlSeconds: number;
  private readonly scripts: RedisScripts;
  private readonly target: RedisTarget;

  constructor(
    private readonly redis: RedisConnection,
    private readonly options: RedisCaseStoreOptions = {},
  ) {
    this.keys = new RedisKeys(options.prefix);
    this.ttlSeconds = options.ttlSeconds ?? DEFAULT_CASE_TTL_SECONDS;
    this.scripts = new RedisScripts(redis);
    this.target = options.target ?? targetOf(redis);
  }

  /** Runs a Redis call; its failure becomes a StoreUnavailableError (a script's refusal stays one). */
  private async call<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      if (error instanceof ScriptRefusedError) throw error;
      throw (await storeFailure(error, this.redis, this.target)) as MemdoctorError;
    }
  }

  async get(where: CaseWhere): Promise<CaseRecord | undefined> {
    const hash = await this.call(() => this.redis.hgetall(this.keys.case(where)));
    return hash.v ? recordOf(hash) : undefined;
  }

  async add(where: CaseWhere, addition: CaseAddition, expectedVersion: number): Promise<CaseChangeResult> {
    const checked = checkAddition(where, addition);
    const { input, limits } = addition;
    const byCount = input ? { source: input.name, reason: inputsLimitReason(limits) } : addition.leftOut;
    // The bytes reason names what the case held when read; the script refuses any other version.
    const held = (await this.get(where))?.bytes ?? 0;
    const byBytes = { source: input?.name ?? '', reason: bytesLimitReason(limits, held) };
    let outcome: Awaited<ReturnType<RedisScripts['addCaseInput']>>;
    try {
      outcome = await this.call(() =>
        this.scripts.addCaseInput(this.keys.case(where), {
          expectedVersion,
          ...(checked.inputJson ? { inputJson: checked.inputJson } : {}),
          inputBytes: input?.bytes ?? 0,
          maxInputs: limits.maxInputs,
          maxBytes: limits.maxBytes,
          ttlSeconds: this.ttlSeconds,
          leftOutByCount: JSON.stringify(byCount),
          leftOutByBytes: JSON.stringify(byBytes),
          ...(addition.answerTs ? { answerTs: addition.answerTs } : {}),
          ...(addition.engine ? { engine: addition.engine } : {}),
          at: addition.at,
          maxLeftOut: MAX_LEFT_OUT,
        }),
      );
    } catch (error) {
      if (error instanceof ScriptRefusedError && error.code === ScriptCode.VersionMismatch)
        throw new CaseConflictError('the case changed since it was read; read it again.');
      throw error;
    }
    const record = await this.get(where);
    if (!record) throw new CaseConflictError('the case expired while it was written; add the input again.');
    if (outcome.code === 'added') return { record, added: true };
    const leftOut =
      outcome.code === ScriptCode.CaseBytesFull ? byBytes : (byCount ?? { source: '', reason: '' });
    return { record, added: false, leftOut };
  }

  async claimAnswer(where: CaseWhere, owner: string, seconds: number): Promise<boolean> {
    const key = this.keys.caseAnswerClaim(where);
    const set = await this.call(() => this.redis.set(key, owner, 'EX', seconds, 'NX'));
    return set === 'OK' || (await this.call(() => this.redis.get(key))) === owner;
  }

  async close(): Promise<void> {
    if (this.options.ownsConnection) await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
