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
  /** The whole allocation an owned buffer lies in, with room after it for the next chunk. */
  private spare: Uint8Array = new Uint8Array(0);
  /** A record's field bytes, read in place (see fieldsAt). */
  private readonly window = new FieldWindow(this);

  constructor(readonly idSize: number) {}

  /**
   * Adds a chunk, keeping the unread tail of the previous one. The tail and the chunk are joined in a
   * buffer of the cursor's own that grows by doubling: a record longer than a chunk (a HashMap's table
   * of millions of slots) then costs one copy of each chunk, not a copy of all it holds per chunk.
   */
  append(chunk: Uint8Array): void {
    const tail = this.available();
    if (tail === 0) {
      this.base += this.pos;
      this.buffer = chunk;
      this.owned = false;
    } else {
      this.keepTail(tail, chunk.length);
      this.spare.set(chunk, tail);
      this.buffer = this.spare.subarray(0, tail + chunk.length);
    }
    this.view = new DataView(this.buffer.buffer, this.buffer.byteOffset, this.buffer.byteLength);
    this.pos = 0;
  }

  /**
   * Copies the unread tail out of the caller's chunk: a reader may reuse a chunk's memory once the next
   * is asked for (src/file-chunks.ts does), so nothing of it may be kept past the feed that got it.
   */
  detach(): void {
    const tail = this.available();
    if (this.owned || tail === 0) return;
    this.keepTail(tail, 0);
    this.buffer = this.spare.subarray(0, tail);
    this.view = new DataView(this.buffer.buffer, this.buffer.byteOffset, this.buffer.byteLength);
    this.pos = 0;
  }

  /** Moves the unread tail to the start of the cursor's own buffer, with room for `extra` bytes after it. */
  private keepTail(tail: number, extra: number): void {
    const unread = this.buffer.subarray(this.pos, this.pos + tail);
    this.base += this.pos;
    if (tail + extra > this.spare.length) {
      const bigger = new Uint8Array(Math.max(2 * (tail + extra), 1 << 16));
      bigger.set(unread);
      this.spare = bigger;
    } else {
      this.spare.set(unread); // the same memory when the tail is already ours: set copies as memmove does
    }
    this.owned = true;
  }

  /** The identifiers of a record's field bytes from buffer position `start`, valid until the cursor moves on. */
  fieldsAt(start: number): Fields {
    this.window.start = start;
    return this.window;
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

/** Identifiers at byte offsets of one record's field (or element) bytes. */
export interface Fields {
  idAt(offset: number): number;
}

/** One reused window per cursor: an object per instance read would cost millions of allocations. */
class FieldWindow implements Fields {
  start = 0;

  constructor(private readonly cursor: Cursor) {}

  idAt(offset: number): number {
    return this.cursor.idAt(this.start + offset);
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
