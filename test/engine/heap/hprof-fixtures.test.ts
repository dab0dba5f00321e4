import { createReadStream, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeHeapDumpInDepth, type HeapAnalysis } from '../../../src/engine/heap/analyze.ts';
import { ObjectKind } from '../../../src/engine/heap/heap-builder.ts';

/**
 * Real dumps from live JDK 17 JVMs and VisualVM's heap library's figures for each, both from
 * test/fixtures/heap-dumps (SOURCES.md there: the programs, every command, where each cut is).
 */
const DIR = 'test/fixtures/heap-dumps';
const analyses = new Map<string, Promise<HeapAnalysis>>();

function analysis(name: string): Promise<HeapAnalysis> {
  let a = analyses.get(name);
  if (!a) {
    a = analyzeHeapDumpInDepth(() => createReadStream(`${DIR}/${name}.hprof.gz`, { highWaterMark: 1 << 20 }));
    analyses.set(name, a);
  }
  return a;
}

interface Reference {
  histogram: { classId: string; name: string; count: number; shallowBytes: number }[];
  biggestObjects: { id: string; class: string; retainedBytes: number; shallowBytes: number }[];
}

function reference(name: string): Reference {
  return JSON.parse(readFileSync(`${DIR}/${name}.hprof.gz.reference.json`, 'utf8')) as Reference;
}

const WHOLE = [
  'static-cache-oom',
  'local-variable-oom',
  'threadlocal-leak',
  'classloader-leak',
  'peak-no-leak-all',
  'object-arrays-jcmd-gz1',
];

describe('HPROF reader on real dumps, against VisualVM heap library', () => {
  it.each(WHOLE)('%s: the class histogram (every object, as VisualVM counts) is VisualVM', async (name) => {
    const { heap, graph } = await analysis(name);
    const byClass = new Map<number, { count: number; bytes: number }>();
    for (let i = 0; i < graph.n; i++) {
      if (graph.kind[i] === ObjectKind.class) continue;
      const id = heap.classes[graph.classOf[i] as number]?.id as number;
      const row = byClass.get(id) ?? { count: 0, bytes: 0 };
      row.count++;
      row.bytes += graph.shallow[i] as number;
      byClass.set(id, row);
    }
    const ref = reference(name).histogram;
    expect(ref.length).toBeGreaterThan(100);
    for (const row of ref) {
      expect({ name: row.name, ...byClass.get(Number.parseInt(row.classId.slice(2), 16)) }).toEqual({
        name: row.name,
        count: row.count,
        bytes: row.shallowBytes,
      });
    }
    expect(byClass.size).toBe(ref.length);
  });

  it.each(WHOLE)('%s: retained sizes of VisualVM 20 biggest objects are within 1%%', async (name) => {
    const { graph, retained } = await analysis(name);
    const biggest = reference(name).biggestObjects;
    expect(biggest).toHaveLength(20);
    for (const o of biggest) {
      const v = graph.index.get(Number.parseInt(o.id.slice(2), 16));
      expect(graph.shallow[v]).toBe(o.shallowBytes);
      expect(Math.abs((retained[v] as number) - o.retainedBytes)).toBeLessThanOrEqual(o.retainedBytes * 0.01);
    }
  });
});

