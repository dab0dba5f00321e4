// The inner loop of the literal scan, as a small WebAssembly function: V8 runs the same loop in
// JavaScript at 5-8 ns a byte, this at about a nanosecond. It only says where a literal may end (a
// table hit); LiteralScanner checks the bytes. The module is assembled here, a few hundred bytes,
// so there is no binary file and no build step.

/** Where the tables and the scanned bytes sit in the kernel's memory. */
export const LAYOUT = {
  /** 256 bytes: each byte with ASCII letters folded to lower case. */
  fold: 0,
  /** 65536 bytes: 1 where a two-byte window (folded) starts a literal of two or three bytes. */
  shortHeads: 256,
  /** 2^18 bytes: 1 where the hash of a four-byte window is that of a 4-7 byte literal's. */
  longHeads: 256 + 65536,
  /** 2^18 bytes: 1 where the hash of an eight-byte window is that of a longer literal's first eight. */
  eightHeads: 256 + 65536 + (1 << 18),
  /**
   * The first, cheap test of every byte, on the bytes as they are (every case of each letter):
   * 2^18 bytes, 1 where the hash (hashOf) of the four bytes ending here, loaded little-endian, is that of the last four
   * of a literal's window of four or eight; 65536 bytes, 1 where the two ending here are a short
   * literal's window.
   */
  rawFours: 256 + 65536 + (2 << 18),
  rawShorts: 256 + 65536 + (3 << 18),
  /** The long and eight tables under a second hash: a window must pass both, so a collision rarely stops the scan. */
  longHeads2: 256 + 65536 + (3 << 18) + 65536,
  eightHeads2: 256 + 65536 + (4 << 18) + 65536,
  /**
   * By a long table's slot, where every literal keyed there must not follow one byte: how far back
   * from the window's end that byte is (0: no such rule), and the byte, folded. A hit whose byte
   * there is that one is no literal's end ("yarn." in org.apache.hadoop.yarn.server), and the scan
   * goes on in the kernel instead of returning for LiteralScanner to refuse it.
   */
  rejectBack: 256 + 65536 + (5 << 18) + 65536,
  rejectByte: 256 + 65536 + (6 << 18) + 65536,
  /** The bytes to scan start here (2 MiB in, past the tables; the bytes before it are 0). */
  data: 1 << 21,
} as const;

export const HASH_BITS = 18;
export const HASH_MULTIPLIER = 0x9e3779b1;
export const HIGH_MULTIPLIER = 0x85ebca6b;
export const SECOND_MULTIPLIER = 0xc2b2ae35;

/** The table slot of a four-byte window (the kernel computes the same). */
export function hashOf(window: number): number {
  return Math.imul(window, HASH_MULTIPLIER) >>> (32 - HASH_BITS);
}

/** The table slot of an eight-byte window: its first four bytes `high`, its last four `low`. */
export function hash8Of(high: number, low: number): number {
  return hashOf(Math.imul(high, HIGH_MULTIPLIER) ^ low);
}

/** The second tables' slot of a four-byte window, or of an eight-byte one's mix as in hash8Of. */
export function secondHashOf(window: number): number {
  return Math.imul(window, SECOND_MULTIPLIER) >>> (32 - HASH_BITS);
}

export function secondHash8Of(high: number, low: number): number {
  return secondHashOf(Math.imul(high, HIGH_MULTIPLIER) ^ low);
}
const PAGE = 65536;

/** unsigned and signed LEB128, as WebAssembly encodes integers */
function uleb(value: number): number[] {
  const out: number[] = [];
  let v = value >>> 0;
  do {
    let byte = v & 0x7f;
    v >>>= 7;
    if (v !== 0) byte |= 0x80;
    out.push(byte);
  } while (v !== 0);
  return out;
}

function sleb(value: number): number[] {
  const out: number[] = [];
  let v = value | 0;
  for (;;) {
    const byte = v & 0x7f;
    v >>= 7;
    const done = (v === 0 && (byte & 0x40) === 0) || (v === -1 && (byte & 0x40) !== 0);
    out.push(done ? byte : byte | 0x80);
    if (done) return out;
  }
}

function section(id: number, body: number[]): number[] {
  return [id, ...uleb(body.length), ...body];
}

function name(text: string): number[] {
  return [...uleb(text.length), ...Buffer.from(text, 'ascii')];
}

