import { statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import type { SeekableInput } from '../diagnosis/diagnose.ts';
import { InputUnreadableError, messageOf } from '../errors.ts';
import { fileIdentity, replacedError } from '../file-identity.ts';

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

/** 1 MiB reads: a quarter of the per-chunk work of 64 KiB ones on a large log. */
export const READ_BYTES = 1 << 20;
/** Buffers taken in turn: one being filled ahead, one with the reader, one the reader may still hold. */
const RING = 3;

/**
 * A file's bytes in chunks read into the same few buffers in turn, each read started before the
 * chunk before it is handed over. A fresh buffer for every read (as fs streams do) cost 0.25 s of
 * page faults per 64 MiB, more than the engine's scan of it. A chunk's memory is read into again
 * two chunks later: the engine copies what it keeps longer (a block's bytes into its slabs, blocks.ts),
 * and since each buffer is one byte longer than any chunk in it, no chunk owns its buffer.
 */
async function* fileChunks(path: string, from = 0, identity?: string): AsyncGenerator<Uint8Array> {
  const file = await open(path, 'r');
  let next: Promise<{ bytesRead: number; buffer: Buffer }> | undefined;
  try {
    if (identity !== undefined && fileIdentity(await file.stat()) !== identity) throw replacedError(path);
    const ring = Array.from({ length: RING }, () => Buffer.allocUnsafeSlow(READ_BYTES + 1));
    let position = from;
    const readInto = (turn: number) => file.read(ring[turn % RING] as Buffer, 0, READ_BYTES, position);
    let turn = 0;
    next = readInto(turn);
    for (;;) {
      const { bytesRead, buffer } = await next;
      if (bytesRead === 0) return;
      position += bytesRead;
      turn++;
      next = readInto(turn);
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    // The read started ahead, when the reader stopped early: settled before the file is closed.
    await next?.catch(() => undefined);
    await file.close();
  }
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
