import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseText } from '../../../src/engine/parsers/parse-text.ts';
import { yarnContainerParser } from '../../../src/engine/parsers/yarn-container.ts';

const GiB = 1024 ** 3;
const read = (file: string) =>
  readFileSync(join(import.meta.dirname, 'fixtures/yarn-container', file), 'utf8');
const parse = (text: string) => parseText('yarn-container', text);
/** The same diagnostic on one line, as YARN wrote it before a blog or a terminal wrapped it. */
const joined = (text: string) =>
  text
    .trim()
    .split('\n')
    .map((l) => l.trim())
    .join(' ');

describe('a YARN diagnostic wrapped over several lines (issue 21, item 5)', () => {
  // Quoted by a blog wrapped over four lines: "... due to: Container" / "[pid=4733,...] ... limits." /
  // "Current usage: ...". Read as the joined line reads.
  it('reads the wrapped "running beyond" message as its joined line, cited where it starts', () => {
    const text = read('grepalex-wrapped-am-beyond-physical.txt');
    expect(yarnContainerParser.detect(text.split('\n'))).toBe(true);
    const wrapped = parse(text);
    expect(wrapped.values).toEqual(parse(joined(text)).values);
    expect(wrapped.values).toMatchObject({
      resource: 'physical',
      containerId: 'container_1409135750325_48141_02_000001',
      usedBytes: 2 * GiB,
      limitBytes: 2 * GiB,
      exitStatus: 143,
    });
    expect(wrapped.facts.find((f) => f.kind === 'container.killed-memory')?.line).toBe(2);
  });

  it('reads the wrapped Spark "killed by YARN" message, whose figures are on the next line', () => {
    const text = read('oneuptime-wrapped-killed-by-yarn.txt');
    expect(yarnContainerParser.detect(text.split('\n'))).toBe(true);
    expect(parse(text).values).toEqual(parse(joined(text)).values);
    expect(parse(text).values).toMatchObject({ usedBytes: 12.5 * GiB, limitBytes: 12 * GiB });
  });

  it('does not join a start with figures more than three lines below it', () => {
    const [start, figures] = read('oneuptime-wrapped-killed-by-yarn.txt').trim().split('\n');
    const far = [start, 'a', 'b', 'c', figures].join('\n');
    expect(yarnContainerParser.detect(far.split('\n'))).toBe(false);
    expect(() => parse(far)).toThrow(/does not look like YARN container diagnostics/);
  });
});

describe('the exit status', () => {
  it('is absent, and said so, when the diagnostic carries none', () => {
    const out = parse(read('oneuptime-wrapped-killed-by-yarn.txt'));
    expect(out.values).not.toHaveProperty('exitStatus');
    expect(out.summary).toBe(
      'YARN killed the container for physical memory: 12.5 GB used of 12 GB; exit status absent.',
    );
  });

  it('is stated when the log gives one', () => {
    expect(parse(read('easyrec-21-beyond-physical.txt')).summary).toContain('; exit status -104;');
  });
});

describe("Spark's own kill reason, as YarnAllocator writes it", () => {
  // apache/spark YarnAllocator (3.x), KILLED_EXCEEDED_VMEM: the message it composes around the figures
  // it finds in YARN's diagnostics ("<MEM_REGEX> of <MEM_REGEX> virtual memory used"). Built from that
  // source, beside the real "physical" and pre-3.0 lines the fixtures hold.
  it('reads "exceeding virtual memory limits" (Spark 3.0+) as a virtual kill', () => {
    const reason =
      'Container killed by YARN for exceeding virtual memory limits. 9.6 GB of 8.4 GB virtual memory used. Consider boosting spark.executor.memoryOverhead or boosting yarn.nodemanager.vmem-pmem-ratio or disabling yarn.nodemanager.vmem-check-enabled because of YARN-4714.';
    expect(parse(reason).values).toMatchObject({ resource: 'virtual' });
  });
});
