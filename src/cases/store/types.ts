import type { CaseLimits, LeftOut, StoredInput } from '../../engine/case/index.ts';
import type { EngineHint } from '../../engine/index.ts';
import type { CaseRecord, CaseWhere } from '../record.ts';

/** One change to a case: an input's facts to add, or an input to record as left out. */
export interface CaseAddition {
  /** The input's facts; absent when `leftOut` says why it was not read. */
  input?: StoredInput;
  /** Why an input was not read (too large while reading it): recorded, nothing else changes. */
  leftOut?: LeftOut;
  limits: CaseLimits;
  /** The answer message's ts, once it is posted; kept when unset. */
  answerTs?: string;
  /** Set on the case's first write only; later writes keep the first one. */
  engine?: EngineHint;
  /** ISO time of the change. */
  at: string;
}

/** What a change did: the case after it, and whether the input was added or left out (and why). */
export interface CaseChangeResult {
  record: CaseRecord;
  added: boolean;
  leftOut?: LeftOut;
}

/**
 * Where cases live. Two implementations with the same semantics (one contract suite): memory (the
 * embedded default) and Redis (shared by replicas, survives restarts). Each change is atomic and
 * version-checked: it checks the limits and the version and writes in one step, or writes nothing.
 */
export interface CaseStore {
  readonly kind: 'memory' | 'redis';
  /** The case, or undefined when there is none (or it expired). */
  get(where: CaseWhere): Promise<CaseRecord | undefined>;
  /**
   * Adds an input's facts if the stored version is still `expectedVersion` (0: no case yet) and the
   * input fits the limits; past a limit the input is recorded as left out, with why. Throws
   * CaseConflictError when someone wrote first, CaseInputInvalidError for facts that cannot be
   * stored; then nothing was written. Refreshes the TTL.
   */
  add(where: CaseWhere, addition: CaseAddition, expectedVersion: number): Promise<CaseChangeResult>;
  /**
   * Claims the right to post the case's first answer for `seconds`: true for the first claim (and
   * for the same `owner` again), false while another owner holds it. Replicas that each read a
   * thread's first file at once claim before posting, so one posts and the others add to its case.
   */
  claimAnswer(where: CaseWhere, owner: string, seconds: number): Promise<boolean>;
  close(): Promise<void>;
}

/** Seven days, as walkthroughs: a case is worth as long as the incident's thread is. */
export const DEFAULT_CASE_TTL_SECONDS = 7 * 24 * 3600;

/** Why an input is left out at the inputs limit; the same words from both stores. */
export function inputsLimitReason(limits: CaseLimits): string {
  return `a case holds at most ${limits.maxInputs} inputs`;
}

/** Why an input is left out at the bytes limit. */
export function bytesLimitReason(limits: CaseLimits, held: number): string {
  return `the case would pass its limit of ${limits.maxBytes} bytes (${held} held before it)`;
}
