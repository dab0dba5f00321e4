/**
 * Writes small HPROF files for edge cases real JVMs here cannot produce (4-byte identifiers: only a
 * 32-bit JVM writes them, and this machine has only amd64 JDKs). Laid out as OpenJDK's heapDumper.cpp
 * lays a dump out: header, UTF8, LOAD CLASS, STACK FRAME/TRACE, HEAP DUMP SEGMENTs, HEAP DUMP END.
 * Beside the real dumps in test/fixtures/heap-dumps, never instead of them.
 */
export class HprofWriter {
  private readonly bytes: number[] = [];
  private segment: number[] | undefined;
  private nextSymbol = 1;
  private readonly symbols = new Map<string, number>();

  constructor(readonly idSize: 4 | 8) {
    for (const c of 'JAVA PROFILE 1.0.2') this.bytes.push(c.charCodeAt(0));
    this.bytes.push(0);
    this.u4(this.bytes, idSize);
    this.u4(this.bytes, 0);
    this.u4(this.bytes, 0);
  }

  /** A UTF8 record for the text (once), returning its symbol id. */
  symbol(text: string): number {
    const known = this.symbols.get(text);
    if (known !== undefined) return known;
    const id = 0x1000 + this.nextSymbol++;
    const body: number[] = [];
    this.id(body, id);
    for (const b of new TextEncoder().encode(text)) body.push(b);
    this.record(0x01, body);
    this.symbols.set(text, id);
    return id;
  }

  loadClass(serial: number, classId: number, vmName: string): void {
    const name = this.symbol(vmName);
    const body: number[] = [];
    this.u4(body, serial);
    this.id(body, classId);
    this.u4(body, 0);
    this.id(body, name);
    this.record(0x02, body);
  }

  frame(
    frameId: number,
    method: string,
    signature: string,
    sourceFile: string,
    classSerial: number,
    line: number,
  ): void {
    const body: number[] = [];
    this.id(body, frameId);
    this.id(body, this.symbol(method));
    this.id(body, this.symbol(signature));
    this.id(body, this.symbol(sourceFile));
    this.u4(body, classSerial);
    this.u4(body, line >>> 0);
    this.record(0x04, body);
  }

  trace(serial: number, threadSerial: number, frameIds: number[]): void {
    const body: number[] = [];
    this.u4(body, serial);
    this.u4(body, threadSerial);
    this.u4(body, frameIds.length);
    for (const f of frameIds) this.id(body, f);
    this.record(0x05, body);
  }

  startSegment(): void {
    this.segment = [];
  }

  rootStickyClass(classId: number): void {
    this.sub(0x05, (b) => this.id(b, classId));
  }

  rootThread(threadId: number, threadSerial: number, traceSerial: number): void {
    this.sub(0x08, (b) => {
      this.id(b, threadId);
      this.u4(b, threadSerial);
      this.u4(b, traceSerial);
    });
  }

  rootJavaFrame(objectId: number, threadSerial: number, frame: number): void {
    this.sub(0x03, (b) => {
      this.id(b, objectId);
      this.u4(b, threadSerial);
      this.u4(b, frame);
    });
  }

  classDump(
    classId: number,
    superId: number,
    statics: { name: string; type: number; value: number }[],
    fields: { name: string; type: number }[],
  ): void {
    this.sub(0x20, (b) => {
      this.id(b, classId);
      this.u4(b, 0);
      this.id(b, superId);
      for (let i = 0; i < 5; i++) this.id(b, 0);
      this.u4(b, 0);
      b.push(0, 0);
      this.u2(b, statics.length);
      for (const s of statics) {
        this.id(b, this.symbol(s.name));
        b.push(s.type);
        if (s.type === 2) this.id(b, s.value);
        else this.u4(b, s.value);
      }
      this.u2(b, fields.length);
      for (const f of fields) {
        this.id(b, this.symbol(f.name));
        b.push(f.type);
      }
    });
  }

  /** An instance whose fields are all references (type 2), in the class's dump order. */
  instance(objectId: number, classId: number, refs: number[]): void {
    this.sub(0x21, (b) => {
      this.id(b, objectId);
      this.u4(b, 0);
      this.id(b, classId);
      this.u4(b, refs.length * this.idSize);
      for (const r of refs) this.id(b, r);
    });
  }

  objectArray(objectId: number, classId: number, elements: number[]): void {
    this.sub(0x22, (b) => {
      this.id(b, objectId);
      this.u4(b, 0);
      this.u4(b, elements.length);
      this.id(b, classId);
      for (const e of elements) this.id(b, e);
    });
  }

  byteArray(objectId: number, content: Uint8Array): void {
    this.sub(0x23, (b) => {
      this.id(b, objectId);
      this.u4(b, 0);
      this.u4(b, content.length);
      b.push(8);
      for (const x of content) b.push(x);
    });
  }

  endSegment(): void {
    const body = this.segment as number[];
    this.segment = undefined;
    this.record(0x1c, body);
  }

  end(): Uint8Array {
    this.record(0x2c, []);
    return Uint8Array.from(this.bytes);
  }

  private sub(tag: number, write: (b: number[]) => void): void {
    const b = this.segment as number[];
    b.push(tag);
    write(b);
  }

  private record(tag: number, body: number[]): void {
    this.bytes.push(tag);
    this.u4(this.bytes, 0);
    this.u4(this.bytes, body.length);
    for (const x of body) this.bytes.push(x);
  }

  private id(b: number[], value: number): void {
    if (this.idSize === 8) this.u4(b, Math.floor(value / 4294967296));
    this.u4(b, value >>> 0);
  }

  private u4(b: number[], v: number): void {
    b.push((v >>> 24) & 0xff, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff);
  }

  private u2(b: number[], v: number): void {
    b.push((v >>> 8) & 0xff, v & 0xff);
  }
}