// Opcodes used below.
const I32 = 0x7f;
const op = {
  block: 0x02,
  loop: 0x03,
  if: 0x04,
  end: 0x0b,
  br: 0x0c,
  brIf: 0x0d,
  eqz: 0x45,
  ne: 0x47,
  ltS: 0x48,
  sub: 0x6b,
  ret: 0x0f,
  get: 0x20,
  set: 0x21,
  tee: 0x22,
  load32: 0x28,
  load8: 0x2d,
  const: 0x41,
  geU: 0x4f,
  add: 0x6a,
  mul: 0x6c,
  and: 0x71,
  or: 0x72,
  shl: 0x74,
  xor: 0x73,
  shrU: 0x76,
} as const;

const [AT, TO, FROM, WORD, LOW, HIGH, SLOT] = [0, 1, 2, 3, 4, 5, 6];
const load8 = (offset: number) => [op.load8, 0, ...uleb(offset)];
const load32 = (offset: number) => [op.load32, 0, ...uleb(offset)];
const returnAtIfSet = [op.if, 0x40, op.get, AT, op.ret, op.end];
const hashedBy = (multiplier: number) => [
  ...[op.const, ...sleb(multiplier | 0), op.mul, op.const, ...sleb(32 - HASH_BITS), op.shrU],
];
const setAt = (delta: number) => [op.get, AT, op.const, ...sleb(delta), op.add, op.set, AT];

/**
 * The first test of the byte at `at + ahead`, its result on the stack: rawFours of the four bytes
 * ending there, or rawShorts of the two. No state is carried from byte to byte, so the processor
 * tests the next byte while this one's loads are under way.
 */
function firstTest(ahead: number): number[] {
  return [
    ...[op.get, AT, ...load32(LAYOUT.data - 3 + ahead), op.tee, WORD],
    ...[...hashedBy(HASH_MULTIPLIER), ...load8(LAYOUT.rawFours)],
    ...[op.get, WORD, op.const, ...sleb(16), op.shrU, ...load8(LAYOUT.rawShorts), op.or],
  ];
}

/** The folded four bytes ending `back` bytes before `at`, big-endian (as the tables' windows). */
function foldedWindow(back: number): number[] {
  const byte = (k: number) => [op.get, AT, ...load8(LAYOUT.data - back - k), ...load8(LAYOUT.fold)];
  return [
    ...[...byte(3), op.const, ...sleb(24), op.shl],
    ...[...byte(2), op.const, ...sleb(16), op.shl, op.or],
    ...[...byte(1), op.const, ...sleb(8), op.shl, op.or],
    ...[...byte(0), op.or],
  ];
}

/** if (first[hash(key)]) { if (second[hash2(key)]) return at } */
function bothSet(key: number[], first: number, second: number): number[] {
  return [
    ...[...key, ...hashedBy(HASH_MULTIPLIER), ...load8(first), op.if, 0x40],
    ...[...key, ...hashedBy(SECOND_MULTIPLIER), ...load8(second), ...returnAtIfSet],
    op.end,
  ];
}

/**
 * if (longHeads[slot] && longHeads2[hash2(low)]) { unless rejected (rejectBack), return at }, where
 * slot = hash(low). Rejected: the byte `back` before `at` lies at or after `from` and, folded, is
 * rejectByte[slot]; a byte before `from` is left to LiteralScanner (a literal may start at `from`).
 */
function longEndsHere(): number[] {
  const byteBack = [op.get, AT, op.get, WORD, op.sub];
  return [
    ...[op.get, LOW, ...hashedBy(HASH_MULTIPLIER), op.tee, SLOT, ...load8(LAYOUT.longHeads), op.if, 0x40],
    ...[op.get, LOW, ...hashedBy(SECOND_MULTIPLIER), ...load8(LAYOUT.longHeads2), op.if, 0x40],
    ...[op.get, SLOT, ...load8(LAYOUT.rejectBack), op.set, WORD, op.block, 0x40],
    ...[op.get, WORD, op.eqz, op.brIf, 0],
    ...[...byteBack, op.get, FROM, op.ltS, op.brIf, 0],
    ...[...byteBack, ...load8(LAYOUT.data), ...load8(LAYOUT.fold)],
    ...[op.get, SLOT, ...load8(LAYOUT.rejectByte), op.ne, op.brIf, 0],
    // Rejected: out of both ifs, on to the eight-byte tables.
    ...[op.br, 2, op.end, op.get, AT, op.ret],
    ...[op.end, op.end],
  ];
}

