import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseText } from '../../../src/engine/parsers/parse-text.ts';
import type { ParsedOutput } from '../../../src/engine/parsers/types.ts';
import { PATIENCE_MS } from '../../support/patience.ts';

/**
 * Keeps the NMT, pmap, class-histogram, GC-log and java-version parsers honest against the JDK
 * installed here: a small program holds a known amount of memory, the real tools describe it, and
 * the parsed figures must match what the program set up.
 */
const TOOLS = ['java', 'javac', 'jcmd', 'pmap'] as const;
const missing = TOOLS.filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0);
const SKIP = missing.length > 0;
const TITLE = SKIP
  ? `the parsers against a live JDK (skipped: ${missing.join(', ')} not on PATH)`
  : 'the parsers against a live JDK';

const MiB = 1024 ** 2;
const HEAP = 96 * MiB;
const MARKERS = 200_003;
const DIRECT_MIB = 8;

let dir = '';
let child: ChildProcess | undefined;
let specVersion = '';

function run(command: string, args: string[]): string {
  return execFileSync(command, args, {
    encoding: 'utf8',
    timeout: PATIENCE_MS,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Starts LiveHold and resolves once it has allocated and collected ("ready <java version>"). */
function start(): Promise<ChildProcess> {
  const java = spawn('java', [
    '-XX:NativeMemoryTracking=summary',
    `-Xms${HEAP / MiB}m`,
    `-Xmx${HEAP / MiB}m`,
    `-Xlog:gc:file=${join(dir, 'gc.log')}`,
    '-cp',
    dir,
    'LiveHold',
    String(MARKERS),
    String(DIRECT_MIB),
  ]);
  return new Promise((resolve, reject) => {
    let out = '';
    java.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const ready = /ready (\S+)/.exec(out);
      if (ready) {
        specVersion = ready[1] ?? '';
        resolve(java);
      }
    });
    java.on('error', reject);
    java.on('exit', (code) => reject(new Error(`LiveHold exited early (${code}): ${out}`)));
  });
}

describe.skipIf(SKIP)(TITLE, () => {
  const parsed: Record<string, ParsedOutput> = {};

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'memdoctor-live-jdk-'));
    run('javac', ['-d', dir, join(import.meta.dirname, 'live', 'LiveHold.java')]);
    child = await start();
    const pid = String(child.pid);
    parsed.nmt = parseText('nmt', run('jcmd', [pid, 'VM.native_memory', 'summary']));
    parsed.histogram = parseText('class-histogram', run('jcmd', [pid, 'GC.class_histogram']));
    parsed.pmap = parseText('pmap', run('pmap', ['-x', pid]));
    parsed.gc = parseText('gc-log', readFileSync(join(dir, 'gc.log'), 'utf8'));
    const version = spawnSync('java', ['-version'], { encoding: 'utf8' });
    parsed.version = parseText('java-version', version.stderr);
  });

  afterAll(() => {
    child?.kill('SIGKILL');
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('NMT: the heap committed is -Xms/-Xmx, the direct buffers are in Other', () => {
    const v = parsed.nmt?.values ?? {};
    expect(v.heapCommittedBytes).toBe(HEAP);
    expect(v.nonHeapCommittedBytes).toBe(Number(v.totalCommittedBytes) - HEAP);
    expect(Number(v['committedBytes.other'])).toBeGreaterThanOrEqual(DIRECT_MIB * MiB);
    expect(Number(v['committedBytes.other'])).toBeLessThan((DIRECT_MIB + 1) * MiB);
  });

  it('class histogram: every Marker the program made, and nothing else as many', () => {
    expect(parsed.histogram?.values).toMatchObject({
      complete: true,
      mostInstancesClass: 'LiveHold$Marker',
      mostInstances: MARKERS,
    });
  });

  it('pmap: the mappings span at least what NMT reserved, with no more arenas than glibc allows', () => {
    const pmap = parsed.pmap?.values ?? {};
    expect(pmap.extended).toBe(true);
    expect(Number(pmap.totalKbytes) * 1024).toBeGreaterThanOrEqual(
      Number(parsed.nmt?.values.totalReservedBytes),
    );
    // glibc caps arenas at 8 per core on 64-bit.
    expect(Number(pmap.arenaCount)).toBeLessThanOrEqual(8 * availableParallelism());
    expect(Number(pmap.totalRssBytes)).toBeGreaterThan(0);
  });

  it('GC log: the System.gc() full collection, on a heap of -Xmx, kept the Markers', () => {
    const gc = parsed.gc?.values ?? {};
    expect(gc.format).toBe('unified');
    expect(Number(gc.fullGcCount)).toBeGreaterThanOrEqual(1);
    expect(gc.heapCapacityBytes).toBe(HEAP);
    // 16 bytes is the least a Marker can take (the smallest object header and its long).
    expect(Number(gc.peakHeapAfterFullGcBytes)).toBeGreaterThanOrEqual(
      Math.floor((MARKERS * 16) / MiB) * MiB,
    );
    expect(Number(gc.peakHeapAfterFullGcBytes)).toBeLessThan(HEAP);
  });

  it('java -version: the major version the running JVM reports', () => {
    expect(parsed.version?.values.major).toBe(Number(specVersion));
  });
});
