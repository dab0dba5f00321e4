// Finds literals in raw bytes or text, ASCII letters folded: what lets the engine skip the lines of a
// large log that can no longer change its answer without decoding them, and find a line's triggers.
// A regex alternation of a hundred literals runs at about 45 MB/s in V8 whatever it finds. Here
// tables keyed by a window of two, four or eight bytes (each literal's rarest) say where a literal
// may be, and only there are its bytes compared. In bytes, the four ending at each byte are first
// tested as they are, against every case of the windows' last four; only the few that pass are folded.

import { z } from 'zod';
import {
  createKernel,
  HASH_BITS,
  hash8Of,
  hashOf,
  type Kernel,
  LAYOUT,
  secondHash8Of,
  secondHashOf,
} from './scan-kernel.ts';
import builtWindows from './windows.json' with { type: 'json' };

const FOLD = new Uint8Array(256).map((_, byte) => (byte >= 0x41 && byte <= 0x5a ? byte + 0x20 : byte));

/**
 * A literal that counts only where the character before it is none of `notAfter` ('yarn.' as a
 * setting's key, not in the package org.apache.hadoop.yarn.server). NUL separates the two, as no
 * literal holds one.
 */
export function literalKey(text: string, notAfter = ''): string {
  return notAfter === '' ? text : `${text}\u0000${notAfter}`;
}

export function parseLiteralKey(key: string): { text: string; notAfter: string } {
  const cut = key.indexOf('\u0000');
  return cut === -1 ? { text: key, notAfter: '' } : { text: key.slice(0, cut), notAfter: key.slice(cut + 1) };
}

/** A literal the byte scan can look for: ASCII without NUL or newline, at least two characters. */
export function isScannable(literal: string): boolean {
  if (literal.length < 2) return false;
  for (let i = 0; i < literal.length; i++) {
    const code = literal.charCodeAt(i);
    if (code === 0 || code === 0x0a || code > 0x7f) return false;
  }
  return true;
}

/** The four bytes at `at` as one big-endian 32-bit number (a hash window's input). */
function uint32At(bytes: Uint8Array, at: number): number {
  return (
    ((bytes[at] as number) << 24) |
    ((bytes[at + 1] as number) << 16) |
    ((bytes[at + 2] as number) << 8) |
    (bytes[at + 3] as number)
  );
}

/**
 * How often a byte turns up in logs, roughly (English letters, digits, the punctuation of log lines);
 * only the order matters, to pick the window of a literal least likely to be met by chance.
 */
const KNOWN_FREQUENCY: Readonly<Record<string, number>> = {
  ' ': 15,
  e: 10,
  t: 7,
  a: 6.5,
  o: 6,
  i: 6,
  n: 6,
  s: 5.5,
  r: 5.5,
  h: 3,
  l: 3.5,
  d: 3,
  c: 3,
  u: 2.5,
  m: 2.5,
  f: 2,
  p: 2,
  g: 1.8,
  w: 1.5,
  y: 1.5,
  b: 1.3,
  v: 1,
  k: 0.8,
  x: 0.3,
  j: 0.2,
  q: 0.1,
  z: 0.1,
  '.': 3,
  ':': 1.5,
  '/': 1,
  '-': 1,
  _: 1,
  '=': 0.8,
  ',': 1,
  '(': 0.5,
  ')': 0.5,
};
/** How often each byte occurs in logs, for every byte value (unlisted letters and symbols are rare). */
const BYTE_FREQUENCY = new Float64Array(256).map((_, byte) => {
  const char = String.fromCharCode(byte);
  return KNOWN_FREQUENCY[char] ?? (char >= '0' && char <= '9' ? 3 : 0.3);
});

/**
 * Words every Spark, YARN, Flink or JVM log is full of: a window inside one of them would hit on
 * nearly every line ("executor" of "lost executor", "resource" of "low on resource").
 */
