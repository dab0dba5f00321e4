import { describe, expect, it } from 'vitest';
import { PROGRESS_FROM_BYTES, progressLine, renderProgress } from '../../../src/cli/render/progress.ts';

const MiB = 1024 * 1024;
const TTY_ENV = { TERM: 'xterm-256color' };

function terminal(isTTY: boolean) {
  const writes: string[] = [];
  return { writes, stream: { isTTY, write: (text: string) => writes.push(text) } };
}

describe('renderProgress', () => {
  it('a plain file: a bar, the whole percent and the MiB of the size', () => {
    expect(renderProgress('java_pid4242.hprof', { bytesRead: 17 * MiB, totalBytes: 68 * MiB })).toBe(
      'memdoctor: reading java_pid4242.hprof [######------------------]  25% 17 MiB of 68 MiB',
    );
    expect(renderProgress('d.hprof', { bytesRead: 0, totalBytes: 68 * MiB })).toBe(
      'memdoctor: reading d.hprof [------------------------]   0% 0 MiB of 68 MiB',
    );
  });

  it('says what comes after the read once it is whole', () => {
    expect(renderProgress('d.hprof', { bytesRead: 68 * MiB, totalBytes: 68 * MiB })).toBe(
      'memdoctor: reading d.hprof [########################] 100% 68 MiB of 68 MiB, finding what holds the heap',
    );
  });

  it('a .gz or stdin (no size up front): the decompressed MiB so far, no percent it cannot know', () => {
    expect(renderProgress('d.hprof.gz', { bytesRead: 300 * MiB + 5 })).toBe(
      'memdoctor: reading d.hprof.gz: 300 MiB decompressed so far',
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

  it('a terminal: redraws on each whole percent only, the file name only, and clears the line at the end', () => {
    const { writes, stream } = terminal(true);
    const line = progressLine('/var/dumps/java_pid1.hprof', stream, TTY_ENV);
    const total = 200 * MiB;
    for (let read = MiB / 4; read <= total; read += MiB / 4)
      line?.onRead({ bytesRead: read, totalBytes: total });
    line?.end();
    expect(writes).toHaveLength(101 + 1);
    expect(writes[0]).toBe(
      '\r\x1b[Kmemdoctor: reading java_pid1.hprof [------------------------]   0% 0 MiB of 200 MiB',
    );
    expect(writes.at(-2)).toContain('100% 200 MiB of 200 MiB');
    expect(writes.at(-1)).toBe('\r\x1b[K');
  });

  it('a short read draws nothing, not even the clearing', () => {
    const { writes, stream } = terminal(true);
    const line = progressLine('small.hprof', stream, TTY_ENV);
    line?.onRead({ bytesRead: MiB, totalBytes: PROGRESS_FROM_BYTES - 1 });
    line?.end();
    expect(writes).toEqual([]);
  });

  it('without a size, it starts once the read is long and redraws each 16 MiB', () => {
    const { writes, stream } = terminal(true);
    const line = progressLine('d.hprof.gz', stream, TTY_ENV);
    for (let read = MiB; read <= 64 * MiB; read += MiB) line?.onRead({ bytesRead: read });
    expect(writes).toEqual([
      '\r\x1b[Kmemdoctor: reading d.hprof.gz: 32 MiB decompressed so far',
      '\r\x1b[Kmemdoctor: reading d.hprof.gz: 48 MiB decompressed so far',
      '\r\x1b[Kmemdoctor: reading d.hprof.gz: 64 MiB decompressed so far',
    ]);
  });
});
