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
    expect(out.split('\n').filter(Boolean).length).toBe(Object.keys(PARSERS).length);
    expect(out).toContain('flink-job-slots');
  });
});
