import { describe, expect, it } from 'vitest';
import { memdoctor, testEnv } from './spawn-helpers.ts';

/** A real dump from a live JDK 17 JVM (test/fixtures/heap-dumps/SOURCES.md): 68.5 MB decompressed. */
const DUMP = 'test/fixtures/heap-dumps/static-cache-oom.hprof.gz';

describe('memdoctor diagnose: a heap dump under MEMDOCTOR_HEAP_DUMP_BUDGET', () => {
  it('past the budget: exit 2, what it would need, the setting to raise and how to run it elsewhere', async () => {
    const run = memdoctor(['diagnose', DUMP], testEnv({ MEMDOCTOR_HEAP_DUMP_BUDGET: '200m' }));
    expect(await run.end()).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(
      /^memdoctor: test\/fixtures\/heap-dumps\/static-cache-oom\.hprof\.gz: this heap dump is over 16 MiB decompressed \(the read stopped there; the rest of it needs more\), so its analysis would need at least \d+ MiB of memory, over the budget of 200 MiB \(MEMDOCTOR_HEAP_DUMP_BUDGET\)\. On a machine with that much memory free, raise it: MEMDOCTOR_HEAP_DUMP_BUDGET=1g memdoctor diagnose \S+\. Or copy the dump to a bigger machine .* run `npx memdoctor diagnose \S+` there/,
    );
  });

  it('the default budget reads it; stderr piped gets its notes and no progress line', async () => {
    const run = memdoctor(['diagnose', DUMP], testEnv());
    expect(await run.end()).toBe(0);
    expect(run.stderr).toContain('dominator: java.util.HashMap retains 61.5 MB');
    expect(run.stderr).not.toContain('\r');
    expect(run.stderr).not.toContain('\u001b[K');
    expect(run.stderr).not.toContain('decompressed so far');
  });
});
