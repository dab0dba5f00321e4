import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runRealConsole } from './console-harness.ts';

// Captured here by scripts/capture/jvm/capture.sh (test/engine/parsers/fixtures/SOURCES.md), with
// settings no earlier fixture used: other thread counts, -Xss values, collectors and log decorators.
const capture = (name: string) =>
  readFileSync(new URL(`../engine/parsers/fixtures/${name}`, import.meta.url), 'utf8').replace(/\n$/, '');

/** jvm-oom: native (5), malloc failure or killed (2), then the NMT paste. */
const JVM_OOM_TO_NMT = ['walk jvm-oom', '5', '2'];
/** flink-container-oom-killed: a physical kill (2), a JDK newer than 8u152 (2), a shell (1), the NMT paste. */
const FLINK_TO_NMT = ['walk flink-container-oom-killed', '2', '2', '1'];

describe('an NMT summary of a thread leak at the console (JDK 17: stacks commit lazily)', () => {
  it('1,519 threads of 256 KiB stacks (94 MB committed) lead jvm-oom to the thread leak', async () => {
    const out = await runRealConsole([
      ...JVM_OOM_TO_NMT,
      capture('nmt/jdk17-thread-leak-1500-xss-256k.txt'),
      '.',
    ]);
    expect(out).toContain('1519 threads, 387 MB of stack reserved, 89.5 MB committed.');
    expect(out).toContain('== Conclusion: Threads are created without a bound');
    expect(out).toContain('NMT counted 1519 live threads');
  });

  it('319 threads of 2 MiB stacks are a JVM at work: the areas look normal', async () => {
    const out = await runRealConsole([
      ...JVM_OOM_TO_NMT,
      capture('nmt/jdk17-thread-leak-300-xss-2m.txt'),
      '.',
    ]);
    expect(out).toContain('319 threads, 629 MB of stack reserved');
    expect(out).toContain('== Conclusion: Native memory outside the JVM');
  });

  it('3,019 threads of 2 MiB stacks lead flink-container-oom-killed to too many threads, not pmap', async () => {
    const out = await runRealConsole([
      ...FLINK_TO_NMT,
      capture('nmt/jdk17-thread-leak-3000-xss-2m.txt'),
      '.',
    ]);
    expect(out).toContain('== Conclusion: Too many threads');
    expect(out).not.toContain('Are glibc arenas piling up?');
  });
});

describe('a GC log of a heap leak at the console (issue 21: ZGC logs were refused)', () => {
  it('reads a ZGC log without decorators and goes on to the histogram', async () => {
    const out = await runRealConsole([
      'walk jvm-oom',
      '1',
      capture('gc-log/jdk17-zgc-leak-oom-32m-xlog-gc-none.log'),
      '.',
    ]);
    expect(out).not.toContain("only the JVM's start-up lines");
    expect(out).toMatch(
      /\(answered\) How full is the heap after collections\?: 11 GC collections \(0 full\)/,
    );
    expect(out).toContain('-- Step 3: What fills the heap?');
  });

  it('reads a Shenandoah log, whose cycles never run a full GC, the same way', async () => {
    const out = await runRealConsole([
      'walk jvm-oom',
      '1',
      capture('gc-log/jdk17-shenandoah-leak-oom-128m-xlog-gc-uptime.log'),
      '.',
    ]);
    expect(out).toContain('-- Step 3: What fills the heap?');
  });
});

describe('a GC log alone, no exception line, diagnosed at the console (issue 21 long tail)', () => {
  it('is heap exhaustion: jvm-oom, heap, and the walkthrough starts at the GC log step', async () => {
    const file = new URL(
      '../engine/parsers/fixtures/gc-log/jdk17-serial-leak-oom-32m-xlog-gc-time.log',
      import.meta.url,
    );
    const out = await runRealConsole([file.pathname, 'walk']);
    expect(out).toContain('A JVM ran out of memory  [jvm-oom');
    expect(out).toContain('Likely cause: heap');
    expect(out).toContain('(known from the facts: oom.heap-exhausted)');
    expect(out).toContain('-- Step 2: How full is the heap after collections?');
  });

  it('a healthy G1 log is not', async () => {
    const file = new URL('../engine/parsers/fixtures/gc-log/jdk17-g1-healthy-xlog-gc.log', import.meta.url);
    const out = await runRealConsole([file.pathname]);
    expect(out).toContain('No known memory problem recognised.');
    expect(out).not.toContain('A JVM ran out of memory');
  });
});
