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

/**
 * One line of a heap dump read's progress: a bar and a percentage when the size is known (a plain
 * file), else the decompressed bytes read so far (a .gz, stdin). Pure: the same read, the same line.
 */
export function renderProgress(source: string, read: HeapDumpRead): string {
  const { bytesRead, totalBytes } = read;
  if (totalBytes === undefined || totalBytes <= 0)
    return `memdoctor: reading ${source}: ${mib(bytesRead)} decompressed so far`;
  const share = Math.min(1, bytesRead / totalBytes);
  const filled = Math.floor(share * BAR_WIDTH);
  const bar = `${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}`;
  const percent = `${Math.floor(share * 100)}%`.padStart(4);
  const then = share >= 1 ? ', finding what holds the heap' : '';
  return `memdoctor: reading ${source} [${bar}] ${percent} ${mib(bytesRead)} of ${mib(totalBytes)}${then}`;
}

/** Redraws: each whole percent of a known size, else each 16 MiB read (a line per chunk would flood a slow terminal). */
function stepOf(read: HeapDumpRead): number {
  if (read.totalBytes) return Math.floor((Math.min(read.bytesRead, read.totalBytes) * 100) / read.totalBytes);
  return Math.floor(read.bytesRead / (16 * 1024 * 1024));
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
  let step = -1;
  return {
    onRead(read) {
      if (Math.max(read.totalBytes ?? 0, read.bytesRead) < PROGRESS_FROM_BYTES) return;
      const next = stepOf(read);
      if (next === step) return;
      step = next;
      stderr.write(`${CLEAR_LINE}${renderProgress(name, read)}`);
    },
    end() {
      if (step !== -1) stderr.write(CLEAR_LINE);
      step = -1;
    },
  };
}
