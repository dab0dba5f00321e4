// A line longer than the engine reads (MAX_LINE_CHARS) is cut; what it reads of it is a pure function
// of the whole line, whichever reader split it: the start, unless the line's first known message (a
// trigger literal) lies past the cut; then the part around that message. A 50 MB line whose
// OutOfMemoryError sits after byte 16 KiB is still diagnosed.
import type { LiteralScanner } from './literal-scan.ts';

/** Where the cut lines are counted (lines.ts's InputStats), named here so the two files need no cycle. */
interface CutCounter {
  cut?: CutLines;
}

/** Characters kept before the message found past the cut: the log line's own prefix, usually. */
export const CONTEXT_CHARS = 1024;
/** Bytes enough for CONTEXT_CHARS characters (a UTF-16 unit takes at most 3 bytes). */
const CONTEXT_BYTES = CONTEXT_CHARS * 3 + 4;
/** Bytes kept after a line's kept start when nothing was found yet: a literal may straddle the next chunk. */
const TAIL_BYTES = CONTEXT_BYTES + 256;

/** The lines a reader cut: the first one's number and how many. */
export interface CutLines {
  first: number;
  count: number;
}

/** Counts one more cut line in the stats (the first one's number is kept). */
export function noteCut(stats: CutCounter, lineNo: number, count = 1): void {
  stats.cut = { first: stats.cut?.first ?? lineNo, count: (stats.cut?.count ?? 0) + count };
}

/** Adds the cuts a reader of later lines counted (its line numbers start after `offset` lines). */
export function mergeCuts(stats: CutCounter, cut: CutLines | undefined, offset: number): void {
  if (cut) noteCut(stats, offset + cut.first, cut.count);
}

/**
 * The part of a line the engine reads: the line itself up to `maxLine` characters; else its first
 * `maxLine` characters, unless a literal lies past them and none within them, then `maxLine`
 * characters from CONTEXT_CHARS before that literal.
 */
export function visibleLine(line: string, maxLine: number, scanner: LiteralScanner | undefined): string {
  if (line.length <= maxLine) return line;
  const head = line.slice(0, maxLine);
  if (!scanner) return head;
  const bytes = Buffer.from(line, 'utf8');
  if (scanner.find(bytes, 0, Buffer.byteLength(head, 'utf8')) !== -1) return head;
  const hit = scanner.find(bytes, 0, bytes.length);
  if (hit === -1) return head;
  const hitChar = bytes.subarray(0, hit).toString('utf8').length;
  const start = Math.max(0, hitChar - CONTEXT_CHARS);
  return line.slice(start, start + maxLine);
}

/** Bytes enough to decode a line's first `maxLine` characters: a UTF-16 unit takes at most 3. */
export function carryLimit(maxLine: number): number {
  return maxLine * 3 + 4;
}

/** The most bytes an unfinished line keeps (see keepOfLongLine). */
export function longLineBound(maxCarry: number): number {
  return 2 * maxCarry + TAIL_BYTES;
}

/**
 * The bytes of an unfinished line worth keeping until its newline comes: all of them up to
 * longLineBound; past it, the first `maxCarry` (enough for the line's first characters) and, when a
 * literal was found, the bytes around the first one, else the last few (a literal may start there).
 * visibleLine gives the same text for the kept bytes as for the whole line.
 */
export function keepOfLongLine(bytes: Buffer, maxCarry: number, scanner: LiteralScanner | undefined): Buffer {
  if (bytes.length <= longLineBound(maxCarry)) return Buffer.from(bytes);
  const head = bytes.subarray(0, maxCarry);
  if (!scanner) return Buffer.from(head);
  const hit = scanner.find(bytes, 0, bytes.length);
  if (hit === -1) return Buffer.concat([head, bytes.subarray(bytes.length - TAIL_BYTES)]);
  const start = Math.max(0, hit - CONTEXT_BYTES);
  const end = Math.min(bytes.length, hit + maxCarry);
  if (start <= maxCarry) return Buffer.from(bytes.subarray(0, end));
  return Buffer.concat([head, bytes.subarray(start, end)]);
}
