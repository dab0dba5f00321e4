import { createGunzip, type Gunzip } from 'node:zlib';
import {
  InputBinaryError,
  InputTooLargeError,
  InputUnreadableError,
  MemdoctorError,
  messageOf,
} from '../../errors.ts';
import type { LiteralScanner } from './literal-scan.ts';
import { type CutLines, carryLimit, keepOfLongLine, noteCut, visibleLine } from './long-line.ts';
import { sniff } from './sniff.ts';

/** Lines longer than this are cut: a log line that long is data, and regexes need a bound. */
export const MAX_LINE_CHARS = 16_384;

export interface ReadLimits {
  /** Largest input, after gunzip, in bytes; larger inputs fail with InputTooLargeError. */
  maxBytes?: number;
  /** Where lines are cut (default MAX_LINE_CHARS): a parser that reads one-line JSON asks for more. */
  maxLineChars?: number;
}

/** Counts of what was read, filled in as the lines are consumed. */
export interface InputStats {
  bytes: number;
  lines: number;
  /** Lines longer than the limit (not part of the `diagnose --json` contract: a note says it). */
  cut?: CutLines;
}

async function* bytesOf(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  for await (const chunk of chunks) yield chunk;
}

/** Peeks at the head of a stream, then returns a stream that still yields every byte. */
async function peek(
  chunks: AsyncIterable<Uint8Array>,
): Promise<{ head: Uint8Array; rest: AsyncIterable<Uint8Array> }> {
  const iterator = bytesOf(chunks);
  const parts: Uint8Array[] = [];
  let size = 0;
  while (size < 4096) {
    const next = await iterator.next();
    if (next.done) break;
    parts.push(next.value);
    size += next.value.length;
  }
  const head = Buffer.concat(parts);
  async function* rest(): AsyncGenerator<Uint8Array> {
    try {
      if (head.length > 0) yield head;
      yield* iterator;
    } finally {
      // A reader that stops at the head closes the chunks behind it too: yield* closes them only once reached.
      await iterator.return(undefined);
    }
  }
  return { head, rest: rest() };
}

/**
 * gunzip's output chunks: zlib's default (16 KiB) cost a callback, a stream read and a skim per
 * 16 KiB (a 256 MiB .gz log: 4.1-4.7 CPU-s on one thread, 3.4-3.7 with 256 KiB).
 */
const GUNZIP_CHUNK_BYTES = 256 * 1024;

/** Turns raw input bytes into text bytes: gunzips transparently and refuses binary input. */
export async function textBytes(
  source: string,
  chunks: AsyncIterable<Uint8Array>,
): Promise<AsyncIterable<Uint8Array>> {
  return (await textInput(source, chunks)).bytes;
}

/** An input's text bytes (textBytes), and whether they were gunzipped: their offsets are then not the input's. */
export async function textInput(
  source: string,
  chunks: AsyncIterable<Uint8Array>,
  depth = 0,
): Promise<{ bytes: AsyncIterable<Uint8Array>; gunzipped: boolean }> {
  const { head, rest } = await peek(chunks);
  const kind = sniff(head);
  if (kind.kind === 'binary') throw new InputBinaryError(source, kind.detail);
  if (kind.kind === 'text') return { bytes: rest, gunzipped: depth > 0 };
  if (depth > 0) throw new InputBinaryError(source, 'gzip inside gzip');
  const gunzip = createGunzip({ chunkSize: GUNZIP_CHUNK_BYTES });
  void feed(rest, gunzip);
  return textInput(source, guardGunzip(source, gunzip), depth + 1);
}

/**
 * Writes the input into gunzip one chunk at a time, taking the next only once zlib has read the
 * last: a reader may reuse a chunk's memory once it has handed over the next (src/file-chunks.ts), so zlib
 * must be done with it by then. (They were copied instead, and each 1 MiB copy, held while zlib
 * read it, lived long enough to wait for V8's next full collection.) Whoever feeds the input counts
 * a chunk as read once it is taken (the Slack app's in-flight cap), so one is taken at a time. A read
 * error of the input destroys gunzip with it, so that iterating gunzip rethrows it; when the reader
 * stops early, gunzip is destroyed, the pending write fails and the input is closed.
 */
