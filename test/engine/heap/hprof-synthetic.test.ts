import { describe, expect, it } from 'vitest';
import { analyzeHeapDump } from '../../../src/engine/heap/analyze.ts';
import { HprofFormatError } from '../../../src/engine/heap/format.ts';
import { HprofWriter } from './hprof-writer.ts';

const SECRET = 'hunter2-SECRET-token';
const OBJECT = 0x100;
const CLASS = 0x108;
const HOLDER = 0x110;
const BYTES = 0x118;
const OBJECTS = 0x120;
const THREAD_CLASS = 0x128;
const STRING = 0x130;

/**
 * A 32-bit-JVM-shaped dump (4-byte identifiers): class Holder's static ITEMS holds an Object[] of three
 * byte[100]; a thread "ingest-1" whose name is a Latin-1 byte[] (as JDK 9+ stores it) holds one more
 * byte[] in a local variable; one byte[] holds a secret the report must never show.
 */
function smallDump(idSize: 4 | 8): Uint8Array {
  const w = new HprofWriter(idSize);
  w.loadClass(1, OBJECT, 'java/lang/Object');
  w.loadClass(2, CLASS, 'java/lang/Class');
  w.loadClass(3, HOLDER, 'Holder');
  w.loadClass(4, BYTES, '[B');
  w.loadClass(5, OBJECTS, '[Ljava/lang/Object;');
  w.loadClass(6, THREAD_CLASS, 'java/lang/Thread');
  w.loadClass(7, STRING, 'java/lang/String');
  w.frame(0x900, 'run', '()V', 'Holder.java', 3, 42);
  w.trace(1, 1, [0x900]);
  w.startSegment();
  w.classDump(OBJECT, 0, [], []);
  w.classDump(CLASS, OBJECT, [], []);
  w.classDump(HOLDER, OBJECT, [{ name: 'ITEMS', type: 2, value: 0x2000 }], []);
  w.classDump(BYTES, OBJECT, [], []);
  w.classDump(OBJECTS, OBJECT, [], []);
  w.classDump(THREAD_CLASS, OBJECT, [], [{ name: 'name', type: 2 }]);
  w.classDump(STRING, OBJECT, [], [{ name: 'value', type: 2 }]);
  w.rootStickyClass(HOLDER);
  w.rootThread(0x3000, 1, 1);
  w.rootJavaFrame(0x2400, 1, 0);
  w.objectArray(0x2000, OBJECTS, [0x2100, 0x2200, 0x2300]);
  for (const id of [0x2100, 0x2200]) w.byteArray(id, new Uint8Array(100));
  const secret = new Uint8Array(100);
  secret.set(new TextEncoder().encode(SECRET));
  w.byteArray(0x2300, secret);
  w.byteArray(0x2400, new Uint8Array(40));
  w.instance(0x3000, THREAD_CLASS, [0x3100]);
  w.instance(0x3100, STRING, [0x3200]);
  w.byteArray(0x3200, new TextEncoder().encode('ingest-1'));
  w.endSegment();
  return w.end();
}

function source(bytes: Uint8Array, chunk = bytes.length): () => AsyncIterable<Uint8Array> {
  return async function* () {
    for (let at = 0; at < bytes.length; at += chunk) yield bytes.subarray(at, at + chunk);
  };
}

describe('a hand-built dump with 4-byte identifiers (beside the real ones)', () => {
  it('reads it with the 32-bit layout and finds the static holder', async () => {
    const report = await analyzeHeapDump(source(smallDump(4)));
    expect(report.dump).toMatchObject({ version: '1.0.2', idSize: 4, sizes: '32-bit', complete: true });
    // byte[100]: 12 + 100 rounded to 8 = 112; Object[3]: 12 + 3 * 4 = 24.
    const byteArrays = report.histogram.find((r) => r.className === 'byte[]');
    expect(byteArrays).toEqual({ className: 'byte[]', instances: 5, shallowBytes: 3 * 112 + 56 + 24 });
    // The class object (a root: a sticky class) dominates the array, as in MAT; its own size is one
    // java.lang.Class instance (no fields here: an 8-byte header).
    const top = report.suspects[0];
    expect(top?.className).toBe('class Holder');
    expect(top?.retainedBytes).toBe(8 + 24 + 3 * 112);
    expect(top?.accumulation).toMatchObject({
      className: 'java.lang.Object[]',
      retainedBytes: 24 + 3 * 112,
      via: '.ITEMS',
    });
    // The heap: 7 class objects (8 each), Object[3] 24, byte[100] x3 336, byte[40] 56, the Thread 16,
    // the String 16, its byte[8] 24: 528 bytes, of which Holder retains 368 (69.7%).
    expect(report.heap.bytes).toBe(528);
    expect(top?.summary).toBe('class Holder retains 368 B (69.7% of the heap) via static Holder.ITEMS');
  });

  it('names the thread from its String and places the local variable in its frame', async () => {
    const report = await analyzeHeapDump(source(smallDump(4)));
    expect(report.threads).toEqual([{ name: 'ingest-1', frames: 1 }]);
  });

  it('gives the same answer whatever the chunking (one byte at a time included)', async () => {
    const bytes = smallDump(8);
    const whole = await analyzeHeapDump(source(bytes));
    for (const chunk of [1, 7, 64]) expect(await analyzeHeapDump(source(bytes, chunk))).toEqual(whole);
  });

  it('never lets array content out: the secret in a byte[] is in no field of the report', async () => {
    const report = await analyzeHeapDump(source(smallDump(8)));
    expect(JSON.stringify(report)).not.toContain('SECRET');
    expect(JSON.stringify(report)).not.toContain('hunter2');
  });

  it('says where a dump cut short ends, at every cut', async () => {
    const bytes = smallDump(8);
    for (const cut of [40, 200, bytes.length - 30, bytes.length - 9]) {
      const report = await analyzeHeapDump(source(bytes.subarray(0, cut)));
      expect(report.dump.complete).toBe(false);
      expect(report.dump.bytesRead).toBeLessThanOrEqual(cut);
      expect(report.dump.endReason).toMatch(/cut short|HEAP DUMP END|before its first heap dump/);
    }
  });

  it('refuses a file that is not HPROF at byte 0, and an identifier size other than 4 or 8', async () => {
    const text = new TextEncoder().encode(
      '2026-12-07 04:00:00 INFO java.lang.OutOfMemoryError: Java heap space\n',
    );
    await expect(analyzeHeapDump(source(text))).rejects.toMatchObject({
      name: 'HprofFormatError',
      offset: 0,
    });
    const bad = smallDump(8).slice();
    bad[22] = 6;
    const error = await analyzeHeapDump(source(bad)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HprofFormatError);
    expect(error).toMatchObject({ offset: 19, expected: 'an identifier size of 4 or 8', found: '6' });
  });
});