const COMMON_WORDS = [
  'executor',
  'partition',
  'resource',
  'internal',
  'container',
  'manager',
  'memory',
  'storage',
  'shuffle',
  'broadcast',
  'finished',
  'starting',
  'running',
  'exception',
  // Flink's task states ("switched from DEPLOYING to RUNNING"), YARN's memory readings, GC causes.
  'scheduled',
  'deploying',
  'switched',
  'physical',
  'virtual',
  'allocation',
  'apache',
  'hadoop',
  'server',
  'thread',
  'stage',
  'task',
  'spark',
  'yarn',
  'flink',
  'java',
  'scala',
  'block',
  'output',
  'input',
  'info',
  'warn',
  'error',
  'from',
  'with',
  'for',
];

/** Where common words occur in the literal: [start, end) of each occurrence. */
function commonWordsIn(bytes: Uint8Array): [number, number][] {
  const text = String.fromCharCode(...bytes);
  const found: [number, number][] = [];
  for (const word of COMMON_WORDS) {
    for (let at = text.indexOf(word); at !== -1; at = text.indexOf(word, at + 1))
      found.push([at, at + word.length]);
  }
  return found;
}

/**
 * The most bytes of one common word's occurrence inside bytes[start, end]. A window across the
 * border of two common words ("kman" of "taskmanager") is rare though each half is not; one inside
 * a single common word ("manager." of it, met in every "nodemanager.containermanager") is not.
 */
function largestCommonPart(words: readonly [number, number][], start: number, end: number): number {
  let most = 0;
  for (const [from, to] of words) most = Math.max(most, Math.min(to, end + 1) - Math.max(from, start));
  return most;
}

/** The width of a literal's key window: 8 bytes if it has them, else 4, else 2. */
function windowWidth(length: number): number {
  return length >= 8 ? 8 : length >= 4 ? 4 : 2;
}

/**
 * Each literal's rarest window (where it ends), by the literal's folded text: the shipped triggers'
 * chosen at build time (windows.json, scripts/compile-windows.ts), since choosing them cost every
 * start; any other literal's chosen once per thread, when first met.
 */
const RAREST_WINDOW = new Map<string, number>(
  Object.entries(z.record(z.string(), z.number().int().nonnegative()).parse(builtWindows)),
);

/** The index of the last byte of the literal's rarest window (by BYTE_FREQUENCY). */
function rarestWindowEnd(bytes: Uint8Array): number {
  const text = String.fromCharCode(...bytes);
  const width = windowWidth(bytes.length);
  let end = RAREST_WINDOW.get(text);
  // A stale windows.json may name a window the literal does not have: it is chosen again.
  if (end === undefined || end < width - 1 || end >= bytes.length) {
    end = searchRarestWindow(bytes, width);
    RAREST_WINDOW.set(text, end);
  }
  return end;
}

/**
 * What the build writes to windows.json for these literal keys: each one's rarest window, chosen
 * afresh, by its folded text in sorted order.
 */
export function rarestWindowsJson(keys: readonly string[]): string {
  const texts = [...new Set(keys.map((key) => parseLiteralKey(key.toLowerCase()).text))]
    .filter(isScannable)
    .sort();
  const ends = texts.map((text) => {
    const bytes = foldedBytes(text);
    return [text, searchRarestWindow(bytes, windowWidth(bytes.length))] as const;
  });
  return `${JSON.stringify(Object.fromEntries(ends), null, 2)}\n`;
}

/** A scannable literal's bytes, ASCII letters folded to lower case. */
function foldedBytes(text: string): Uint8Array {
  return Uint8Array.from(text, (c) => FOLD[c.charCodeAt(0)] as number);
}

function searchRarestWindow(bytes: Uint8Array, width: number): number {
  let best = bytes.length - 1;
  let bestScore = Number.POSITIVE_INFINITY;
  const words = commonWordsIn(bytes);
  for (let end = width - 1; end < bytes.length; end++) {
    // Each byte of a common word outweighs any letter frequency.
    let score = 100 * largestCommonPart(words, end - width + 1, end);
    for (let k = end - width + 1; k <= end; k++)
      score += Math.log(BYTE_FREQUENCY[bytes[k] as number] as number);
    if (score < bestScore) {
      bestScore = score;
      best = end;
    }
  }
  return best;
}

