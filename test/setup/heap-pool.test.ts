import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diagnoseHeapDumpFile } from '../../src/diagnosis/heap-dump-file.ts';
import { loadPlaybooks } from '../../src/playbooks/load.ts';
import { HeapPool } from '../../src/setup/heap-pool.ts';

/** Real dumps from live JDK 17 JVMs: test/fixtures/heap-dumps/SOURCES.md. */
const DIR = 'test/fixtures/heap-dumps';
const playbooks = loadPlaybooks();

describe('the heap dump thread', () => {
  let pool: HeapPool;
  let temp: string;
  beforeAll(() => {
    pool = new HeapPool({ playbooks, budgetBytes: 2 * 1024 ** 3 });
    temp = mkdtempSync(join(tmpdir(), 'heapsurf-pool-'));
  });
  afterAll(async () => {
    await pool.close();
    rmSync(temp, { recursive: true, force: true });
  });

  it('gives the same diagnosis as the analysis on this thread', async () => {
    const path = join(temp, 'dump');
    copyFileSync(`${DIR}/local-variable-oom.hprof.gz`, path);
    const job = { source: 'java_pid7.hprof.gz', path };
    const threaded = await pool.run(job);
    const here = await diagnoseHeapDumpFile(job, playbooks);
    expect(JSON.stringify(threaded)).toBe(JSON.stringify(here));
    expect(threaded.report.diagnoses[0]?.playbook).toBe('jvm-oom');
  });

  it('is full once one dump is read and maxQueue wait, and refuses the next as busy', async () => {
    const small = new HeapPool({ playbooks, budgetBytes: 2 * 1024 ** 3, maxQueue: 0 });
    try {
      const path = join(temp, 'queued');
      copyFileSync(`${DIR}/peak-no-leak-all.hprof.gz`, path);
      expect(small.full).toBe(false);
      const first = small.run({ source: 'a.hprof.gz', path });
      expect(small.full).toBe(true);
      await expect(small.run({ source: 'b.hprof.gz', path })).rejects.toThrow('memdoctor is busy');
      await first;
      expect(small.full).toBe(false);
    } finally {
      await small.close();
    }
  });

  it('brings the refusal of a non-dump back as the error it was', async () => {
    const path = join(temp, 'notes.hprof');
    copyFileSync('test/fixtures/heap-dumps/SOURCES.md', path);
    await expect(pool.run({ source: 'notes.hprof', path })).rejects.toMatchObject({
      code: 'INPUT_UNREADABLE',
      message: expect.stringContaining('notes.hprof: cannot read it: it is not a Java heap dump'),
    });
  });

  it('brings the budget refusal back, with the setting to raise', async () => {
    const path = join(temp, 'big');
    copyFileSync(`${DIR}/static-cache-oom.hprof.gz`, path);
    await expect(
      pool.run({ source: 'big.hprof.gz', path, budgetBytes: 170 * 1024 ** 2 }),
    ).rejects.toMatchObject({
      code: 'INPUT_TOO_LARGE',
      message: expect.stringMatching(
        /big\.hprof\.gz: this heap dump is over .* decompressed .*MEMDOCTOR_HEAP_DUMP_BUDGET/,
      ),
    });
  });
});
