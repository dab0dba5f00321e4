import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_LINE_CHARS, textBytes } from '../../../src/engine/ingest/lines.ts';
import { InputBinaryError, InputTooLargeError, InputUnreadableError } from '../../../src/errors.ts';
import { PATIENCE_MS } from '../../support/patience.ts';
import { chunksOf, readAll, sliced } from './read.ts';

describe('readLines: plain text', () => {
  it.each([
    { text: 'a\nb\n', lines: ['a', 'b'] },
    { text: 'a\nb', lines: ['a', 'b'] },
    { text: '', lines: [] },
    { text: '\n', lines: [''] },
    { text: '\n\nx\n', lines: ['', '', 'x'] },
    { text: 'a\r\nb\r\n', lines: ['a', 'b'] },
    { text: 'a\r\nb', lines: ['a', 'b'] },
    { text: 'tab\there\n', lines: ['tab\there'] },
  ])('$text -> $lines', async ({ text, lines }) => {
    const result = await readAll(chunksOf(text));
    expect(result.lines).toEqual(lines);
    expect(result.stats).toEqual({ bytes: Buffer.byteLength(text), lines: lines.length });
  });

  it('joins a CRLF split across two chunks', async () => {
    expect((await readAll(chunksOf('first\r', '\nsecond\r\n'))).lines).toEqual(['first', 'second']);
  });

  it('decodes a UTF-8 character split across chunks', async () => {
    const bytes = Buffer.from('café\nnaïve\n', 'utf8');
    expect((await readAll(sliced(bytes, 1))).lines).toEqual(['café', 'naïve']);
  });

  it('drops a UTF-8 byte order mark', async () => {
    expect((await readAll(chunksOf('\ufeffjava.lang.OutOfMemoryError\n'))).lines).toEqual([
      'java.lang.OutOfMemoryError',
    ]);
  });

  it('gives the same lines however the bytes are chunked', () =>
    fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('\n', '\r\n', 'é', '€')), {
          maxLength: 40,
        }),
        fc.integer({ min: 1, max: 9 }),
        async (parts, size) => {
          const text = parts.join('');
          const expected =
            text.length === 0 ? [] : text.replace(/\r\n/g, '\n').replace(/\n$/, '').split('\n');
          const { lines, stats } = await readAll(sliced(Buffer.from(text, 'utf8'), size));
          expect(lines).toEqual(expected);
          expect(stats.lines).toBe(expected.length);
          expect(stats.bytes).toBe(Buffer.byteLength(text));
        },
      ),
      { numRuns: 150 },
    ));
});

describe('readLines: very long lines', () => {
  it(`cuts a line at MAX_LINE_CHARS (${MAX_LINE_CHARS}) and keeps the next line intact`, async () => {
    const long = 'x'.repeat(MAX_LINE_CHARS * 3);
    const { lines, stats } = await readAll(chunksOf(`${long}\nnext line\n`));
    expect(lines).toEqual(['x'.repeat(MAX_LINE_CHARS), 'next line']);
    expect(stats.lines).toBe(2);
  });

  it('keeps memory bounded for a 20 MB line arriving in 64 KiB chunks', async () => {
    async function* huge(): AsyncGenerator<Uint8Array> {
      const block = Buffer.alloc(64 * 1024, 'y');
      for (let i = 0; i < 320; i++) yield block;
      yield Buffer.from('\nafter\n');
    }
    const { lines, stats } = await readAll(huge());
    expect(lines.map((l) => l.length)).toEqual([MAX_LINE_CHARS, 5]);
    expect(stats.bytes).toBe(320 * 64 * 1024 + 7);
  });

  it('cuts an overlong last line without a newline', async () => {
    const { lines } = await readAll(chunksOf('z'.repeat(MAX_LINE_CHARS + 10)));
    expect(lines).toEqual(['z'.repeat(MAX_LINE_CHARS)]);
  });
});

