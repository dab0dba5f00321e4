import { statSync } from 'node:fs';
import type { SeekableInput } from '../diagnosis/diagnose.ts';
import { InputUnreadableError, messageOf } from '../errors.ts';
import { fileChunks, fileIdentity } from '../file-chunks.ts';

const REASONS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file; check the path',
  EACCES: 'permission denied; check the file mode or run as a user who can read it',
  EISDIR: 'it is a directory; give the log file inside it',
  EMFILE: 'too many open files',
  EREPLACED:
    'another file was renamed over it while memdoctor read it (log rotation?); diagnose the rotated file, or this one again',
};

/** Opens a path (or '-' for stdin) as a byte stream; a file that cannot be opened fails before reading. */
export function openInput(
  path: string,
  stdin: NodeJS.ReadableStream = process.stdin,
): AsyncIterable<Uint8Array> {
  if (path === '-') return stdin as AsyncIterable<Uint8Array>;
  try {
    if (statSync(path).isDirectory()) throw Object.assign(new Error('directory'), { code: 'EISDIR' });
  } catch (error) {
    throw unreadable(path, error);
  }
  return guard(path, fileChunks(path));
}

/**
 * A regular file's path as an input other threads may read from any offset (engine/ranges.ts);
 * undefined for stdin, pipes, devices and what cannot be looked at (openInput says why).
 */
export function seekableInput(path: string): SeekableInput | undefined {
  if (path === '-') return undefined;
  try {
    const stats = statSync(path);
    if (!stats.isFile()) return undefined;
    const identity = fileIdentity(stats);
    const read = (from: number) => guard(path, fileChunks(path, from, identity));
    return { locator: path, size: stats.size, identity, read };
  } catch {
    return undefined;
  }
}

async function* guard(path: string, stream: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  try {
    for await (const chunk of stream) yield chunk;
  } catch (error) {
    throw unreadable(path, error);
  }
}

function unreadable(path: string, error: unknown): InputUnreadableError {
  const code = (error as NodeJS.ErrnoException)?.code ?? '';
  const reason = REASONS[code] ?? messageOf(error);
  return new InputUnreadableError(path, reason, { cause: error });
}
