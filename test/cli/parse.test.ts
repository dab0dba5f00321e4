import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.ts';
import { PARSERS } from '../../src/engine/parsers/registry.ts';

const FIXTURES = join(import.meta.dirname, '..', 'engine', 'parsers', 'fixtures');

async function cli(argv: string[], stdin: Buffer = Buffer.alloc(0)) {
  let out = '';
  let err = '';
  const code = await runCli(argv, {
    stdin: Readable.from([stdin]),
    stdout: { write: (t: string) => (out += t) },
    stderr: { write: (t: string) => (err += t) },
  });
  return { code, out, err };
}

describe('memdoctor parse', () => {
  it('detects the format and prints figures a person reads', async () => {
    const { code, out } = await cli([
      'parse',
      'auto',
      join(FIXTURES, 'pmap', 'jdk17-zlib-in-32-threads-x.txt'),
    ]);
    expect(code).toBe(0);
    expect(out).toMatch(/^pmap: 15 glibc-arena-shaped regions/);
    expect(out).toContain('verdict: arena growth likely');
    expect(out).toMatch(/arenaReservedBytes\s+960 MB \(1006632960\)/);
  });

  it('reads gzip from stdin and prints JSON', async () => {
    const gz = gzipSync(readFileSync(join(FIXTURES, 'java-version', 'codebrag-58-openjdk-8u66.txt')));
    const { code, out } = await cli(['parse', 'java-version', '--json', '-'], gz);
    expect(code).toBe(0);
    expect(JSON.parse(out)).toMatchObject({
      format: 'java-version',
      values: { major: 8, update: 66, jdk8Before152: true },
    });
  });

  it('reads a one-line JSON answer longer than 16 KiB whole when the parser is named', async () => {
    // One real TaskManager (superzhc-yarn-taskmanagers.json) thirty times, minified as Flink sends it.
    const real = JSON.parse(
      readFileSync(join(FIXTURES, 'flink-rest', 'superzhc-yarn-taskmanagers.json'), 'utf8'),
    );
    const tm = real.taskmanagers[0];
    const many = { taskmanagers: Array.from({ length: 30 }, (_, i) => ({ ...tm, id: `${tm.id}-${i}` })) };
    const { code, out, err } = await cli(
      ['parse', 'flink-rest', '--json', '-'],
      Buffer.from(JSON.stringify(many)),
    );
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(JSON.parse(out).values).toMatchObject({ taskManagers: 30, slotsTotal: 30 * tm.slotsNumber });
  });

  it('says a line was cut when `auto` cannot read a one-line JSON past 16 KiB', async () => {
    const real = readFileSync(join(FIXTURES, 'flink-rest', 'superzhc-yarn-taskmanagers.json'), 'utf8');
    const tm = JSON.parse(real).taskmanagers[0];
    const many = { taskmanagers: Array.from({ length: 30 }, () => tm) };
    const { code, err } = await cli(['parse', 'auto', '-'], Buffer.from(JSON.stringify(many)));
    expect(code).toBe(2);
    expect(err).toMatch(
      /cut off or malformed.*\(line 1 has at least 16384 characters; memdoctor reads the first 16384/,
    );
  });

  it.each([
    [['parse'], /needs a parser id/],
    [['parse', 'pmapx', 'f.txt'], /unknown parser "pmapx"/],
    [
      ['parse', 'auto', join(FIXTURES, 'nmt', 'truncated-header-only.txt')],
      /could not parse: expected "Total: reserved/,
    ],
    [
      ['parse', 'gc-log', join(FIXTURES, 'pmap', 'tencent-arena-pairs.txt')],
      /does not look like GC log output/,
    ],
  ])('fails clearly for %j', async (argv, message) => {
    const { code, err } = await cli(argv);
    expect(code).toBe(2);
    expect(err).toMatch(message);
  });

  it('lists the parsers', async () => {
    const { out } = await cli(['parse', 'list']);
    // The line parsers, and the heap dump (read by the heap analysis: parse-heap-dump.test.ts).
    expect(out.split('\n').filter(Boolean).length).toBe(Object.keys(PARSERS).length + 1);
    expect(out).toContain('flink-job-slots');
  });
});
