import { describe, expect, it } from 'vitest';
import { PROGRESS_FROM_BYTES, progressLine, renderProgress } from '../../../src/cli/render/progress.ts';

const MiB = 1024 * 1024;
const TTY_ENV = { TERM: 'xterm-256color' };
/** A pipe's one pass, and a file's three. */
const ONCE = { pass: 1, passes: 1, what: 'objects' } as const;
const FIRST = { pass: 1, passes: 3, what: 'objects' } as const;
const SECOND = { pass: 2, passes: 3, what: 'references' } as const;
const THIRD = { pass: 3, passes: 3, what: 'thread names' } as const;

function terminal(isTTY: boolean) {
  const writes: string[] = [];
  return { writes, stream: { isTTY, write: (text: string) => writes.push(text) } };
}

describe('renderProgress', () => {
  it('a plain file: a bar, the whole percent of its three passes, the pass and the MiB of the size', () => {
    expect(
      renderProgress('java_pid4242.hprof', { ...FIRST, bytesRead: 34 * MiB, totalBytes: 68 * MiB }),
    ).toBe(
      'memdoctor: reading java_pid4242.hprof [####--------------------]  16% pass 1 of 3 (objects), 34 MiB of 68 MiB',
    );
    expect(renderProgress('d.hprof', { ...FIRST, bytesRead: 0, totalBytes: 68 * MiB })).toBe(
      'memdoctor: reading d.hprof [------------------------]   0% pass 1 of 3 (objects), 0 MiB of 68 MiB',
    );
    expect(renderProgress('d.hprof', { ...SECOND, bytesRead: 34 * MiB, totalBytes: 68 * MiB })).toBe(
      'memdoctor: reading d.hprof [############------------]  50% pass 2 of 3 (references), 34 MiB of 68 MiB',
    );
  });

  it('says what comes after the references are read, and is full only at the end of the last pass', () => {
    expect(renderProgress('d.hprof', { ...FIRST, bytesRead: 68 * MiB, totalBytes: 68 * MiB })).toBe(
      'memdoctor: reading d.hprof [########----------------]  33% pass 1 of 3 (objects), 68 MiB of 68 MiB',
    );
    expect(renderProgress('d.hprof', { ...SECOND, bytesRead: 68 * MiB, totalBytes: 68 * MiB })).toBe(
      'memdoctor: reading d.hprof [################--------]  66% pass 2 of 3 (references), 68 MiB of 68 MiB, finding what holds the heap',
    );
    expect(renderProgress('d.hprof', { ...THIRD, bytesRead: 68 * MiB, totalBytes: 68 * MiB })).toBe(
      'memdoctor: reading d.hprof [########################] 100% pass 3 of 3 (thread names), 68 MiB of 68 MiB, finding what holds the heap',
    );
  });

  it('a .gz (no size up front): the decompressed MiB so far in its first pass, no percent it cannot know', () => {
    expect(renderProgress('d.hprof.gz', { ...FIRST, bytesRead: 300 * MiB + 5 })).toBe(
      'memdoctor: reading d.hprof.gz: pass 1 of 3 (objects), 300 MiB decompressed so far',
    );
  });

  it('stdin, read once: no passes named', () => {
    expect(renderProgress('stdin', { ...ONCE, bytesRead: 300 * MiB + 5 })).toBe(
      'memdoctor: reading stdin: 300 MiB decompressed so far',
    );
  });
});

describe('progressLine', () => {
  it('stderr piped: nothing at all', () => {
    const { writes, stream } = terminal(false);
    expect(progressLine('d.hprof', stream, TTY_ENV)).toBeUndefined();
    expect(writes).toEqual([]);
  });

  it('a dumb terminal (no cursor moves): nothing', () => {
    expect(progressLine('d.hprof', terminal(true).stream, { TERM: 'dumb' })).toBeUndefined();
  });

  it('a terminal: redraws on each whole percent of the three passes only, the file name only, and clears the line at the end', () => {
    const { writes, stream } = terminal(true);
    const line = progressLine('/var/dumps/java_pid1.hprof', stream, TTY_ENV);
    const total = 200 * MiB;
    for (const pass of [FIRST, SECOND, THIRD])
      for (let read = MiB / 4; read <= total; read += MiB / 4)
        line?.onRead({ ...pass, bytesRead: read, totalBytes: total });
    line?.end();
    // 0-33% in the first pass, 33-66% in the second, 66-100% in the third: each pass redraws as it starts.
    expect(writes).toHaveLength(34 + 34 + 35 + 1);
    expect(writes[0]).toBe(
      '\r\x1b[Kmemdoctor: reading java_pid1.hprof [------------------------]   0% pass 1 of 3 (objects), 0 MiB of 200 MiB',
    );
    expect(writes[34]).toContain(' 33% pass 2 of 3 (references), 0 MiB of 200 MiB');
    expect(writes.at(-2)).toContain('100% pass 3 of 3 (thread names), 200 MiB of 200 MiB');
    expect(writes.at(-1)).toBe('\r\x1b[K');
  });

  it('a short read draws nothing, not even the clearing', () => {
    const { writes, stream } = terminal(true);
    const line = progressLine('small.hprof', stream, TTY_ENV);
    line?.onRead({ ...FIRST, bytesRead: MiB, totalBytes: PROGRESS_FROM_BYTES - 1 });
    line?.end();
    expect(writes).toEqual([]);
  });

  it('without a size, it starts once the read is long and redraws each 16 MiB', () => {
    const { writes, stream } = terminal(true);
    const line = progressLine('d.hprof.gz', stream, TTY_ENV);
    for (let read = MiB; read <= 64 * MiB; read += MiB) line?.onRead({ ...FIRST, bytesRead: read });
    expect(writes).toEqual([
      '\r\x1b[Kmemdoctor: reading d.hprof.gz: pass 1 of 3 (objects), 32 MiB decompressed so far',
      '\r\x1b[Kmemdoctor: reading d.hprof.gz: pass 1 of 3 (objects), 48 MiB decompressed so far',
      '\r\x1b[Kmemdoctor: reading d.hprof.gz: pass 1 of 3 (objects), 64 MiB decompressed so far',
    ]);
  });
});
