/**
 * Object identifiers (heap addresses, up to 2^53 here) to dense indices 0..n-1, in an open-addressing hash
 * table held in typed arrays: a JavaScript Map stops near 16.7M entries and costs far more per entry.
 */
export class IdIndex {
  private readonly keys: Float64Array;
  private readonly values: Int32Array;
  private readonly mask: number;

  constructor(ids: Float64Array) {
    let capacity = 16;
    while (capacity < ids.length * 2) capacity *= 2;
    this.keys = new Float64Array(capacity);
    this.values = new Int32Array(capacity).fill(-1);
    this.mask = capacity - 1;
    for (let i = 0; i < ids.length; i++) this.insert(ids[i] as number, i);
  }

  /** The index of the id, or -1 when no object has it (a dangling or null reference). */
  get(id: number): number {
    let slot = this.slotOf(id);
    for (;;) {
      const value = this.values[slot] as number;
      if (value === -1) return -1;
      if (this.keys[slot] === id) return value;
      slot = (slot + 1) & this.mask;
    }
  }

  private insert(id: number, index: number): void {
    let slot = this.slotOf(id);
    while (this.values[slot] !== -1) {
      // A second record for the same id keeps the first: HotSpot never writes one, a corrupt dump might.
      if (this.keys[slot] === id) return;
      slot = (slot + 1) & this.mask;
    }
    this.keys[slot] = id;
    this.values[slot] = index;
  }

  private slotOf(id: number): number {
    // Addresses are 8-byte aligned: mix the high and low words so aligned ids spread over the table.
    const low = id >>> 0;
    const high = Math.floor(id / 4294967296) >>> 0;
    let h = Math.imul(low ^ (low >>> 16), 0x45d9f3b) ^ Math.imul(high, 0x27d4eb2d);
    h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
    return (h ^ (h >>> 13)) & this.mask;
  }
}
