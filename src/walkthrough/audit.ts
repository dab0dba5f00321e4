import type { AuditEntry, WalkthroughRecord } from './record.ts';

/**
 * How many audit entries a stored record carries. The earlier ones move to the store's audit log
 * in the same atomic write, so a record (read and written whole on every answer) stays small
 * however long a walkthrough runs; the transcript reads both.
 */
export const RECENT_AUDIT_ENTRIES = 50;

/** A record to store, and the audit entries that leave it for the store's audit log (oldest first). */
export interface AuditSplit {
  record: WalkthroughRecord;
  archived: AuditEntry[];
}

/** Keeps the most recent `keep` audit entries in the record and hands the earlier ones over. */
export function keepRecentAudit(record: WalkthroughRecord, keep = RECENT_AUDIT_ENTRIES): AuditSplit {
  const over = record.audit.length - keep;
  if (over <= 0) return { record, archived: [] };
  return {
    record: { ...record, audit: record.audit.slice(over), archivedAudit: record.archivedAudit + over },
    archived: record.audit.slice(0, over),
  };
}
