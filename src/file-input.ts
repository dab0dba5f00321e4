/**
 * A log file on the local disk as a diagnosis input: opened for reading only, its failures told as
 * what to do. Shared by the surfaces that take paths from the user's own process (the CLI, the MCP
 * server over stdio); none of them writes a file.
 */
import { statSync } from 'node:fs';
import { InputUnreadableError, messageOf } from './errors.ts';
import { fileChunks, fileIdentity } from './file-chunks.ts';

/** The same bytes, readable from any offset (engine/ranges.ts describes the shape; this is its copy for surfaces). */
export interface SeekableFile {
  locator: string;
  size: number;
  identity: string;
  read(from: number): AsyncIterable<Uint8Array>;
}

const REASONS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file; check the path',
  EACCES: 'permission denied; check the file mode or run as a user who can read it',
  EISDIR: 'it is a directory; give the log file inside it',
  EMFILE: 'too many open files',
  EREPLACED:
    'another file was renamed over it while memdoctor read it (log rotation?); diagnose the rotated file, or this one again',
};

/** Opens a file as a byte stream; a path that cannot be opened (missing, a directory) fails before reading. */
export function openFile(path: string): AsyncIterable<Uint8Array> {
  try {
    if (statSync(path).isDirectory()) throw Object.assign(new Error('directory'), { code: 'EISDIR' });
  } catch (error) {
    throw unreadable(path, error);
  }
  return guard(path, fileChunks(path));
}

/**
 * A regular file's path as an input other threads may read from any offset (engine/ranges.ts);
 * undefined for pipes, devices and what cannot be looked at (openFile says why).
 */
export function seekableFile(path: string): SeekableFile | undefined {
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
