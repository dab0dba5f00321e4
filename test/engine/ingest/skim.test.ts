import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FactCollector } from '../../../src/engine/collector.ts';
import { diagnoseStream } from '../../../src/engine/index.ts';
import { LineSkimmer } from '../../../src/engine/ingest/skim.ts';
import { loadPlaybooks } from '../../../src/playbooks/load.ts';
import { log, ORDINARY } from './generated-log.ts';
import { sliced } from './read.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const playbooks = loadPlaybooks(join(ROOT, 'playbooks'));

/** Everything the engine gives for the bytes, read line by line or skimmed. */
async function outcome(bytes: Uint8Array, chunk: number, skim: boolean, engine?: 'spark' | 'flink') {
  try {
    const result = await diagnoseStream('input', sliced(bytes, chunk), playbooks, {
      skim,
      ...(engine ? { engine } : {}),
    });
    // Which long lines count as cut differs by design: a skipped line was searched in full for every
    // literal, so nothing in it was lost; only lines read in part count.
    const { cut: _cut, ...same } = result;
    return JSON.stringify(same);
  } catch (error) {
    // Refused input (binary, too large) must be refused the same way by both.
    return `refused: ${String(error)}`;
  }
}

function filesUnder(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) filesUnder(path, out);
    else if (/fixtures/.test(path)) out.push(path);
  }
  return out;
}

/** A collector that counts the lines it was given to read. */
function countingCollector(): { collector: FactCollector; read: () => number } {
  const collector = new FactCollector();
  let read = 0;
  const push = collector.push.bind(collector);
  collector.push = (lines) => {
    read += lines.length;
    push(lines);
  };
  return { collector, read: () => read };
}

describe('skimming a log', () => {
  it('gives every fixture exactly the report, facts and failures of reading every line', async () => {
    const files = [...filesUnder(join(ROOT, 'playbooks')), ...filesUnder(join(ROOT, 'test'))];
    expect(files.length).toBeGreaterThan(100);
    for (const file of files) {
      const bytes = readFileSync(file);
      for (const engine of [undefined, 'spark'] as const) {
        expect(await outcome(bytes, 65536, true, engine), file).toBe(
          await outcome(bytes, 65536, false, engine),
        );
      }
    }
  });

  it(
    'gives generated logs (over 50 lines, kinds filling up, any chunking) the same result',
    async () =>
      fc.assert(
        fc.asyncProperty(log, async ({ bytes, chunk }) => {
          expect(await outcome(bytes, chunk, true)).toBe(await outcome(bytes, chunk, false));
        }),
        { numRuns: 100 },
        // Not a speed target: a generated log of 120 KB read in 2-byte chunks alone takes 9 s here (seed
        // 42), so the 100 runs vary from 3 s to over 40 s with the inputs drawn and the machine's load.
      ),
    120_000,
  );

  it('reads only the lines that can still change the answer, and counts the rest', async () => {
    const ordinary = ORDINARY[0] as string;
    const text = `${Array.from({ length: 5000 }, () => ordinary).join('\n')}\njava.lang.OutOfMemoryError: Java heap space\n`;
    const { collector, read } = countingCollector();
    const stats = { bytes: 0, lines: 0 };
    await new LineSkimmer('input', collector, stats).read(sliced(Buffer.from(text), 4096));
    collector.finish();
    expect(stats.lines).toBe(5001);
    // The first chunk is read whole (the format is not known before 50 lines); after that the
    // ordinary lines only repeat facts the book keeps in full.
    expect(read()).toBeLessThan(200);
    expect(collector.book.find('oom.java-heap').map((f) => f.line)).toEqual([5001]);
  });

  it('reads every line of a dump a parser reads (its format is known from the first lines)', async () => {
    const pmap = readFileSync(join(ROOT, 'test/engine/parsers/fixtures/pmap/jdk17-1200-threads-x.txt'));
    const { collector, read } = countingCollector();
    const stats = { bytes: 0, lines: 0 };
    await new LineSkimmer('pmap', collector, stats).read(sliced(pmap, 4096));
    expect(read()).toBe(stats.lines);
  });
});
