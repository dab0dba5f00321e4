import { ErrorCode, MemdoctorError, WalkthroughConflictError } from '../../errors.ts';
import { PREFILL_ACTOR, stepById } from '../prefill.ts';
import {
  type AuditEntry,
  AuditEntrySchema,
  type WalkthroughRecord,
  WalkthroughRecordSchema,
} from '../record.ts';

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

function parseJson(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return undefined;
  }
}

function unreadable(id: string, what = ''): MemdoctorError {
  return new MemdoctorError(
    ErrorCode.Internal,
    `stored walkthrough "${id}"${what} cannot be read (written by another memdoctor version?); start a new walkthrough.`,
  );
}

/** Parses stored JSON (a boundary): a record memdoctor cannot read is reported, not guessed at. */
export function readRecord(json: string, id: string): WalkthroughRecord {
  const parsed = WalkthroughRecordSchema.safeParse(parseJson(json));
  if (parsed.success) return parsed.data;
  throw unreadable(id);
}

const AuditLogSchema = AuditEntrySchema.array();

/** Parses a stored audit log (one JSON entry per item), oldest first. */
export function readAuditLog(items: readonly string[], id: string): AuditEntry[] {
  const parsed = AuditLogSchema.safeParse(items.map(parseJson));
  if (parsed.success) return parsed.data;
  throw unreadable(id, "'s audit log");
}