/**
 * Every way the folded bytes may be written (each ASCII letter in either case), each as the number a
 * little-endian load of them gives: what the kernel's first test reads.
 */
function everyCase(folded: Uint8Array): number[] {
  let words = [0];
  folded.forEach((byte, k) => {
    const cases = byte >= 0x61 && byte <= 0x7a ? [byte, byte - 0x20] : [byte];
    words = words.flatMap((word) => cases.map((cased) => (word | (cased << (8 * k))) >>> 0));
  });
  return words;
}

/** Each literal's first-test slots (by its folded text): the scanners of a run share most literals. */
const FIRST_TEST_SLOTS = new Map<string, readonly number[]>();

/** The kernel's first-test slots of a window's last four bytes (rawFours) or a short window (rawShorts). */
function firstTestSlots(text: string, window: Uint8Array): readonly number[] {
  let slots = FIRST_TEST_SLOTS.get(text);
  if (slots === undefined) {
    const words = everyCase(window);
    slots = window.length === 2 ? words : words.map(hashOf);
    FIRST_TEST_SLOTS.set(text, slots);
  }
  return slots;
}

/** A text's character as the scan sees it: ASCII folded, anything else 0, which no literal holds. */
function foldedChar(text: string, at: number): number {
  const code = text.charCodeAt(at);
  return code < 0x80 ? (FOLD[code] as number) : 0;
}

/** Literal ids by a table slot. */
class LiteralIdsBySlot {
  private readonly slots = new Map<number, number[]>();

  add(slot: number, id: number): void {
    const group = this.slots.get(slot);
    if (group) group.push(id);
    else this.slots.set(slot, [id]);
  }

  at(slot: number): readonly number[] | undefined {
    return this.slots.get(slot);
  }

  get used(): IterableIterator<number> {
    return this.slots.keys();
  }
}

/**
 * The one kernel of this thread, shared by every scanner: making one per scanner (a new live set
 * every time a kind fills) cost megabytes of memory each. It holds one scanner's tables at a time.
 */
const threadKernel: { kernel?: Kernel; owner?: LiteralScanner; epoch: number } = { epoch: 0 };

/**
 * A set of ASCII literals, matched case-insensitively, exactly as a non-Unicode `i` regex matches
 * them: only ASCII letters fold. In bytes that holds too, since UTF-8 puts no ASCII byte inside
 * another character.
 */
export class LiteralScanner {
  /** The literal keys (see literalKey), texts lower-cased, each once; a literal's id is its index here. */
  readonly literals: readonly string[];
  private readonly bytes: readonly Uint8Array[];
  /** For each literal, where its key window ends in it: a table hit at i means it starts at i - end. */
  private readonly keyEnds: number[] = [];
  /** For each literal, the ASCII bytes that must not come right before it (empty: none). */
  private readonly notAfter: readonly Uint8Array[];
  /** Literals of 2-3 bytes by their key window; of 4-7 by the hash of theirs (4 bytes); longer, of 8. */
  private readonly short = new LiteralIdsBySlot();
  private readonly long = new LiteralIdsBySlot();
  private readonly eight = new LiteralIdsBySlot();
  /** The second-hash slots of the long and eight tables' windows (the kernel's tables only). */
  private readonly longSecond: number[] = [];
  private readonly eightSecond: number[] = [];
  /** The kernel's first test: the slots of every case of each short window, and of each other window's last four bytes. */
  private readonly rawShorts: number[] = [];
  private readonly rawFours: number[] = [];
  /** The folded windows' slots: the last four bytes of each of four or eight (hashOf), and the short ones. */
  private readonly fours: number[] = [];
  /** The text scan's first test, as flags of those slots: made when a text is first scanned. */
  private textTest?: { fours: Uint8Array; shorts: Uint8Array };
  /** See rejections(). */
  private rejected?: [number, number, number][];
  /** The bytes last copied into the kernel, and from where. */
  private loaded?: Uint8Array;
  private loadedFrom = 0;
  private loadedTo = 0;
  private loadedEpoch = -1;

