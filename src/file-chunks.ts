import { closeSync, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { open } from 'node:fs/promises';

/** 1 MiB reads: a quarter of the per-chunk work of 64 KiB ones on a large log. */
export const READ_BYTES = 1 << 20;
/** Buffers taken in turn: one being filled ahead, one with the reader, one the reader may still hold. */
const RING = 3;

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

/** Refuses a file opened by path that is not the one with `identity` (when one is given). */
function checkSameFile(path: string, stats: Stats, identity: string | undefined): void {
  if (identity !== undefined && fileIdentity(stats) !== identity) throw replacedError(path);
}

/** READ_BYTES + 1: since each buffer is one byte longer than any chunk in it, no chunk owns its buffer. */
function ringOfBuffers(): Buffer[] {
  return Array.from({ length: RING }, () => Buffer.allocUnsafeSlow(READ_BYTES + 1));
}

/**
 * A file's bytes from `from` on, in chunks read into the same few buffers in turn, each read started
 * before the chunk before it is handed over. A fresh buffer for every read (as fs streams do) cost
 * 0.25 s of page faults per 64 MiB, more than the engine's scan of it. A chunk's memory is read into
 * again two chunks later: the engine copies what it keeps longer (a block's bytes into its slabs,
 * engine/blocks.ts). Refused when the file is no longer the one with `identity` (fileIdentity).
 */
export async function* fileChunks(path: string, from = 0, identity?: string): AsyncGenerator<Uint8Array> {
  const file = await open(path, 'r');
  let next: Promise<{ bytesRead: number; buffer: Buffer }> | undefined;
  try {
    checkSameFile(path, await file.stat(), identity);
    const ring = ringOfBuffers();
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

/** fileChunks read synchronously, for a thread that has nothing else to do meanwhile (a block thread). */
export function* fileChunksSync(path: string, from: number, identity?: string): Generator<Uint8Array> {
  const file = openSync(path, 'r');
  try {
    checkSameFile(path, fstatSync(file), identity);
    const ring = ringOfBuffers();
    for (let position = from, turn = 0; ; turn++) {
      const buffer = ring[turn % RING] as Buffer;
      const bytesRead = readSync(file, buffer, 0, READ_BYTES, position);
      if (bytesRead === 0) return;
      position += bytesRead;
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    closeSync(file);
  }
}
