import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { diagnoseStream } from '../../src/engine/index.ts';
import { selectLines } from '../../src/llm/select.ts';
import { SelectionTap } from '../../src/llm/tap.ts';
import { PLAYBOOKS } from './helpers.ts';

const LOG = Array.from({ length: 5000 }, (_, i) =>
  i % 500 === 7 ? `ERROR stage ${i} failed: executor lost, 9.5 GB used` : `INFO line ${i}`,
).join('\n');

async function* chunked(bytes: Buffer, size = 4096): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

describe('SelectionTap', () => {
  it.each([
    ['plain text', Buffer.from(LOG)],
    ['gzip', gzipSync(Buffer.from(LOG))],
  ])('selects from %s in the same pass as the engine, with the same line numbers', async (_name, bytes) => {
    const tap = new SelectionTap('test.log');
    const { report } = await diagnoseStream('test.log', tap.wrap(chunked(bytes)), PLAYBOOKS);
    const selection = await tap.selection();
    expect(report.input.lines).toBe(5000);
    expect(selection).toEqual(selectLines(LOG));
    expect(selection?.lines[0]).toEqual({
      line: 8,
      text: 'ERROR stage 7 failed: executor lost, 9.5 GB used',
    });
  });

  it('gives no selection (and does not hang) when the input is not text', async () => {
    const tap = new SelectionTap('image.png');
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.alloc(70_000),
    ]);
    await expect(diagnoseStream('image.png', tap.wrap(chunked(png)), PLAYBOOKS)).rejects.toThrow(
      /not a text log/,
    );
    expect(await tap.selection()).toBeUndefined();
  });
});
