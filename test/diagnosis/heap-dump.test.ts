import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/diagnosis/index.ts';
import { fileChunks } from '../../src/file-chunks.ts';
import { loadPlaybooks } from '../../src/playbooks/load.ts';

/** Real dumps from live JDK 17 JVMs: test/fixtures/heap-dumps/SOURCES.md. */
const DIR = 'test/fixtures/heap-dumps';
const playbooks = loadPlaybooks();

/** A file as the CLI gives it: read by the reader that reuses chunk memory, and seekable for a second read. */
function fileInput(name: string) {
  const path = `${DIR}/${name}`;
  return {
    source: name,
    chunks: fileChunks(path),
    seekable: { locator: path, size: 0, read: (from: number) => fileChunks(path, from) },
  };
}

describe('diagnose: a heap dump is an input like a log', () => {
  it('static cache OOM: jvm-oom, the leak branch, citing the dominator and the static field', async () => {
    const result = await diagnose(
      { input: fileInput('static-cache-oom.hprof.gz'), workspace: 'cli' },
      { playbooks },
    );
    const [d] = result.report.diagnoses;
    expect(d).toMatchObject({ playbook: 'jvm-oom', cause: 'heap-leak', title: 'A JVM ran out of memory' });
    expect(d?.evidence.map((e) => e.text)).toContain(
      'dominator: java.util.HashMap retains 61.5 MB (98.5% of the heap) via static CacheLeak.CACHE',
    );
    expect(d?.evidence.map((e) => e.text)).toContain(
      'OutOfMemoryError thrown in thread "main" at CacheLeak.main (CacheLeak.java:16)',
    );
    expect(result.report.input).toEqual({ bytes: 68525347, lines: result.notes.length - 1 });
    expect(result.heap?.suspects[0]?.className).toBe('java.util.HashMap');
  });

  it('local variable OOM: the thread and frame holding it, named from the dump', async () => {
    const result = await diagnose(
      { input: fileInput('local-variable-oom.hprof.gz'), workspace: 'cli' },
      { playbooks },
    );
    const evidence = result.report.diagnoses[0]?.evidence.map((e) => e.text) ?? [];
    expect(evidence.join('\n')).toContain(
      'via local variable in LocalListLeak.bufferBatch (LocalListLeak.java:22) of thread "ingest-worker"',
    );
  });

  it('a peak without a leak takes the peak fact, not the leak one', async () => {
    const result = await diagnose(
      { input: fileInput('peak-no-leak-all.hprof.gz'), workspace: 'cli' },
      { playbooks },
    );
    expect(result.findings.map((f) => f.kind)).toContain('heap-dump.peak');
    expect(result.findings.map((f) => f.kind)).not.toContain('heap-dump.leak');
  });

  it('a live dump of a class-loader leak (no OutOfMemoryError): jvm-oom, classloader-leak, the class and its loaders', async () => {
    const result = await diagnose(
      { input: fileInput('classloader-leak.hprof.gz'), workspace: 'cli' },
      { playbooks },
    );
    expect(result.heap?.duplicateClasses).toEqual([{ className: 'Plugin', loaders: 300 }]);
    expect(result.heap?.oomThread).toBeUndefined();
    const [d] = result.report.diagnoses;
    // The leak is what was found: the JVM has not run out, so the title does not say it has.
    expect(d).toMatchObject({
      playbook: 'jvm-oom',
      cause: 'classloader-leak',
      title: "A live JVM's heap is leaking (no OutOfMemoryError yet)",
    });
    expect(d?.evidence.map((e) => e.text)).toContain(
      'class Plugin is defined by 300 class loaders: code loaded again while the old loaders stay reachable',
    );
  });

  it('a live dump of a ThreadLocal leak: the ThreadLocalMap on the path names the holder, once for four threads', async () => {
    const result = await diagnose(
      { input: fileInput('threadlocal-leak.hprof.gz'), workspace: 'cli' },
      { playbooks },
    );
    const holders = result.findings.filter((f) => f.kind === 'heap-dump.holder');
    expect(holders.map((f) => f.values)).toEqual([{ holder: 'jdk-threadlocal' }]);
    expect(result.report.diagnoses[0]).toMatchObject({ playbook: 'jvm-oom', cause: 'threadlocal-leak' });
  });

  it('the same answer from a plain .hprof streamed with no second read (thread names then by serial)', async () => {
    const plain = gunzipSync(readFileSync(`${DIR}/static-cache-oom.hprof.gz`));
    async function* once() {
      for (let at = 0; at < plain.length; at += 1 << 20) yield plain.subarray(at, at + (1 << 20));
    }
    const result = await diagnose(
      { input: { source: 'stdin', chunks: once() }, workspace: 'cli' },
      { playbooks },
    );
    expect(result.report.diagnoses[0]).toMatchObject({ playbook: 'jvm-oom', cause: 'heap-leak' });
    expect(result.heap?.oomThread?.name).toBe('thread #1');
  });

  it('a corrupt dump is an input that cannot be read, with the offset', async () => {
    const bad = Buffer.from('JAVA PROFILE 1.0.2\0\0\0\0\x09\0\0\0\0\0\0\0\0', 'latin1');
    async function* once() {
      yield bad;
    }
    await expect(
      diagnose({ input: { source: 'x.hprof', chunks: once() }, workspace: 'cli' }, { playbooks }),
    ).rejects.toMatchObject({
      name: 'InputUnreadableError',
      message:
        'x.hprof: cannot read it: corrupt heap dump at byte 19: expected an identifier size of 4 or 8, found 9',
    });
  });
});
