// @ts-nocheck
import { readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { gunzipSync } from 'node:zlib';
import type { LineReader } from './lines.ts';

/** A paste step's input: the text (pasted, or read from the file named), or what was wrong. */
export type PasteInput = { text: string; file?: string } | { problem: string };

/** Command output read from a file at a paste step; larger files are logs to diagnose, not outputs. */
const MAX_FILE_BYTES = 64 * 1024 ** 2;

const PATH_START = /^(?:\/|\.\.?\/|~\/)/;
const FILE_END = /\.(?:log|txt|out|err|json|gz|csv)$/i;

/** One word that reads as a file path: `/x`, `./x`, `~/x`, `dir/file`, `file.log`; not a URL. */
export function looksLikePath(text: string): boolean {
  if (text === '' || /\s/.test(text) || text.includes('://') || text.length > 4096) return false;
  return PATH_START.test(text) || FILE_END.test(text) || /^[\w.-]+\/[\w./-]*$/.test(text);
}

/** The path with `~/` taken as the home directory. */
export function expandHome(path: string): string {
  return path.startsWith('~/') ? `${homedir()}${path.slice(1)}` : path;
}

/** Whether the path names a regular file. */
export function isFile(path: string): boolean {
  try {
    return statSync(expandHome(path)).isFile();
  } catch {
    return false;
  }
}

function readOutputFile(full: string): PasteInput {
  const size = statSync(full).size;
  if (size > MAX_FILE_BYTES)
    return { problem: `${full} is ${size} bytes; a command's output is smaller. Paste the output instead.` };
  const bytes = readFileSync(full);
  // gzip's magic number: a compressed capture is read as its text.
  const text = bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes;
  return { text: text.toString('utf8'), file: full };
}

/** A pasted block, or a path that was typed or pasted alone (`missing` when it names no file). */
export type BlockOrPath = { text: string } | { path: string; missing: boolean };

/**
 * Reads input starting at `first`: one word that reads as a path (typed, or pasted alone) is a
 * path; anything else is a pasted block, up to the end of a bracketed paste, a line holding only
 * `.`, Ctrl-D or the end of input.
 */
export async function readBlockOrPath(reader: LineReader, first: string): Promise<BlockOrPath> {
  const text = reader.lastPasted ? await reader.block(first) : first;
  const word = text.trim();
  if (looksLikePath(word) || (!text.includes('\n') && isFile(word)))
    return { path: expandHome(word), missing: !isFile(word) };
  return { text: reader.lastPasted ? text : await reader.block(first) };
}

/**
 * A paste step's input: a path to a file is read as the output (a path that names no file is
 * refused, so a typo is never parsed as output); anything else is the pasted block.
 */
export async function readPaste(reader: LineReader, first: string): Promise<PasteInput> {
  const input = await readBlockOrPath(reader, first);
  if ('text' in input) return input;
  return input.missing ? { problem: `no such file: ${first.trim()}` } : readOutputFile(input.path);
}
