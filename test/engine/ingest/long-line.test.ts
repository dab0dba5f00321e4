import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type BlockJob, collectBlock } from '../../../src/engine/blocks.ts';
import { triggerScanner } from '../../../src/engine/collector.ts';
import { diagnoseStream } from '../../../src/engine/index.ts';
import { MAX_LINE_CHARS } from '../../../src/engine/ingest/lines.ts';
import {
  CONTEXT_CHARS,
  carryLimit,
  keepOfLongLine,
  visibleLine,
} from '../../../src/engine/ingest/long-line.ts';
import { loadPlaybooks } from '../../../src/playbooks/load.ts';
import { sliced } from './read.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const playbooks = loadPlaybooks(join(ROOT, 'playbooks'));
const scanner = triggerScanner();
// The JVM's own wording (the jvm-oom playbook's fixtures).
const HEAP_OOM = 'java.lang.OutOfMemoryError: Java heap space';
const PREFIX = '2024-03-01 10:13:57,586 ERROR payload: ';

/** A log whose second line is `size` bytes of data with the OOM message at its end. */
function logWithLongLine(size: number): Buffer {
  const data = 'a'.repeat(size - PREFIX.length - HEAP_OOM.length);
  return Buffer.from(`INFO starting\n${PREFIX}${data}${HEAP_OOM}\nINFO stopped\n`);
}

/** The same reading on this thread that a block worker does, through structuredClone. */
const offload = async (job: BlockJob) => structuredClone(collectBlock(structuredClone(job)));

describe('a line longer than the engine reads', () => {
  it('keeps a short line, and the start of a long one that holds a message there', () => {
    expect(visibleLine(HEAP_OOM, MAX_LINE_CHARS, scanner)).toBe(HEAP_OOM);
    const long = `${HEAP_OOM} ${'b'.repeat(MAX_LINE_CHARS * 2)}`;
    expect(visibleLine(long, MAX_LINE_CHARS, scanner)).toBe(long.slice(0, MAX_LINE_CHARS));
  });

  it('reads the part around a message past the cut, with the context before it', () => {
    const line = `${'b'.repeat(MAX_LINE_CHARS * 3)}${HEAP_OOM} tail`;
    const seen = visibleLine(line, MAX_LINE_CHARS, scanner);
    expect(seen).toHaveLength(CONTEXT_CHARS + HEAP_OOM.length + ' tail'.length);
    expect(seen.startsWith('b'.repeat(CONTEXT_CHARS))).toBe(true);
    expect(seen).toContain(HEAP_OOM);
    // Without literals to look for, the start, as before.
    expect(visibleLine(line, MAX_LINE_CHARS, undefined)).toBe('b'.repeat(MAX_LINE_CHARS));
  });

  it('keeps, of an unfinished line, the bytes that give the same visible text', () => {
    const maxCarry = carryLimit(MAX_LINE_CHARS);
    for (const at of [MAX_LINE_CHARS + 10, maxCarry + 100, maxCarry * 5]) {
      const line = `${'c'.repeat(at)}${HEAP_OOM}${'d'.repeat(maxCarry * 3)}`;
      const kept = keepOfLongLine(Buffer.from(line), maxCarry, scanner);
      expect(kept.length).toBeLessThan(line.length);
      expect(visibleLine(kept.toString('utf8'), MAX_LINE_CHARS, scanner), `at ${at}`).toBe(
        visibleLine(line, MAX_LINE_CHARS, scanner),
      );
    }
  });

  it('finds a heap OOM after byte 16 KiB of a 50 MB line, says the line was cut, whichever reader', async () => {
    const bytes = logWithLongLine(50 * 1024 * 1024);
    const results = await Promise.all([
      diagnoseStream('big.log', sliced(bytes, 1 << 20), playbooks),
      diagnoseStream('big.log', sliced(bytes, 1 << 20), playbooks, { skim: false }),
      diagnoseStream('big.log', sliced(bytes, 1 << 20), playbooks, {
        blocks: { offload, blockBytes: 4 << 20, readHereFirst: 0 },
      }),
    ]);
    for (const [i, result] of results.entries()) {
      expect(result.cut, `reader ${i}`).toEqual({ first: 2, count: 1 });
      expect(result.report.diagnoses[0]?.playbook).toBe('jvm-oom');
      expect(result.report.diagnoses[0]?.evidence.some((e) => e.line === 2)).toBe(true);
      expect(result.cut).toEqual({ first: 2, count: 1 });
      expect(result.report.input).toEqual({ bytes: bytes.length, lines: 3 });
    }
    expect(JSON.stringify(results[1])).toBe(JSON.stringify(results[0]));
    expect(JSON.stringify(results[2])).toBe(JSON.stringify(results[0]));
  });

  it('reports no cut for lines within the limit', async () => {
    const result = await diagnoseStream(
      'small.log',
      sliced(logWithLongLine(MAX_LINE_CHARS), 4096),
      playbooks,
    );
    expect(result.cut).toBeUndefined();
    expect(result.report.diagnoses[0]?.playbook).toBe('jvm-oom');
  });
});
