import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

/**
 * Keeps the real heap dumps in test/fixtures/heap-dumps/ what their SOURCES.md says they are (the
 * HPROF reader's tests and its comparison with VisualVM's <dump>.reference.json rely on it): every
 * dump is listed there, whole ones walk record by record to HEAP DUMP END, the cut ones stop where
 * the capture cut them, the JVM's -gz=1 file is a series of 1 MiB gzip members, and each reference
 * JSON adds up. No Java runs here: the references were written by scripts/reference/reference.sh.
 */
const DIR = join(import.meta.dirname, '..', '..', 'fixtures', 'heap-dumps');
const SOURCES = readFileSync(join(DIR, 'SOURCES.md'), 'utf8');
const DUMPS = readdirSync(DIR)
  .filter((name) => name.endsWith('.hprof.gz'))
  .sort();
const WHOLE = DUMPS.filter((name) => !name.startsWith('truncated-'));
/** The one dump from a 32-bit JVM: 4-byte identifiers, 8-byte object headers. */
const idSizeOf = (name: string) => (name.includes('-id4') ? 4 : 8);

const HEAP_DUMP_SEGMENT = 0x1c;
const HEAP_DUMP_END = 0x2c;
const HEADER = 'JAVA PROFILE 1.0.2\0';

interface Walk {
  idSize: number;
  /** Tags of the top-level records, in order. */
  tags: number[];
  /** Where the last whole record ends. */
  end: number;
  /** Bytes the record that runs past the end still lacks (0 when the dump ends on a boundary). */
  missing: number;
}

/** Walks the top-level records (u1 tag, u4 time, u4 length, body) as far as the bytes go. */
function walk(bytes: Buffer): Walk {
  const header = bytes.subarray(0, HEADER.length).toString('latin1');
  if (header !== HEADER) throw new Error(`not an HPROF 1.0.2 header: ${JSON.stringify(header)}`);
  const idSize = bytes.readUInt32BE(HEADER.length);
  const tags: number[] = [];
  let offset = HEADER.length + 4 + 8;
  while (offset + 9 <= bytes.length) {
    const length = bytes.readUInt32BE(offset + 5);
    if (offset + 9 + length > bytes.length)
      return { idSize, tags, end: offset, missing: offset + 9 + length - bytes.length };
    tags.push(bytes[offset] ?? -1);
    offset += 9 + length;
  }
  return { idSize, tags, end: offset, missing: 0 };
}

const dump = (name: string) => gunzipSync(readFileSync(join(DIR, name)));

/** Each gzip member's FCOMMENT and inflated size, member by member (RFC 1952). */
function members(gz: Buffer): { comment: string; bytes: number }[] {
  const found: { comment: string; bytes: number }[] = [];
  let offset = 0;
  while (offset < gz.length) {
    const flags = gz[offset + 3] ?? 0;
    let at = offset + 10;
    if (flags & 4) at += 2 + gz.readUInt16LE(at);
    if (flags & 8) at = gz.indexOf(0, at) + 1;
    let comment = '';
    if (flags & 16) {
      const stop = gz.indexOf(0, at);
      comment = gz.subarray(at, stop).toString('latin1');
      at = stop + 1;
    }
    const inflated = inflateRawSync(gz.subarray(at), { info: true }) as unknown as {
      buffer: Buffer;
      engine: { bytesWritten: number };
    };
    found.push({ comment, bytes: inflated.buffer.length });
    offset = at + inflated.engine.bytesWritten + 8; // the member's CRC32 and ISIZE
  }
  return found;
}

