import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corruptedDump } from '../support/heap-dumps.ts';
import { cli } from './in-process.ts';

/** Real dumps from live JDK 17 JVMs (test/fixtures/heap-dumps/SOURCES.md); over budget: diagnose-heap-budget.test.ts. */
const DIR = 'test/fixtures/heap-dumps';

describe('memdoctor diagnose: heap dumps that cannot be read whole', () => {
  let temp: string;
  beforeAll(() => {
    temp = mkdtempSync(join(tmpdir(), 'heapsurf-cli-'));
  });
  afterAll(() => rmSync(temp, { recursive: true, force: true }));

  it.each([
    ['truncated-mid.hprof.gz', 'read to byte 33496382: the dump is cut short inside a record'],
    ['truncated-jcmd-gz1.hprof.gz', 'heap dump cut short: read to byte'],
  ])('%s: read as far as it goes, saying where it ends', async (name, said) => {
    const { code, err } = await cli(['diagnose', `${DIR}/${name}`]);
    expect(code).toBe(0);
    expect(err).toContain(said);
  });

  it('a corrupt dump: exit 2, the offset and what was expected there', async () => {
    const { bytes, offset } = corruptedDump();
    const path = join(temp, 'java_pid8.hprof');
    writeFileSync(path, bytes);
    const { code, out, err } = await cli(['diagnose', path]);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toBe(
      `memdoctor: ${path}: cannot read it: corrupt heap dump at byte ${offset}: expected a heap dump sub-record tag (0x01-0x08, 0x20-0x23 or 0xff), found 0x77\n`,
    );
  });

  it('a text file named .hprof: read as a log, and said to be no dump', async () => {
    const path = join(temp, 'java_pid9.hprof');
    writeFileSync(path, 'java.lang.OutOfMemoryError: Java heap space\n');
    const { code, err } = await cli(['diagnose', path]);
    expect(code).toBe(0);
    expect(err).toContain(`${path} is named like a heap dump but is not one`);
  });

  it('a binary file named .hprof that is no dump: exit 2, saying what it is', async () => {
    const path = join(temp, 'java_pid10.hprof');
    writeFileSync(path, Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0, 8, 0, 0, 0]));
    const { code, err } = await cli(['diagnose', path]);
    expect(code).toBe(2);
    expect(err).toMatch(/java_pid10\.hprof: this is not a text log \(/);
  });
});