  constructor(literals: readonly string[]) {
    this.literals = [...new Set(literals.map((key) => key.toLowerCase()))];
    const parsed = this.literals.map(parseLiteralKey);
    this.bytes = parsed.map(({ text }) => {
      if (!isScannable(text)) throw new Error(`not a scannable literal: ${JSON.stringify(text)}`);
      return foldedBytes(text);
    });
    this.notAfter = parsed.map(({ notAfter }) =>
      Uint8Array.from(notAfter, (c) => FOLD[c.charCodeAt(0) & 0x7f] as number),
    );
    // Each literal is keyed by its rarest window of 2, 4 or 8 bytes: its first word is often a common
    // one ("executor", "memory", "from"), and a table hit on a common window costs a comparison.
    this.bytes.forEach((bytes, id) => {
      this.index(bytes, id);
    });
  }

  /** Puts a literal in the tables by its key window (of 2, 4 or 8 bytes) and that window's last four. */
  private index(bytes: Uint8Array, id: number): void {
    const end = rarestWindowEnd(bytes);
    this.keyEnds.push(end);
    const width = windowWidth(bytes.length);
    if (width === 2) {
      const window = ((bytes[end - 1] as number) << 8) | (bytes[end] as number);
      this.short.add(window, id);
      this.rawShorts.push(...firstTestSlots(this.literals[id] as string, bytes.subarray(end - 1, end + 1)));
      return;
    }
    const last = uint32At(bytes, end - 3);
    this.fours.push(hashOf(last));
    this.rawFours.push(...firstTestSlots(this.literals[id] as string, bytes.subarray(end - 3, end + 1)));
    if (width === 8) {
      this.eight.add(hash8Of(uint32At(bytes, end - 7), last), id);
      this.eightSecond.push(secondHash8Of(uint32At(bytes, end - 7), last));
    } else {
      this.long.add(hashOf(last), id);
      this.longSecond.push(secondHashOf(last));
    }
  }

  /**
   * An offset in [from, to) inside the first literal found (literals never hold a newline, so it is in
   * the same line as that literal's start), or -1 when no literal lies wholly in [from, to). Calls on
   * the same array reuse its copy in the kernel: its bytes must not change between them.
   */
  find(bytes: Uint8Array, from: number, to: number): number {
    const kernel = this.kernelWithTables();
    const base = this.copyIntoKernel(kernel, bytes, from, to);
    for (let at = from; at < to; ) {
      const i = kernel.find(at - base, to - base, from - base) + base;
      if (i < base) return -1;
      const [low, high] = windowBefore(bytes, from, i + 1);
      const found = this.startAt(bytes, from, i, to, low, high);
      if (found >= 0) return found;
      at = i + 1;
    }
    return -1;
  }

  /**
   * Calls `found` with the id of every literal lying wholly in bytes[from, to), a line the last find
   * hit (its bytes still in the kernel): the literals `each` finds in the line's text, since UTF-8
   * puts no ASCII byte inside another character and a literal and `notAfter` are ASCII. The kernel
   * scans it at about a nanosecond a byte, the text scan at several a character.
   */
  eachIn(bytes: Uint8Array, from: number, to: number, found: (id: number) => void): void {
    const kernel = this.kernelWithTables();
    const base = this.copyIntoKernel(kernel, bytes, from, to);
    for (let at = from; at < to; ) {
      const i = kernel.find(at - base, to - base, from - base) + base;
      if (i < base) return;
      const [low, high] = windowBefore(bytes, from, i + 1);
      this.allInBytes(this.short.at(low & 0xffff), bytes, from, i, to, found);
      this.allInBytes(this.long.at(hashOf(low)), bytes, from, i, to, found);
      this.allInBytes(this.eight.at(hash8Of(high, low)), bytes, from, i, to, found);
      at = i + 1;
    }
  }