describe('the real heap dumps (test/fixtures/heap-dumps)', () => {
  it('lists every dump in SOURCES.md with its reference, and nothing else', () => {
    expect(DUMPS.length).toBeGreaterThanOrEqual(10);
    const listed = [...SOURCES.matchAll(/^\| ([\w-]+\.hprof\.gz) \|/gm)].map((m) => m[1]).sort();
    expect(listed).toEqual(DUMPS);
    const references = readdirSync(DIR).filter((name) => name.endsWith('.reference.json'));
    expect(references.sort()).toEqual(DUMPS.map((name) => `${name}.reference.json`));
  });

  it.each(WHOLE)('%s walks from its header to HEAP DUMP END', (name) => {
    const bytes = dump(name);
    const records = walk(bytes);
    expect(records).toMatchObject({ idSize: idSizeOf(name), end: bytes.length, missing: 0 });
    expect(records.tags.at(-1)).toBe(HEAP_DUMP_END);
    expect(records.tags).toContain(HEAP_DUMP_SEGMENT);
  });

  it('truncated-boundary stops on a record boundary: no HEAP DUMP END, nothing cut', () => {
    const bytes = dump('truncated-boundary.hprof.gz');
    const records = walk(bytes);
    expect(bytes.length).toBe(33496373);
    expect(records).toMatchObject({ end: bytes.length, missing: 0 });
    expect(records.tags).not.toContain(HEAP_DUMP_END);
  });

  it('truncated-mid stops 4097 bytes into a heap dump segment of 1046292 bytes', () => {
    const bytes = dump('truncated-mid.hprof.gz');
    const records = walk(bytes);
    expect(bytes.length).toBe(33500479);
    expect(bytes[records.end]).toBe(HEAP_DUMP_SEGMENT);
    expect(bytes.length - records.end - 9).toBe(4097);
    expect(records.missing).toBe(1046292 - 4097);
  });

  it("keeps the JVM's -gz=1 file as written: eight members of at most 1 MiB, the first one's comment", () => {
    const gz = readFileSync(join(DIR, 'object-arrays-jcmd-gz1.hprof.gz'));
    const found = members(gz);
    expect(found.map((m) => m.comment)).toEqual(['HPROF BLOCKSIZE=1048576', '', '', '', '', '', '', '']);
    expect(found.map((m) => m.bytes)).toEqual([
      1048576, 1048555, 1048549, 1048565, 1048575, 1047200, 1048574, 22947,
    ]);
    expect(found.reduce((sum, m) => sum + m.bytes, 0)).toBe(7361541);
    expect(gunzipSync(gz).length).toBe(7361541); // Node's gunzip reads on past the first member
  });

  it('truncated-jcmd-gz1 is that file cut in half: gunzip fails at its end', () => {
    const whole = readFileSync(join(DIR, 'object-arrays-jcmd-gz1.hprof.gz'));
    const cut = readFileSync(join(DIR, 'truncated-jcmd-gz1.hprof.gz'));
    expect(cut.length).toBe(Math.floor(whole.length / 2));
    expect(whole.subarray(0, cut.length).equals(cut)).toBe(true);
    expect(() => gunzipSync(cut)).toThrow(/unexpected end of file/);
  });
});

interface Reference {
  dump: string;
  error?: string;
  idSize?: number;
  totalInstances?: number;
  totalShallowBytes?: number;
  histogram?: { count: number; shallowBytes: number }[];
  biggestObjects?: { retainedBytes: number; pathFromRoot: { roots?: unknown[] }[] }[];
  sizeSettingsLog?: string[];
}

const reference = (name: string) =>
  JSON.parse(readFileSync(join(DIR, `${name}.reference.json`), 'utf8')) as Reference;

describe("VisualVM's references beside them", () => {
  it.each(WHOLE)('%s: the histogram adds up to the totals and the header size follows the ids', (name) => {
    const ref = reference(name);
    expect(ref.dump).toBe(name);
    expect(ref.error).toBeUndefined();
    expect(ref.idSize).toBe(idSizeOf(name));
    const histogram = ref.histogram ?? [];
    expect(histogram.reduce((sum, c) => sum + c.count, 0)).toBe(ref.totalInstances);
    expect(histogram.reduce((sum, c) => sum + c.shallowBytes, 0)).toBe(ref.totalShallowBytes);
    const bytes = histogram.map((c) => c.shallowBytes);
    expect(bytes).toEqual([...bytes].sort((a, b) => b - a));
    // 64-bit: 8-byte ids, 4-byte references guessed (compressed oops): 12; 32-bit: 4 + 4 = 8
    expect(ref.sizeSettingsLog).toContain(`MinimumInstanceSize computed as ${idSizeOf(name) + 4}`);
    const retained = (ref.biggestObjects ?? []).map((o) => o.retainedBytes);
    expect(retained).toHaveLength(20);
    expect(retained).toEqual([...retained].sort((a, b) => b - a));
    for (const object of ref.biggestObjects ?? [])
      expect(object.pathFromRoot[0]?.roots?.length).toBeGreaterThan(0);
  });

  it.each(DUMPS.filter((name) => name.startsWith('truncated-')))('%s: VisualVM refused it', (name) => {
    expect(reference(name).error).toBe('java.io.IOException: Invalid segment 0');
  });
});