describe('leak suspects on real dumps (Eclipse MAT rules)', () => {
  it('static cache: the HashMap via static CacheLeak.CACHE, accumulated in its table, and the OOM thread', async () => {
    const { report } = await analysis('static-cache-oom');
    expect(report.dump).toEqual({
      version: '1.0.2',
      idSize: 8,
      sizes: '64-bit, compressed oops and class pointers (assumed)',
      complete: true,
      bytesRead: 68525347,
    });
    expect(report.suspects).toHaveLength(1);
    const [s] = report.suspects;
    expect(s).toMatchObject({
      kind: 'object',
      className: 'java.util.HashMap',
      retainedBytes: 64517136,
      percent: 98.5,
    });
    expect(s?.accumulation).toMatchObject({ className: 'java.util.HashMap$Node[]', via: '.table' });
    expect(s?.summary).toBe(
      'java.util.HashMap retains 61.5 MB (98.5% of the heap) via static CacheLeak.CACHE',
    );
    expect(report.oomThread?.name).toBe('main');
    expect(report.oomThread?.frames.slice(0, 2)).toEqual([
      {
        className: 'java.lang.OutOfMemoryError',
        method: '<init>',
        sourceFile: 'OutOfMemoryError.java',
        line: 48,
      },
      { className: 'CacheLeak', method: 'main', sourceFile: 'CacheLeak.java', line: 16 },
    ]);
  });

  it('local variable: the ArrayList held by a local in LocalListLeak.bufferBatch of thread "ingest-worker"', async () => {
    const { report } = await analysis('local-variable-oom');
    const [s] = report.suspects;
    expect(s).toMatchObject({ className: 'java.util.ArrayList', retainedBytes: 30593792 });
    expect(s?.root).toMatchObject({
      kind: 'Java local',
      thread: 'ingest-worker',
      frame: { className: 'LocalListLeak', method: 'bufferBatch', line: 22 },
    });
    expect(s?.summary).toContain(
      'via local variable in LocalListLeak.bufferBatch (LocalListLeak.java:22) of thread "ingest-worker"',
    );
    expect(report.oomThread?.name).toBe('ingest-worker');
    expect(report.oomThread?.frames[1]).toMatchObject({ className: 'LocalListLeak', method: 'readRecord' });
  });

  it('ThreadLocal: four threads, each retaining its ThreadLocalMap value', async () => {
    const { report } = await analysis('threadlocal-leak');
    expect(report.suspects.map((s) => s.root?.thread).sort()).toEqual([
      'pool-worker-0',
      'pool-worker-1',
      'pool-worker-2',
      'pool-worker-3',
    ]);
    for (const s of report.suspects) {
      expect(s).toMatchObject({
        kind: 'object',
        className: 'java.lang.Thread',
        retainedBytes: 4939760,
        root: { kind: 'thread' },
      });
      expect(s.accumulation?.via).toMatch(/^\.threadLocals\.table\[\d+\]\.value\.elementData$/);
    }
    expect(report.oomThread).toBeUndefined();
  });

  it('class loader: the registry behind 300 loaders, by its static field', async () => {
    const { report } = await analysis('classloader-leak');
    const [s] = report.suspects;
    expect(s?.className).toBe('class ClassLoaderLeak');
    expect(s?.summary).toMatch(
      /^class ClassLoaderLeak retains 19\.\d MB \(95\.\d% of the heap\) via static ClassLoaderLeak\.REGISTRY$/,
    );
    expect(report.heap.classes).toBe(980);
  });

  it('peak without a leak: no single holder, garbage reported apart', async () => {
    const { report } = await analysis('peak-no-leak-all');
    expect(report.suspects.every((s) => s.kind === 'class')).toBe(true);
    expect(report.heap.unreachable.bytes).toBeGreaterThan(report.heap.bytes);
  });

  it('jcmd -gz=1: every gzip member is read (7361541 bytes, as SOURCES.md counts)', async () => {
    const { report } = await analysis('object-arrays-jcmd-gz1');
    expect(report.dump).toMatchObject({ complete: true, bytesRead: 7361541 });
    expect(report.histogram.find((r) => r.className === 'ObjectArrays$Order')?.instances).toBe(25000);
  });
});

describe('dumps cut short', () => {
  it('at a record boundary: read to the cut, which is said, with stand-in roots', async () => {
    const { report } = await analysis('truncated-boundary');
    expect(report.dump).toMatchObject({ complete: false, bytesRead: 33496373 });
    expect(report.dump.endReason).toContain('HEAP DUMP END');
    expect(report.heap.rootsMissing).toBe(true);
  });

  it('inside a record: read to the last whole sub-record before the cut', async () => {
    const { report } = await analysis('truncated-mid');
    expect(report.dump.complete).toBe(false);
    expect(report.dump.bytesRead).toBeGreaterThan(33496373);
    expect(report.dump.bytesRead).toBeLessThanOrEqual(33500479);
    expect(report.dump.endReason).toContain('cut short inside a record');
  });

  it('a -gz file cut inside a gzip member: what inflates is read', async () => {
    const { report } = await analysis('truncated-jcmd-gz1');
    expect(report.dump.complete).toBe(false);
    expect(report.heap.objects).toBeGreaterThan(10000);
  });
});