  /** Where a literal whose key window ends at `i` (folded: low, high) starts, or -1 (a false hit). */
  private startAt(bytes: Uint8Array, from: number, i: number, to: number, low: number, high: number): number {
    const start =
      this.firstEndingAt(this.short.at(low & 0xffff), bytes, from, i, to) ??
      this.firstEndingAt(this.long.at(hashOf(low)), bytes, from, i, to) ??
      this.firstEndingAt(this.eight.at(hash8Of(high, low)), bytes, from, i, to);
    return start ?? -1;
  }

  /** Calls `found` with the id of every literal in the text, once for each place it occurs. */
  each(text: string, found: (id: number) => void): void {
    let low = 0;
    let high = 0;
    const { fours, shorts } = this.firstTextTest();
    for (let i = 0; i < text.length; i++) {
      high = (high << 8) | (low >>> 24);
      low = (low << 8) | foldedChar(text, i);
      // The kernel's first test, on folded text: most characters end no literal's window.
      if (fours[hashOf(low)] === 0 && shorts[low & 0xffff] === 0) continue;
      this.allEndingAt(this.short.at(low & 0xffff), text, i, found);
      this.allEndingAt(this.long.at(hashOf(low)), text, i, found);
      this.allEndingAt(this.eight.at(hash8Of(high, low)), text, i, found);
    }
  }

  private firstTextTest(): { fours: Uint8Array; shorts: Uint8Array } {
    if (this.textTest) return this.textTest;
    const fours = new Uint8Array(1 << HASH_BITS);
    for (const slot of this.fours) fours[slot] = 1;
    const shorts = new Uint8Array(65536);
    for (const slot of this.short.used) shorts[slot] = 1;
    this.textTest = { fours, shorts };
    return this.textTest;
  }

  /** The shared kernel with this scanner's tables in it (text scans need none). */
  private kernelWithTables(): Kernel {
    threadKernel.kernel ??= createKernel();
    const kernel = threadKernel.kernel;
    if (threadKernel.owner === this) return kernel;
    threadKernel.owner?.writeTables(kernel.bytes(), 0);
    kernel.bytes().set(FOLD, LAYOUT.fold);
    this.writeTables(kernel.bytes(), 1);
    threadKernel.owner = this;
    threadKernel.epoch++;
    return kernel;
  }

  /** Sets (1) or clears (0) this scanner's entries in the kernel's tables. */
  private writeTables(memory: Uint8Array, value: 0 | 1): void {
    for (const slot of this.short.used) memory[LAYOUT.shortHeads + slot] = value;
    for (const slot of this.long.used) memory[LAYOUT.longHeads + slot] = value;
    for (const slot of this.eight.used) memory[LAYOUT.eightHeads + slot] = value;
    for (const slot of this.rawFours) memory[LAYOUT.rawFours + slot] = value;
    for (const slot of this.rawShorts) memory[LAYOUT.rawShorts + slot] = value;
    for (const slot of this.longSecond) memory[LAYOUT.longHeads2 + slot] = value;
    for (const slot of this.eightSecond) memory[LAYOUT.eightHeads2 + slot] = value;
    for (const [slot, back, byte] of this.rejections()) {
      memory[LAYOUT.rejectBack + slot] = value * back;
      memory[LAYOUT.rejectByte + slot] = value * byte;
    }
  }

