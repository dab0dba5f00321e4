import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { NOT_A_HEAP_DUMP } from '../../src/diagnosis/heap-dump.ts';
import { cli } from './in-process.ts';

/** Real dumps of live JDK 17 JVMs: test/fixtures/heap-dumps/SOURCES.md. */
const DUMPS = resolve('test/fixtures/heap-dumps');

describe('memdoctor walk: the dump step takes a heap dump by its path', () => {
  beforeAll(() => {
    // This file runs in its own worker, so the change stays here: the shipped playbooks.
    delete process.env.MEMDOCTOR_PLAYBOOKS_DIR;
    delete process.env.REDIS_URL;
  });

  it('reads the dump typed at the step and concludes on its suspect', async () => {
    // 6: "The heap, and a heap dump of it is at hand".
    const { code, out } = await cli(['walk', 'jvm-oom'], `6\n${DUMPS}/threadlocal-leak.hprof.gz\n`);
    expect(code).toBe(0);
    expect(out).toContain('Type the path of the heap dump');
    expect(out).toMatch(
      /What holds the heap\?: .*threadlocal-leak\.hprof\.gz: java\.lang\.Thread retains 4\.71 MB/,
    );
    expect(out).toContain('== Conclusion: ThreadLocal values kept by pooled threads');
  }, 60_000);

  it('refuses a file that is not a dump and stays at the step; skip goes on without one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'md-walk-dump-'));
    const log = join(dir, 'gc.log');
    writeFileSync(log, '[0.010s][info][gc] Using G1\n');
    try {
      const { code, out } = await cli(['walk', 'jvm-oom'], `6\n${log}\n${dir}/missing.hprof\nskip\n`);
      expect(code).toBe(0);
      expect(out).toContain(`cannot read it: ${NOT_A_HEAP_DUMP}`);
      expect(out).toContain(`no such file: ${dir}/missing.hprof`);
      expect(out).toContain('== Conclusion: Something keeps adding objects to the heap');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('--from a dump answers the walkthrough from its diagnosis, the holder named', async () => {
    const { code, out } = await cli(['walk', 'jvm-oom', '--from', `${DUMPS}/static-cache-oom.hprof.gz`], '');
    expect(code).toBe(0);
    expect(out).toContain('== Conclusion: A leak held by java.util.HashMap');
  }, 60_000);
});
