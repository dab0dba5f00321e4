import type { Stats } from 'node:fs';

/**
 * A file's device and inode: the same while the file is appended to or renamed, different once
 * another file is renamed over its path (log rotation). The threads that read ranges of a file open
 * it by path again, and check this first.
 */
export function fileIdentity(stats: Pick<Stats, 'dev' | 'ino'>): string {
  return `${stats.dev}:${stats.ino}`;
}

const REPLACED = 'was replaced while it was read';

/** Thrown (code EREPLACED) when a file opened again by path is no longer the file first opened. */
export function replacedError(path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${path} ${REPLACED}`), { code: 'EREPLACED' });
}

/** True for replacedError's error, also once it came from another thread (which keeps only its message). */
export function isReplaced(error: unknown): boolean {
  return error instanceof Error && error.message.endsWith(REPLACED);
}
