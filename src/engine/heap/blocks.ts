type TypedArray = Float64Array | Uint32Array | Int32Array | Uint8Array;
type TypedArrayConstructor<T extends TypedArray> = { new (length: number): T };

const BLOCK_BITS = 20;
const BLOCK = 1 << BLOCK_BITS;
const MASK = BLOCK - 1;

/**
 * An append-only column of numbers kept in fixed blocks of a million: unlike an array that doubles, it
 * never copies what it holds while it grows, nor holds up to twice the room it needs. toArray() gives
 * the exact-size array a pass ends with.
 */
export class BlockColumn<T extends TypedArray> {
  private blocks: T[] = [];
  private current: T;
  private fill = 0;
  length = 0;

  constructor(private readonly make: TypedArrayConstructor<T>) {
    this.current = new make(0);
    this.fill = BLOCK;
  }

  push(value: number): void {
    if (this.fill === BLOCK) {
      this.current = new this.make(BLOCK);
      this.blocks.push(this.current);
      this.fill = 0;
    }
    this.current[this.fill++] = value;
    this.length++;
  }

  get(index: number): number {
    return (this.blocks[index >>> BLOCK_BITS] as T)[index & MASK] as number;
  }

  /** The values in an exact-size array (of `into`'s kind when given); the blocks are let go as they are copied. */
  toArray<U extends TypedArray = T>(into?: TypedArrayConstructor<U>): U {
    const out = new (into ?? (this.make as unknown as TypedArrayConstructor<U>))(this.length);
    let at = 0;
    for (let b = 0; b < this.blocks.length; b++) {
      const block = this.blocks[b] as T;
      const part = block.subarray(0, Math.min(BLOCK, this.length - at));
      out.set(part as never, at);
      at += part.length;
      this.blocks[b] = undefined as never;
    }
    this.clear();
    return out;
  }

  /** Lets every block go. */
  clear(): void {
    this.blocks = [];
    this.current = new this.make(0);
    this.fill = BLOCK;
    this.length = 0;
  }
}