/** Whether a literal of 2-3, 4-7 or 8+ bytes may end at `at` by the folded tables (then return it). */
function literalEndsHere(): number[] {
  const mixed = [op.get, HIGH, op.const, ...sleb(HIGH_MULTIPLIER | 0), op.mul, op.get, LOW, op.xor];
  return [
    ...[...foldedWindow(0), op.set, LOW, ...foldedWindow(4), op.set, HIGH],
    // if (shortHeads[low & 0xffff]) return at
    ...[op.get, LOW, op.const, ...sleb(0xffff), op.and, ...load8(LAYOUT.shortHeads), ...returnAtIfSet],
    ...longEndsHere(),
    ...bothSet(mixed, LAYOUT.eightHeads, LAYOUT.eightHeads2),
  ];
}

/**
 * Two bytes a turn while two are left, then the last one: branches to the enclosing block (depth
 * `slow` from the loop) with `at` at the first byte that passes the first test; returns -1 if none.
 */
function fastLoop(): number[] {
  return [
    ...[op.loop, 0x40],
    // if (at + 1 >= to) { if (at >= to) return -1; if (firstTest(0)) break slow; return -1 }
    ...[op.get, AT, op.const, ...sleb(1), op.add, op.get, TO, op.geU, op.if, 0x40],
    ...[op.get, AT, op.get, TO, op.geU, op.if, 0x40, op.const, ...sleb(-1), op.ret, op.end],
    ...[...firstTest(0), op.brIf, 2, op.const, ...sleb(-1), op.ret],
    op.end,
    ...[...firstTest(0), op.brIf, 1],
    ...[...firstTest(1), op.if, 0x40, ...setAt(1), op.br, 2, op.end],
    ...[...setAt(2), op.br, 0],
    op.end,
  ];
}

/**
 * find(at, to, from) -> i32: the first i in [at, to) where, by the tables, a literal of 2-3, 4-7 or
 * 8+ bytes may end (its window being the bytes before i and i); -1 if none. The window may reach
 * back before `at` (and before the data, where the bytes are 0): a hit there is only a false one.
 * `from` (at most `at`) is where the range searched starts, for the rejection in longEndsHere.
 */
function findBody(): number[] {
  return [
    ...[1, 4, I32], // four locals beyond the parameters: the loaded word, the folded window, a slot
    ...[op.loop, 0x40, op.block, 0x40],
    ...fastLoop(),
    op.end,
    ...literalEndsHere(),
    ...[...setAt(1), op.br, 0],
    op.end,
    ...[op.const, ...sleb(-1), op.end],
  ];
}

function moduleBytes(pages: number): Uint8Array {
  const body = findBody();
  return Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, [1, 0x60, 3, I32, I32, I32, 1, I32]), // type 0: (i32, i32, i32) -> i32
    ...section(3, [1, 0]), // function 0 has type 0
    ...section(5, [1, 0x00, ...uleb(pages)]), // one memory, growable
    ...section(7, [2, ...name('find'), 0x00, 0, ...name('memory'), 0x02, 0]),
    ...section(10, [1, ...uleb(body.length), ...body]),
  ]);
}

// The few WebAssembly calls used here, typed locally: the project's TypeScript libs have no DOM.
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

/** The compiled kernel, shared: a scanner instantiates it with its own memory. */
let compiled: object | undefined;

export interface Kernel {
  /** The first possible literal end in [at, to), the range searched starting at `from`; -1 if none. */
  find(at: number, to: number, from: number): number;
  /** The kernel's memory as bytes; replaced when it grows. */
  bytes(): Uint8Array;
  /** Makes room for `length` bytes of data to scan. */
  reserve(length: number): void;
}

export function createKernel(): Kernel {
  compiled ??= new wasm.Module(moduleBytes(LAYOUT.data / PAGE + 2));
  const instance = new wasm.Instance(compiled, {});
  const memory = instance.exports.memory as WasmMemory;
  const find = instance.exports.find as Kernel['find'];
  let view = new Uint8Array(memory.buffer);
  return {
    find,
    bytes: () => view,
    reserve(length) {
      const needed = LAYOUT.data + length;
      if (needed <= memory.buffer.byteLength) return;
      memory.grow(Math.ceil((needed - memory.buffer.byteLength) / PAGE));
      view = new Uint8Array(memory.buffer);
    },
  };
}

// The tables must end before the data: a table slot inside it would read scanned bytes as flags.
if (LAYOUT.rejectByte + (1 << HASH_BITS) > LAYOUT.data)
  throw new Error('scan kernel tables overlap its data');
