import { randomBytes } from 'node:crypto';
import { appendFileSync, createReadStream, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { openInput, seekableInput } from '../../src/cli/input.ts';
import { ownsItsBuffer } from '../../src/engine/blocks.ts';
import { diagnoseStream } from '../../src/engine/index.ts';
import { READ_BYTES } from '../../src/file-chunks.ts';
import { loadPlaybooks } from '../../src/playbooks/load.ts';

const dir = mkdtempSync(join(tmpdir(), 'memdoctor-input-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const playbooks = loadPlaybooks();

/** A log of a few MiB whose lines cross every read's boundary, with failures spread through it. */
function log(): string {
  const lines: string[] = [];
  const ordinary =
    '24/03/01 10:06:53 INFO TaskSetManager: Finished task 1906.0 in stage 35.0 (TID 97163) in 2773 ms';
  for (let i = 0; i < 40_000; i++) {
    lines.push(`${ordinary} ${i}`);
    if (i % 9000 === 4500) lines.push('java.lang.OutOfMemoryError: Java heap space');
    if (i === 21_000) lines.push(`classpath ${'x'.repeat(READ_BYTES + 100)}`);
  }
  lines.push('Container killed by YARN for exceeding memory limits. 11.2 GB of 11 GB physical memory used.');
  return `${lines.join('\n')}\n`;
}

describe('openInput on a file', () => {
  const text = log();
  const path = join(dir, 'big.log');
  writeFileSync(path, text);

  it('gives every byte in order, in chunks none of which owns its buffer (reused buffers never move)', async () => {
    const seen: Buffer[] = [];
    let chunks = 0;
    for await (const chunk of openInput(path)) {
      chunks++;
      expect(ownsItsBuffer(chunk)).toBe(false);
      expect(chunk.length).toBeLessThanOrEqual(READ_BYTES);
      seen.push(Buffer.from(chunk));
    }
    expect(chunks).toBeGreaterThan(4);
    expect(Buffer.concat(seen).equals(Buffer.from(text))).toBe(true);
  });

  it('gives the engine the result of a stream of fresh chunks (what fs streams give), plain and gzip', async () => {
    const fresh = (file: string) => createReadStream(file, { highWaterMark: READ_BYTES });
    const plain = JSON.stringify(await diagnoseStream(path, fresh(path), playbooks));
    expect(JSON.stringify(await diagnoseStream(path, openInput(path), playbooks))).toBe(plain);
    // Lines that hardly compress, so that zlib takes several reads' worth of the .gz file.
    const noise = Array.from({ length: 60_000 }, () => randomBytes(48).toString('base64')).join('\n');
    const gz = join(dir, 'big.log.gz');
    writeFileSync(gz, gzipSync(`${noise}\n${text}`));
    const zipped = JSON.stringify(await diagnoseStream(gz, fresh(gz), playbooks));
    expect(JSON.stringify(await diagnoseStream(gz, openInput(gz), playbooks))).toBe(zipped);
    expect(zipped).toContain('"lines":100006');
    expect(plain).toContain('"lines":40006');
    expect(plain).toContain('spark-heap-oom');
  });

  it('closes the file when the reader stops early', async () => {
    for await (const _ of openInput(path)) break;
    // A second full read works: nothing was left open or half read.
    let bytes = 0;
    for await (const chunk of openInput(path)) bytes += chunk.length;
    expect(bytes).toBe(Buffer.byteLength(text));
  });
});

describe('seekableInput', () => {
  const text = log();
  const path = join(dir, 'seek.log');
  writeFileSync(path, text);

  it('reads a regular file from any offset, in chunks, to its end', async () => {
    const input = seekableInput(path);
    expect(input?.size).toBe(Buffer.byteLength(text));
    expect(input?.locator).toBe(path);
    for (const from of [0, 1, READ_BYTES - 1, READ_BYTES + 7, Buffer.byteLength(text) - 3]) {
      const parts: Uint8Array[] = [];
      for await (const chunk of input?.read(from) ?? []) parts.push(Buffer.from(chunk));
      expect(Buffer.concat(parts).equals(Buffer.from(text).subarray(from))).toBe(true);
    }
  });

  it('is none for stdin, a directory or a path that is not there (openInput says why)', () => {
    expect(seekableInput('-')).toBeUndefined();
    expect(seekableInput(dir)).toBeUndefined();
    expect(seekableInput(join(dir, 'missing.log'))).toBeUndefined();
  });

  it('refuses to read a range of a file another was renamed over (log rotation), saying what to do', async () => {
    const rotated = join(dir, 'rotated.log');
    writeFileSync(rotated, text);
    const input = seekableInput(rotated);
    writeFileSync(join(dir, 'new.log'), text);
    renameSync(join(dir, 'new.log'), rotated);
    const read = async () => {
      for await (const _chunk of input?.read(10) ?? []) break;
    };
    await expect(read()).rejects.toThrow(/rotated\.log.*renamed over it.*diagnose the rotated file/);
    // Appended to, it is the same file.
    const appended = join(dir, 'appended.log');
    writeFileSync(appended, 'first line\n');
    const grown = seekableInput(appended);
    appendFileSync(appended, 'second line\n');
    const parts: Uint8Array[] = [];
    for await (const chunk of grown?.read(0) ?? []) parts.push(Buffer.from(chunk));
    expect(Buffer.concat(parts).toString()).toBe('first line\nsecond line\n');
  });

  it('says which file could not be read when it is gone by the time a range is read', async () => {
    const gone = join(dir, 'gone.log');
    writeFileSync(gone, text);
    const input = seekableInput(gone);
    rmSync(gone);
    const read = async () => {
      for await (const _chunk of input?.read(10) ?? []) break;
    };
    await expect(read()).rejects.toThrow(/gone\.log.*no such file/);
  });
});