describe('readLines: gzip', () => {
  const text = 'line one\r\nline two\nline three\n';

  it('gunzips transparently; bytes count the text, not the archive', async () => {
    const { lines, stats } = await readAll(chunksOf(gzipSync(text)));
    expect(lines).toEqual(['line one', 'line two', 'line three']);
    expect(stats).toEqual({ bytes: Buffer.byteLength(text), lines: 3 });
  });

  it('gives the gunzipped text in chunks of up to 256 KiB, not the 16 KiB of zlib by default', async () => {
    const big = 'INFO an ordinary line of a log\n'.repeat(40_000);
    const sizes: number[] = [];
    for await (const chunk of await textBytes('big.gz', chunksOf(gzipSync(big)))) sizes.push(chunk.length);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(big.length);
    expect(Math.max(...sizes)).toBe(256 * 1024);
  });

  it('gunzips when the archive arrives in tiny chunks', async () => {
    expect((await readAll(sliced(gzipSync(text), 3))).lines).toEqual(['line one', 'line two', 'line three']);
  });

  it('reads concatenated gzip members (as `cat a.gz b.gz` makes)', async () => {
    const both = Buffer.concat([gzipSync('a\n'), gzipSync('b\n')]);
    expect((await readAll(chunksOf(both))).lines).toEqual(['a', 'b']);
  });

  it('lets the source reuse a chunk of the archive once the next is taken (zlib is done with it by then)', async () => {
    const text = Array.from({ length: 30_000 }, (_, i) => `line ${i} ${(i * 7919) % 10_007}\n`).join('');
    const archive = gzipSync(text);
    // One buffer for every chunk, written over as soon as the next chunk is asked for: stricter
    // than cli/input.ts's buffers (written again two chunks later). 4 KiB: the sniff's whole head.
    async function* oneBuffer(): AsyncGenerator<Uint8Array> {
      const buffer = Buffer.alloc(4096);
      for (let at = 0; at < archive.length; at += 4096) {
        const part = archive.subarray(at, at + 4096);
        buffer.set(part);
        yield buffer.subarray(0, part.length);
        buffer.fill(0);
      }
    }
    const { lines } = await readAll(oneBuffer());
    expect(lines.join('\n')).toBe(text.slice(0, -1));
  });

  it('closes the source when the reader stops while gunzipping', async () => {
    const archive = gzipSync('INFO an ordinary line of a log\n'.repeat(200_000));
    let closed = false;
    async function* source(): AsyncGenerator<Uint8Array> {
      try {
        yield* sliced(archive, 4096);
      } finally {
        closed = true;
      }
    }
    let taken = 0;
    // The second chunk: the first is the sniffed head, handed over before the stream behind it.
    for await (const _chunk of await textBytes('big.gz', source())) if (++taken === 2) break;
    expect(taken).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(closed).toBe(true);
  });

  it('fails a truncated archive with InputUnreadableError', async () => {
    const whole = gzipSync('x'.repeat(10_000));
    await expect(readAll(chunksOf(whole.subarray(0, whole.length - 30)))).rejects.toThrow(
      InputUnreadableError,
    );
  });

  it('fails an archive with damaged data with InputUnreadableError', async () => {
    const damaged = Buffer.from(gzipSync('hello world\n'.repeat(100)));
    damaged.fill(0xff, 12, 30);
    await expect(readAll(chunksOf(damaged))).rejects.toThrow(/damaged/);
  });

  it('fails the bare gzip magic with InputUnreadableError', async () => {
    await expect(readAll(chunksOf(Buffer.from([0x1f, 0x8b])))).rejects.toThrow(InputUnreadableError);
  });

  it('refuses a gzip inside a gzip', async () => {
    await expect(readAll(chunksOf(gzipSync(gzipSync(text))))).rejects.toThrow(InputBinaryError);
  });

  it('refuses a gzipped binary file', async () => {
    await expect(readAll(chunksOf(gzipSync(Buffer.from([0, 1, 2, 3, 0, 0, 0]))))).rejects.toThrow(
      InputBinaryError,
    );
  });
});

describe('readLines: bad input', () => {
  it('refuses binary input', async () => {
    await expect(readAll(chunksOf(Buffer.from([0x41, 0x00, 0x42, 0x0a])))).rejects.toThrow(InputBinaryError);
  });

  it('names a PNG so the user knows what they uploaded', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    await expect(readAll(chunksOf(png))).rejects.toThrow(/PNG image/);
  });

  it('stops at maxBytes with InputTooLargeError', async () => {
    await expect(readAll(sliced(Buffer.alloc(10_000, 'a\n'), 1000), { maxBytes: 5000 })).rejects.toThrow(
      InputTooLargeError,
    );
  });

  it('passes a read error of the source through', async () => {
    async function* failing(): AsyncGenerator<Uint8Array> {
      yield Buffer.from('first line\n'.repeat(1000));
      throw new InputUnreadableError('test-input', 'disk went away');
    }
    await expect(readAll(failing())).rejects.toThrow(/disk went away/);
  });

  it('passes a read error of the source through while gunzipping (does not hang)', async () => {
    const archive = gzipSync(Buffer.from(Array.from({ length: 20_000 }, (_, i) => `line ${i}\n`).join('')));
    async function* failing(): AsyncGenerator<Uint8Array> {
      yield archive.subarray(0, 5000);
      throw new InputUnreadableError('test-input', 'disk went away');
    }
    const outcome = await Promise.race([
      readAll(failing()).then(
        () => 'resolved',
        (error: unknown) => (error instanceof Error ? error.message : String(error)),
      ),
      new Promise<string>((resolve) => setTimeout(() => resolve('hung'), PATIENCE_MS).unref()),
    ]);
    expect(outcome).toMatch(/disk went away/);
  });
});