describe('a corrupt record in a real dump', () => {
  /** Offsets of the first HEAP DUMP SEGMENT and the first LOAD CLASS, walking the top-level records. */
  function landmarks(bytes: Buffer): { segment: number; loadClass: number } {
    let at = bytes.indexOf(0) + 13;
    let loadClass = -1;
    while (at < bytes.length) {
      const tag = bytes[at] as number;
      if (tag === 0x02 && loadClass < 0) loadClass = at;
      if (tag === 0x1c) return { segment: at, loadClass };
      at += 9 + bytes.readUInt32BE(at + 5);
    }
    throw new Error('no heap dump segment');
  }

  function fromBuffer(bytes: Buffer) {
    return async function* () {
      for (let at = 0; at < bytes.length; at += 1 << 20) yield bytes.subarray(at, at + (1 << 20));
    };
  }

  it('names the offset and what was expected: a sub-record tag, then a record length', async () => {
    const { gunzipSync } = await import('node:zlib');
    const { analyzeHeapDump } = await import('../../../src/engine/heap/analyze.ts');
    const dump = gunzipSync(readFileSync(`${DIR}/local-variable-oom.hprof.gz`));
    const { segment, loadClass } = landmarks(dump);

    const badTag = Buffer.from(dump);
    badTag[segment + 9] = 0x42;
    await expect(analyzeHeapDump(fromBuffer(badTag))).rejects.toMatchObject({
      name: 'HprofFormatError',
      offset: segment + 9,
      expected: 'a heap dump sub-record tag (0x01-0x08, 0x20-0x23 or 0xff)',
      found: '0x42',
    });

    const badLength = Buffer.from(dump);
    badLength.writeUInt32BE(16, loadClass + 5);
    await expect(analyzeHeapDump(fromBuffer(badLength))).rejects.toMatchObject({
      name: 'HprofFormatError',
      offset: loadClass,
    });
  });
});

describe('one pass or two', () => {
  it('a dump read once (a pipe) gives the graph and retained sizes of the two passes over a file', async () => {
    const name = 'threadlocal-leak';
    const twice = await analysis(name);
    const once = await analyzeHeapDumpInDepth(
      () => createReadStream(`${DIR}/${name}.hprof.gz`, { highWaterMark: 1 << 16 }),
      undefined,
      { readOnce: true },
    );
    expect(once.graph.n).toBe(twice.graph.n);
    expect(once.graph.start).toEqual(twice.graph.start);
    expect(once.graph.targets).toEqual(twice.graph.targets);
    expect(once.graph.labels).toEqual(twice.graph.labels);
    expect(once.retained).toEqual(twice.retained);
    // Only the thread names need the extra read: once, threads keep their serial numbers.
    const unnamed = (r: HeapAnalysis['report']) => r.suspects.map((s) => s.retainedBytes);
    expect(unnamed(once.report)).toEqual(unnamed(twice.report));
    expect(once.report.threads.every((t) => t.name.startsWith('thread #'))).toBe(true);
  });

  it('refuses a dump that is not the same file in the second pass', async () => {
    const { gunzipSync } = await import('node:zlib');
    const dump = gunzipSync(readFileSync(`${DIR}/classloader-leak.hprof.gz`));
    let reads = 0;
    const changing = async function* () {
      reads++;
      // The second read ends halfway: the objects after that point are missing.
      yield reads === 1 ? dump : dump.subarray(0, dump.length >> 1);
    };
    await expect(analyzeHeapDumpInDepth(changing)).rejects.toMatchObject({ name: 'DumpChangedError' });
  });
});
