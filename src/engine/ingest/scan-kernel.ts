// The inner loop of the literal scan, as a small WebAssembly function: V8 runs the same loop in
// JavaScript at 5-8 ns a byte, this at about a nanosecond. It only says where a literal may end (a
// table hit); LiteralScanner checks the bytes. The module is assembled here, a few hundred bytes,
// so there is no binary file and no build step.

/** Where the tables and the scanned bytes sit in the kernel's memory. */
export const LAYOUT = {
  /** 256 bytes: each byte with ASCII letters folded to lower case. */
  fold: 0,
  /** 65536 bytes: 1 where a two-byte window starts a literal of two or three bytes. */
  shortHeads: 256,
  /** 2^18 bytes: 1 where the hash of a four-byte window is that of a 4-7 byte literal's. */
  longHeads: 256 + 65536,
  /** 2^18 bytes: 1 where the hash of an eight-byte window is that of a longer literal's first eight. */
  eightHeads: 256 + 65536 + (1 << 18),
  /** 65536 bytes: 1 where a two-byte window ends some literal: the first, cheap test of every byte. */
  tails: 256 + 65536 + (2 << 18),
  /** The same two tables under a second hash: a window must pass both, so a collision rarely stops the scan. */
  longHeads2: 256 + 65536 + (2 << 18) + 65536,
  eightHeads2: 256 + 65536 + (3 << 18) + 65536,
  /** The bytes to scan start here (2 MiB in, past the tables). */
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
  ret: 0x0f,
  get: 0x20,
  set: 0x21,
  tee: 0x22,
  load8: 0x2d,
  const: 0x41,
  eqz: 0x45,
  geU: 0x4f,
  add: 0x6a,
  mul: 0x6c,
  and: 0x71,
  or: 0x72,
  shl: 0x74,
  xor: 0x73,
  shrU: 0x76,
} as const;

const [AT, TO, LOW, HIGH] = [0, 1, 2, 3];
const load8 = (offset: number) => [op.load8, 0, ...uleb(offset)];
const returnAtIfSet = [op.if, 0x40, op.get, AT, op.ret, op.end];
const hashedBy = (multiplier: number) => [
  ...[op.const, ...sleb(multiplier | 0), op.mul, op.const, ...sleb(32 - HASH_BITS), op.shrU],
];
/** at++; br depth (continue the loop, from inside `depth` blocks). */
const nextByte = (depth: number) => [op.get, AT, op.const, ...sleb(1), op.add, op.set, AT, op.br, depth];

/** if (first[hash(key)]) { if (second[hash2(key)]) return at } */
function bothSet(key: number[], first: number, second: number): number[] {
  return [
    ...[...key, ...hashedBy(HASH_MULTIPLIER), ...load8(first), op.if, 0x40],
    ...[...key, ...hashedBy(SECOND_MULTIPLIER), ...load8(second), ...returnAtIfSet],
    op.end,
  ];
}

/** high = (high << 8) | (low >>> 24); low = (low << 8) | fold[data[at]], low left on the stack. */
function rollWindow(): number[] {
  return [
    ...[op.get, HIGH, op.const, ...sleb(8), op.shl],
    ...[op.get, LOW, op.const, ...sleb(24), op.shrU, op.or, op.set, HIGH],
    ...[op.get, LOW, op.const, ...sleb(8), op.shl, op.get, AT, ...load8(LAYOUT.data), ...load8(LAYOUT.fold)],
    ...[op.or, op.tee, LOW],
  ];
}

/** After the window rolled: whether a literal of 2-3, 4-7 or 8+ bytes may end at `at` (then return it). */
function literalEndsHere(): number[] {
  const mixed = [op.get, HIGH, op.const, ...sleb(HIGH_MULTIPLIER | 0), op.mul, op.get, LOW, op.xor];
  return [
    // if (!tails[low & 0xffff]) { at++; continue }: most bytes end no literal
    ...[op.const, ...sleb(0xffff), op.and, ...load8(LAYOUT.tails), op.eqz, op.if, 0x40],
    ...nextByte(1),
    op.end,
    // if (shortHeads[low & 0xffff]) return at
    ...[op.get, LOW, op.const, ...sleb(0xffff), op.and, ...load8(LAYOUT.shortHeads), ...returnAtIfSet],
    // a 4-7 byte literal's window: longHeads[hashOf(low)] and longHeads2[secondHashOf(low)]
    ...bothSet([op.get, LOW], LAYOUT.longHeads, LAYOUT.longHeads2),
    // a longer literal's: the same of the mix of high and low
    ...bothSet(mixed, LAYOUT.eightHeads, LAYOUT.eightHeads2),
  ];
}

/**
 * find(at, to, low, high) -> i32: the first i in [at, to) where, once byte i is folded into the
 * rolling window (`low` its last four bytes, `high` the four before), a table says a literal of 2-3,
 * 4-7 or 8+ bytes may end there; -1 if none. The window holds the bytes before `at`.
 */
function findBody(): number[] {
  return [
    0, // no locals beyond the parameters
    ...[op.block, 0x40, op.loop, 0x40],
    // if (at >= to) break
    ...[op.get, AT, op.get, TO, op.geU, op.brIf, 1],
    ...rollWindow(),
    ...literalEndsHere(),
    ...nextByte(0),
    ...[op.end, op.end, op.const, ...sleb(-1), op.end],
  ];
}

function moduleBytes(pages: number): Uint8Array {
  const body = findBody();
  return Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, [1, 0x60, 4, I32, I32, I32, I32, 1, I32]), // type 0: (i32, i32, i32, i32) -> i32
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
  find(at: number, to: number, low: number, high: number): number;
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
if (LAYOUT.eightHeads2 + (1 << HASH_BITS) > LAYOUT.data)
  throw new Error('scan kernel tables overlap its data');
