import type { SeekableInput } from '../diagnosis/diagnose.ts';
import { openFile, seekableFile } from '../file-input.ts';

/** Opens a path (or '-' for stdin) as a byte stream; a file that cannot be opened fails before reading. */
export function openInput(
  path: string,
  stdin: NodeJS.ReadableStream = process.stdin,
): AsyncIterable<Uint8Array> {
  if (path === '-') return stdin as AsyncIterable<Uint8Array>;
  return openFile(path);
}

/**
 * A regular file's path as an input other threads may read from any offset (engine/ranges.ts);
 * undefined for stdin, pipes, devices and what cannot be looked at (openInput says why).
 */
export function seekableInput(path: string): SeekableInput | undefined {
  return path === '-' ? undefined : seekableFile(path);
}
