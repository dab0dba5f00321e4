import { basename } from 'node:path';
import { terminalEnv } from '../../config.ts';
import type { HeapDumpRead } from '../../diagnosis/index.ts';

type TerminalEnv = ReturnType<typeof terminalEnv>;

/** Below this a dump is read in about a second: no bar flickers past for it. */
export const PROGRESS_FROM_BYTES = 32 * 1024 * 1024;
const BAR_WIDTH = 24;
/** Moves the cursor to the line's start and clears what follows it (ANSI). */
const CLEAR_LINE = '\r\x1b[K';

function mib(bytes: number): string {
  return `${Math.floor(bytes / (1024 * 1024))} MiB`;
}

/** Which pass of several the read is in, and what it reads; nothing for a dump read once. */
function passText(read: HeapDumpRead): string {
  return read.passes > 1 ? `pass ${read.pass} of ${read.passes} (${read.what}), ` : '';
}

/**
 * The share of the whole read done, each pass an equal part of it: a file is read three times, and
 * a bar that counted the first pass only would sit full through the other two.
 */
function shareOf(read: HeapDumpRead, totalBytes: number): number {
  return (read.pass - 1 + Math.min(1, read.bytesRead / totalBytes)) / read.passes;
}

/**
 * One line of a heap dump read's progress: a bar and a percentage of all its passes when the size is
 * known (a plain file, a .gz after its first pass), else the decompressed bytes read so far (a .gz's
 * first pass, stdin). Pure: the same read, the same line.
 */
export function renderProgress(source: string, read: HeapDumpRead): string {
  const { bytesRead, totalBytes } = read;
  if (totalBytes === undefined || totalBytes <= 0)
    return `memdoctor: reading ${source}: ${passText(read)}${mib(bytesRead)} decompressed so far`;
  const share = shareOf(read, totalBytes);
  const filled = Math.floor(share * BAR_WIDTH);
  const bar = `${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}`;
  const percent = `${Math.floor(share * 100)}%`.padStart(4);
  // The dominator tree is computed once the references are read, before the thread names' short pass.
  const then =
    bytesRead >= totalBytes && (read.pass > 1 || read.passes === 1) ? ', finding what holds the heap' : '';
  return `memdoctor: reading ${source} [${bar}] ${percent} ${passText(read)}${mib(bytesRead)} of ${mib(totalBytes)}${then}`;
}

/**
 * Redraws: each whole percent of a known size, else each 16 MiB read (a line per chunk would flood a
 * slow terminal), and each new pass.
 */
function stepOf(read: HeapDumpRead): string {
  if (read.totalBytes) return `${read.pass}:${Math.floor(shareOf(read, read.totalBytes) * 100)}`;
  return `${read.pass}:${Math.floor(read.bytesRead / (16 * 1024 * 1024))}`;
}

/** Whether a progress line may be drawn: stderr is a terminal that understands cursor moves. */
export function progressEnabled(stderr: { isTTY?: boolean }, env: TerminalEnv = terminalEnv()): boolean {
  return stderr.isTTY === true && env.TERM !== 'dumb';
}

/** A heap dump's progress line on a terminal's stderr, redrawn only when its text changes. */
export interface ProgressLine {
  onRead(read: HeapDumpRead): void;
  /** Clears the line, so the report or an error starts on a clean one. */
  end(): void;
}

/**
 * The progress line for one input, or undefined when stderr is piped or a dumb terminal (a log file
 * or a CI job gets no carriage returns). The file's name only, so the line fits the terminal's width. Only a long read draws: past PROGRESS_FROM_BYTES, known
 * from the file's size up front or once that much has been read.
 */
export function progressLine(
  source: string,
  stderr: { write(text: string): unknown; isTTY?: boolean },
  env: TerminalEnv = terminalEnv(),
): ProgressLine | undefined {
  if (!progressEnabled(stderr, env)) return undefined;
  const name = basename(source);
  let step: string | undefined;
  return {
    onRead(read) {
      if (Math.max(read.totalBytes ?? 0, read.bytesRead) < PROGRESS_FROM_BYTES) return;
      const next = stepOf(read);
      if (next === step) return;
      step = next;
      stderr.write(`${CLEAR_LINE}${renderProgress(name, read)}`);
    },
    end() {
      if (step !== undefined) stderr.write(CLEAR_LINE);
      step = undefined;
    },
  };
}