  /**
   * The long table's slots at which every literal keyed must not follow the same byte, at the same
   * distance back from the window's end: [slot, distance, byte]. A hit there with that byte before
   * is refused inside the kernel (see LAYOUT.rejectBack).
   */
  private rejections(): [number, number, number][] {
    this.rejected ??= [...this.long.used].flatMap((slot) => {
      const [first, ...others] = this.long.at(slot) ?? [];
      if (first === undefined) return [];
      const back = (this.keyEnds[first] as number) + 1;
      const byte = (this.notAfter[first] as Uint8Array)[0];
      const alike = (id: number) =>
        this.keyEnds[id] === back - 1 && (this.notAfter[id] as Uint8Array).includes(byte as number);
      return byte !== undefined && back < 256 && others.every(alike) ? [[slot, back, byte]] : [];
    });
    return this.rejected;
  }

  /**
   * Copies bytes[from, to) into the kernel unless they are there already (the same array, since the
   * kernel last changed hands); gives where it put `0`.
   */
  private copyIntoKernel(kernel: Kernel, bytes: Uint8Array, from: number, to: number): number {
    const fresh = this.loaded === bytes && this.loadedEpoch === threadKernel.epoch;
    if (!fresh || from < this.loadedFrom || to > this.loadedTo) {
      kernel.reserve(to - from);
      kernel.bytes().set(bytes.subarray(from, to), LAYOUT.data);
      this.loaded = bytes;
      this.loadedFrom = from;
      this.loadedTo = to;
      this.loadedEpoch = threadKernel.epoch;
    }
    return this.loadedFrom;
  }

  /** The start of the first literal of the group that ends at `end` and lies in [from, to). */
  private firstEndingAt(
    group: readonly number[] | undefined,
    bytes: Uint8Array,
    from: number,
    end: number,
    to: number,
  ): number | undefined {
    if (group === undefined || end >= to) return undefined;
    for (const id of group) {
      const start = end - (this.keyEnds[id] as number);
      if (this.liesAt(id, bytes, from, start, to)) return start;
    }
    return undefined;
  }

  /** Calls `found` with each literal of the group that ends at `end` and lies in [from, to). */
  private allInBytes(
    group: readonly number[] | undefined,
    bytes: Uint8Array,
    from: number,
    end: number,
    to: number,
    found: (id: number) => void,
  ): void {
    if (group === undefined || end >= to) return;
    for (const id of group) {
      if (this.liesAt(id, bytes, from, end - (this.keyEnds[id] as number), to)) found(id);
    }
  }

  /** Whether literal `id` starts at `start` in bytes[from, to), not right after a byte it must not follow. */
  private liesAt(id: number, bytes: Uint8Array, from: number, start: number, to: number): boolean {
    const literal = this.bytes[id] as Uint8Array;
    if (start < from || start + literal.length > to) return false;
    let k = 0;
    while (k < literal.length && FOLD[bytes[start + k] as number] === literal[k]) k++;
    if (k < literal.length) return false;
    return (
      start === from ||
      !(this.notAfter[id] as Uint8Array).includes(FOLD[bytes[start - 1] as number] as number)
    );
  }

  private allEndingAt(
    group: readonly number[] | undefined,
    text: string,
    end: number,
    found: (id: number) => void,
  ): void {
    if (group === undefined) return;
    for (const id of group) {
      const literal = this.bytes[id] as Uint8Array;
      const start = end - (this.keyEnds[id] as number);
      if (start < 0 || start + literal.length > text.length) continue;
      let k = 0;
      while (k < literal.length && foldedChar(text, start + k) === literal[k]) k++;
      if (k < literal.length) continue;
      if (start === 0 || !(this.notAfter[id] as Uint8Array).includes(foldedChar(text, start - 1))) found(id);
    }
  }
}

/** The folded eight bytes before `at` as [last four, four before], bytes before `from` as 0. */
function windowBefore(bytes: Uint8Array, from: number, at: number): [number, number] {
  let low = 0;
  let high = 0;
  for (let i = Math.max(from, at - 8); i < at; i++) {
    high = (high << 8) | (low >>> 24);
    low = (low << 8) | (FOLD[bytes[i] as number] as number);
  }
  return [low, high];
}