async function feed(chunks: AsyncIterable<Uint8Array>, gunzip: Gunzip): Promise<void> {
  try {
    for await (const chunk of chunks) {
      await written(gunzip, chunk);
    }
    gunzip.end();
  } catch (error) {
    gunzip.destroy(error instanceof Error ? error : new Error(String(error)));
  }
}

/** Resolves once zlib has read `chunk`; fails when gunzip is closed first (a write in flight is then never called back). */
function written(gunzip: Gunzip, chunk: Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    const closed = () => reject(new Error('gunzip closed'));
    gunzip.once('close', closed);
    gunzip.write(chunk, (error) => {
      gunzip.off('close', closed);
      if (error) reject(error);
      else resolve();
    });
  });
}

async function* guardGunzip(source: string, stream: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  try {
    for await (const chunk of stream) yield chunk;
  } catch (error) {
    // The source's own read errors already say what went wrong; only zlib's need the gzip wording.
    if (error instanceof MemdoctorError) throw error;
    const reason = messageOf(error);
    throw new InputUnreadableError(source, `the gzip data is damaged (${reason})`, { cause: error });
  }
}

/**
 * How a line is given to the engine: cut at `maxLine` characters (visibleLine: around the first
 * literal of `scanner` when it lies past the cut), then without the CR of a CRLF. A cut line is
 * counted in `stats`; `lineNo` is the line's number.
 */
export function lineEnding(
  maxLine: number,
  stats?: InputStats,
  scanner?: LiteralScanner,
): (line: string, lineNo: number) => string {
  return (line, lineNo) => {
    let cut = line;
    if (line.length > maxLine) {
      cut = visibleLine(line, maxLine, scanner);
      if (stats) noteCut(stats, lineNo);
    }
    return cut.endsWith('\r') ? cut.slice(0, -1) : cut;
  };
}

/**
 * Splits text bytes into lines, in batches (one per chunk) so that a 1 GiB log costs one await per
 * chunk, not per line. Strips the CR of CRLF; cuts overlong lines at MAX_LINE_CHARS (or the limit asked).
 */
export async function* splitLines(
  source: string,
  bytes: AsyncIterable<Uint8Array>,
  stats: InputStats,
  limits: ReadLimits = {},
  scanner?: LiteralScanner,
): AsyncGenerator<string[]> {
  const decoder = new TextDecoder('utf-8');
  const maxLine = limits.maxLineChars ?? MAX_LINE_CHARS;
  const cleanEnd = lineEnding(maxLine, stats, scanner);
  const keep = (carry: string) =>
    scanner
      ? keepOfLongLine(Buffer.from(carry, 'utf8'), carryLimit(maxLine), scanner).toString('utf8')
      : carry.slice(0, maxLine * 4);
  let carry = '';
  for await (const chunk of bytes) {
    stats.bytes += chunk.length;
    if (limits.maxBytes !== undefined && stats.bytes > limits.maxBytes) {
      throw new InputTooLargeError(source, limits.maxBytes);
    }
    const text = carry + decoder.decode(chunk, { stream: true });
    const parts = text.split('\n');
    carry = parts.pop() ?? '';
    if (carry.length > maxLine * 4) carry = keep(carry);
    const first = stats.lines + 1;
    stats.lines += parts.length;
    yield parts.map((part, i) => cleanEnd(part, first + i));
  }
  carry += decoder.decode();
  if (carry.length > 0) {
    stats.lines += 1;
    yield [cleanEnd(carry, stats.lines)];
  }
}

/** Everything from raw bytes to batches of lines: sniff, gunzip, decode, split. */
export async function readLines(
  source: string,
  chunks: AsyncIterable<Uint8Array>,
  stats: InputStats,
  limits: ReadLimits = {},
  scanner?: LiteralScanner,
): Promise<AsyncGenerator<string[]>> {
  return splitLines(source, await textBytes(source, chunks), stats, limits, scanner);
}
