import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FactCollector } from '../../../src/engine/diagnose.ts';
import { EXTRACTORS } from '../../../src/engine/extractors/registry.ts';
import { diagnoseStream } from '../../../src/engine/index.ts';
import { MAX_LINE_CHARS } from '../../../src/engine/ingest/lines.ts';
import { LineSkimmer } from '../../../src/engine/ingest/skim.ts';
import { loadPlaybooks } from '../../../src/playbooks/load.ts';
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
    return JSON.stringify(result);
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

/** Lines in the engines' own wording (every family example), and the ordinary lines around them. */
const EXAMPLES = Object.values(EXTRACTORS).flatMap((e) => (e.families ?? []).flatMap((f) => f.examples));
const ORDINARY = [
  '24/03/01 10:06:53 INFO TaskSetManager: Finished task 1906.0 in stage 35.0 (TID 97163) in 2773 ms on ip-10-0-5-194.ec2.internal (executor 3) (1906/2000)',
  '2024-03-01 10:13:57,586 INFO org.apache.hadoop.yarn.server.nodemanager.containermanager.container.ContainerImpl: Container container_e12_1700000000000_0042_01_538051 transitioned from LOCALIZED to RUNNING',
  '2024-03-01 10:21:23,014 INFO  org.apache.flink.runtime.executiongraph.ExecutionGraph [] - Source: Kafka -> Map (49/64) switched from DEPLOYING to RUNNING.',
  '24/03/01 10:47:56 INFO MapOutputTrackerMasterEndpoint: Asked to send map output locations for shuffle 24',
  '\tat org.apache.spark.scheduler.Task.run(Task.scala:141)',
  '',
  '```',
  '> quoted &gt; text',
  '\u001b[31mred\u001b[0m',
  'ümlaut Kelvin \u212Aill Dotted \u0130',
];

const line = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...EXAMPLES) },
  { weight: 4, arbitrary: fc.constantFrom(...ORDINARY) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  // A trigger past the cut is not in the line the engine reads.
  {
    weight: 1,
    arbitrary: fc.constantFrom(...EXAMPLES).map((l) => `${'x'.repeat(MAX_LINE_CHARS - 5)}${l}`),
  },
);

/** A log: lines, each repeated a few times so kinds fill up, CRLF or LF, maybe a BOM, odd bytes. */
const log = fc
  .record({
    lines: fc.array(fc.tuple(line, fc.integer({ min: 1, max: 8 })), { minLength: 1, maxLength: 40 }),
    head: fc.integer({ min: 0, max: 70 }),
    crlf: fc.boolean(),
    bom: fc.boolean(),
    invalid: fc.boolean(),
    finalNewline: fc.boolean(),
    chunk: fc.integer({ min: 1, max: 5000 }),
  })
  .map(({ lines, head, crlf, bom, invalid, finalNewline, chunk }) => {
    const body = [
      ...Array.from({ length: head }, (_, i) => ORDINARY[i % ORDINARY.length] as string),
      ...lines.flatMap(([text, times]) => Array.from({ length: times }, () => text)),
    ];
    const text = body.join(crlf ? '\r\n' : '\n') + (finalNewline ? '\n' : '');
    const bytes = Buffer.concat([
      Buffer.from(bom ? '\uFEFF' : ''),
      Buffer.from(text),
      invalid ? Buffer.from([0xe2, 0x82, 0x0a, 0xff, 0x41]) : Buffer.alloc(0),
    ]);
    return { bytes, chunk };
  });

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

  it('gives generated logs (over 50 lines, kinds filling up, any chunking) the same result', async () =>
    fc.assert(
      fc.asyncProperty(log, async ({ bytes, chunk }) => {
        expect(await outcome(bytes, chunk, true)).toBe(await outcome(bytes, chunk, false));
      }),
      { numRuns: 100 },
    ));

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
