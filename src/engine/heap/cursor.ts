/**
 * A window on the bytes read so far: the parser asks for n bytes at a time and the window keeps what a
 * record still needs across chunk boundaries. Offsets are counted from the start of the (decompressed) dump.
 */
export class Cursor {
  private buffer: Uint8Array = new Uint8Array(0);
  private view = new DataView(this.buffer.buffer);
  /** Position of the next unread byte in the buffer. */
  pos = 0;
  /** Offset in the dump of buffer[0]. */
  private base = 0;
  /** Whether buffer is this cursor's own copy, or still the caller's chunk. */
  private owned = false;

  constructor(readonly idSize: number) {}

  /** Adds a chunk, keeping the unread tail of the previous one. */
  append(chunk: Uint8Array): void {
    const tail = this.buffer.subarray(this.pos);
    this.base += this.pos;
    if (tail.length === 0) {
      this.buffer = chunk;
      this.owned = false;
    } else {
      const joined = new Uint8Array(tail.length + chunk.length);
      joined.set(tail, 0);
      joined.set(chunk, tail.length);
      this.buffer = joined;
      this.owned = true;
    }
    this.view = new DataView(this.buffer.buffer, this.buffer.byteOffset, this.buffer.byteLength);
    this.pos = 0;
  }

  /**
   * Copies the unread tail out of the caller's chunk: a reader may reuse a chunk's memory once the next
   * is asked for (src/file-chunks.ts does), so nothing of it may be kept past the feed that got it.
   */
  detach(): void {
    if (this.owned || this.available() === 0) return;
    this.buffer = this.buffer.slice(this.pos);
    this.base += this.pos;
    this.pos = 0;
    this.view = new DataView(this.buffer.buffer, this.buffer.byteOffset, this.buffer.byteLength);
    this.owned = true;
  }

  /** Offset in the dump of the next unread byte. */
  get offset(): number {
    return this.base + this.pos;
  }

  available(): number {
    return this.buffer.length - this.pos;
  }

  has(n: number): boolean {
    return this.buffer.length - this.pos >= n;
  }

  bytes(): Uint8Array {
    return this.buffer;
  }

  u1(): number {
    return this.buffer[this.pos++] as number;
  }

  u2(): number {
    const v = this.view.getUint16(this.pos);
    this.pos += 2;
    return v;
  }

  u4(): number {
    const v = this.view.getUint32(this.pos);
    this.pos += 4;
    return v;
  }

  i4(): number {
    const v = this.view.getInt32(this.pos);
    this.pos += 4;
    return v;
  }

  id(): number {
    const v = this.idAt(this.pos);
    this.pos += this.idSize;
    return v;
  }

  /** The identifier at a buffer position, without moving. */
  idAt(at: number): number {
    if (this.idSize === 4) return this.view.getUint32(at);
    return this.view.getUint32(at) * 4294967296 + this.view.getUint32(at + 4);
  }

  skip(n: number): void {
    this.pos += n;
  }
}

/** Thrown by a read that needs bytes not yet in the window; the parser waits for the next chunk. */
export class NeedMore extends Error {}

/** Throws NeedMore unless the window holds n more bytes. */
export function need(c: Cursor, n: number): void {
  if (!c.has(n)) throw new NeedMore();
}

export function hex(n: number): string {
  return n.toString(16).padStart(2, '0');
}
