/**
 * Object identifiers (heap addresses, up to 2^53 here) to dense indices 0..n-1, without a JavaScript Map
 * (it stops near 16.7M entries and costs far more per entry). HotSpot writes a heap's objects in address
 * order, after the class objects: those identifiers are searched in place, a directory of buckets
 * narrowing each search to a few neighbouring entries (about one byte per object), which keeps the
 * lookups of nearby objects in the same cache lines. The rows out of that order (the class objects,
 * or a few others) go to a small open-addressing table; a dump mostly out of order gets a table for
 * all (4-8 bytes per object, one cache miss per probe).
 */
export class IdIndex {
  private readonly lookup: (id: number) => number;

  /** apart: rows known to be out of address order (class objects), kept out of the in-place search. */
  constructor(ids: Float64Array, apart?: (row: number) => boolean) {
    this.lookup = lookupFor(ids, apart ?? (() => false));
  }

  /** The index of the id, or -1 when no object has it (a dangling or null reference). */
  get(id: number): number {
    return this.lookup(id);
  }
}

/** At most this share of rows out of order for the in-place search; beyond it, one table for all. */
const MOST_OUT_OF_ORDER = 1 / 32;

function lookupFor(ids: Float64Array, apart: (row: number) => boolean): (id: number) => number {
  const n = ids.length;
  const holes = new Uint8Array((n >> 3) + 1);
  const outOfOrder: number[] = [];
  let last = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < n; i++) {
    const id = ids[i] as number;
    if (id > last && !apart(i)) {
      last = id;
      continue;
    }
    holes[i >> 3] = (holes[i >> 3] as number) | (1 << (i & 7));
    if (outOfOrder.length <= n * MOST_OUT_OF_ORDER) outOfOrder.push(i);
  }
  if (outOfOrder.length > n * MOST_OUT_OF_ORDER) return hashedLookup(ids);
  const sorted = sortedLookup(ids, holes);
  if (outOfOrder.length === 0) return sorted;
  const others = hashedLookup(ids, Int32Array.from(outOfOrder));
  // Both are asked: a second object with an id (a corrupt dump) must lose to the first, wherever it is.
  return (id) => {
    const a = sorted(id);
    const b = others(id);
    return a < 0 ? b : b < 0 ? a : Math.min(a, b);
  };
}

function isHole(holes: Uint8Array, i: number): boolean {
  return (((holes[i >> 3] as number) >> (i & 7)) & 1) === 1;
}

/** Binary search of the rows in order (not holes), within the bucket of the id between the extremes. */
function sortedLookup(ids: Float64Array, holes: Uint8Array): (id: number) => number {
  const n = ids.length;
  let lowRow = 0;
  while (lowRow < n && isHole(holes, lowRow)) lowRow++;
  let highRow = n - 1;
  while (highRow >= 0 && isHole(holes, highRow)) highRow--;
  if (lowRow > highRow) return () => -1;
  const low = ids[lowRow] as number;
  const high = ids[highRow] as number;
  const scale = bucketCount(highRow - lowRow + 1) / (high - low + 1);
  const first = directory(ids, holes, low, scale, bucketCount(highRow - lowRow + 1));
  return (id) => {
    if (!(id >= low && id <= high)) return -1;
    const b = Math.floor((id - low) * scale);
    let lo = first[b] as number;
    let hi = (first[b + 1] as number) - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      let at = mid;
      while (at <= hi && isHole(holes, at)) at++;
      if (at > hi) {
        hi = mid - 1;
        continue;
      }
      const v = ids[at] as number;
      if (v === id) return at;
      if (v < id) lo = at + 1;
      else hi = mid - 1;
    }
    return -1;
  };
}

function bucketCount(rows: number): number {
  let buckets = 1;
  while (buckets * 4 < rows) buckets *= 2;
  return buckets;
}

/** first[b]: the first row in order whose identifier falls in bucket b or later (holes skipped). */
function directory(ids: Float64Array, holes: Uint8Array, low: number, scale: number, buckets: number) {
  const n = ids.length;
  const first = new Int32Array(buckets + 1);
  let at = 0;
  for (let b = 0; b <= buckets; b++) {
    while (at < n && (isHole(holes, at) || Math.floor(((ids[at] as number) - low) * scale) < b)) at++;
    first[b] = at;
  }
  return first;
}

/** Open addressing over slots holding row + 1 (0: empty), for the given rows (all when none given). */
function hashedLookup(ids: Float64Array, rows?: Int32Array): (id: number) => number {
  const count = rows ? rows.length : ids.length;
  let capacity = 16;
  while (capacity < count * 1.5) capacity *= 2;
  const slots = new Int32Array(capacity);
  const mask = capacity - 1;
  for (let r = 0; r < count; r++) {
    const i = rows ? (rows[r] as number) : r;
    const id = ids[i] as number;
    let slot = slotOf(id, mask);
    while (slots[slot] !== 0 && ids[(slots[slot] as number) - 1] !== id) slot = (slot + 1) & mask;
    if (slots[slot] === 0) slots[slot] = i + 1;
  }
  return (id) => {
    for (let slot = slotOf(id, mask); ; slot = (slot + 1) & mask) {
      const entry = slots[slot] as number;
      if (entry === 0) return -1;
      if (ids[entry - 1] === id) return entry - 1;
    }
  };
}

function slotOf(id: number, mask: number): number {
  // Addresses are 8-byte aligned: mix the high and low words so aligned ids spread over the table.
  const low = id >>> 0;
  const high = Math.floor(id / 4294967296) >>> 0;
  let h = Math.imul(low ^ (low >>> 16), 0x45d9f3b) ^ Math.imul(high, 0x27d4eb2d);
  h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
  return (h ^ (h >>> 13)) & mask;
}
