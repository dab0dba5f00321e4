type TypedArray = Float64Array | Uint32Array | Int32Array | Uint8Array;
type TypedArrayConstructor<T extends TypedArray> = { new (length: number): T };

/** An append-only typed array that doubles when full: one allocation per doubling, none per element. */
export class Growable<T extends TypedArray> {
  private data: T;
  length = 0;

  constructor(
    private readonly make: TypedArrayConstructor<T>,
    initial = 1024,
  ) {
    this.data = new make(initial);
  }

  push(value: number): void {
    if (this.length === this.data.length) this.grow();
    this.data[this.length++] = value;
  }

  get(index: number): number {
    return this.data[index] as number;
  }

  set(index: number, value: number): void {
    this.data[index] = value;
  }

  /** The filled part, trimmed to a fresh array so the spare capacity is freed. */
  toArray(): T {
    const out = new this.make(this.length);
    out.set(this.data.subarray(0, this.length) as never);
    return out;
  }

  private grow(): void {
    const bigger = new this.make(Math.max(16, this.data.length * 2));
    bigger.set(this.data as never);
    this.data = bigger;
  }
}
