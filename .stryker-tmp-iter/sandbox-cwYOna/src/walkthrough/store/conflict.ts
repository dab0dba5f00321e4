// @ts-nocheck
import { ErrorCode, MemdoctorError, WalkthroughConflictError } from '../../errors.ts';
import { PREFILL_ACTOR, stepById } from '../prefill.ts';
import { type WalkthroughRecord, WalkthroughRecordSchema } from '../record.ts';

/** A short UTC time for messages: `10:03 UTC`. */
function clock(iso: string): string {
  return `${iso.slice(11, 16)} UTC`;
}

/**
 * The error for a write that lost the race: who changed the walkthrough first, what they did, and
 * where it stands now, so the loser can look again instead of retrying blindly.
 */
export function conflictError(current: WalkthroughRecord): WalkthroughConflictError {
  const last = current.audit.findLast((e) => e.actor !== PREFILL_ACTOR);
  const what = last
    ? `already answered by ${last.actor} (${last.event}: ${last.detail}) at ${clock(last.at)}`
    : 'changed by someone else';
  let where = `it is ${current.status}`;
  if (current.status === 'active' && current.current !== null)
    where = `it is now at "${stepById(current, current.current).title}"`;
  return new WalkthroughConflictError(
    `this step was ${what}; ${where}. Look at the current step before answering again.`,
  );
}

/** Parses stored JSON (a boundary): a record memdoctor cannot read is reported, not guessed at. */
export function readRecord(json: string, id: string): WalkthroughRecord {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    raw = undefined;
  }
  const parsed = WalkthroughRecordSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  throw new MemdoctorError(
    ErrorCode.Internal,
    `stored walkthrough "${id}" cannot be read (written by another memdoctor version?); start a new walkthrough.`,
  );
}
