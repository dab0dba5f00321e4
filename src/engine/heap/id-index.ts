/**
 * Object identifiers (heap addresses, up to 2^53 here) to dense indices 0..n-1, without a JavaScript Map
 * (it stops near 16.7M entries and costs far more per entry). HotSpot writes a heap's objects in address
 * order, so the identifiers usually ascend: they are then searched in place, a directory of buckets
 * narrowing each search to a few entries (about one byte per object). Otherwise an open-addressing table
 * of indices into the identifiers (4-8 bytes per object) finds them.
 */
export class IdIndex {
  private readonly lookup: (id: number) => number;

  constructor(ids: Float64Array) {
    this.lookup = ascending(ids) ? sortedLookup(ids) : hashedLookup(ids);
  }

  /** The index of the id, or -1 when no object has it (a dangling or null reference). */
  get(id: number): number {
    return this.lookup(id);
  }
}

/** Strictly ascending: no identifier twice, each greater than the one before. */
function ascending(ids: Float64Array): boolean {
  for (let i = 1; i < ids.length; i++) if ((ids[i] as number) <= (ids[i - 1] as number)) return false;
  return true;
}

/** Binary search within the bucket of the id's place between the smallest and largest identifiers. */
function sortedLookup(ids: Float64Array): (id: number) => number {
  const n = ids.length;
  if (n === 0) return () => -1;
  const low = ids[0] as number;
  const high = ids[n - 1] as number;
  let buckets = 1;
  while (buckets * 4 < n) buckets *= 2;
  const scale = buckets / (high - low + 1);
  // first[b]: the first index whose identifier falls in bucket b or later.
  const first = new Int32Array(buckets + 1);
  let at = 0;
  for (let b = 0; b <= buckets; b++) {
    while (at < n && Math.floor(((ids[at] as number) - low) * scale) < b) at++;
    first[b] = at;
  }
  return (id) => {
    if (!(id >= low && id <= high)) return -1;
    const b = Math.floor((id - low) * scale);
    let lo = first[b] as number;
    let hi = (first[b + 1] as number) - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = ids[mid] as number;
      if (v === id) return mid;
      if (v < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  };
}

/** Open addressing over slots holding index + 1 (0: empty); a second object with an id keeps the first. */
function hashedLookup(ids: Float64Array): (id: number) => number {
  let capacity = 16;
  while (capacity < ids.length * 1.5) capacity *= 2;
  const slots = new Int32Array(capacity);
  const mask = capacity - 1;
  for (let i = 0; i < ids.length; i++) {
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
