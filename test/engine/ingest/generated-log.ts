import fc from 'fast-check';
import { EXTRACTORS } from '../../../src/engine/extractors/registry.ts';
import { MAX_LINE_CHARS } from '../../../src/engine/ingest/lines.ts';

/** Lines in the engines' own wording (every family example), and the ordinary lines around them. */
export const EXAMPLES = Object.values(EXTRACTORS).flatMap((e) =>
  (e.families ?? []).flatMap((f) => f.examples),
);
export const ORDINARY = [
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

/**
 * At most this many chunks per log: a 100 KB log read in chunks of 2 bytes costs seconds and meets no
 * boundary (inside a line, a character, a CRLF) that chunks of 50 bytes do not; small logs still come
 * in chunks of 1 byte. Without the cap a sixth of the logs drawn took three quarters of the time.
 */
const MAX_CHUNKS = 2000;

/** A log: lines, each repeated a few times so kinds fill up, CRLF or LF, maybe a BOM, odd bytes. */
export const log = fc
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
    return { bytes, chunk: Math.max(chunk, Math.ceil(bytes.length / MAX_CHUNKS)) };
  });
