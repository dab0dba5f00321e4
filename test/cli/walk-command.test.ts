import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli } from './in-process.ts';
import { TEST_PLAYBOOKS } from './spawn-helpers.ts';

describe('walk and resume verbs (in-process, memory store)', () => {
  beforeAll(() => {
    // This file runs in its own worker, so the change stays here.
    process.env.MEMDOCTOR_PLAYBOOKS_DIR = TEST_PLAYBOOKS;
    delete process.env.REDIS_URL;
  });

  it('walks a playbook from stdin to its conclusion', async () => {
    const { code, out } = await cli(['walk', 'test-walk'], '2\n3\n');
    expect(code).toBe(0);
    expect(out).toMatch(/kept in memory until you quit/);
    expect(out).toMatch(/\(answered\) Restart with sampling on: can't/);
    expect(out).toMatch(/== Conclusion: No leak/);
  });

  it('--from diagnoses a log first, so what it answers is skipped', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'md-walk-'));
    const log = join(dir, 'job.log');
    writeFileSync(log, 'java.lang.OutOfMemoryError: Java heap space\n');
    try {
      const { code, out } = await cli(['walk', 'test-walk', '--from', log], '90\n');
      expect(code).toBe(0);
      expect(out).toContain('(known) Which limit was hit?: The Java heap');
      expect(out).toContain('== Conclusion: The heap is too small');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('explains usage and unknown playbooks', async () => {
    expect((await cli(['walk'], '')).err).toMatch(/walk needs a playbook id/);
    expect((await cli(['walk', 'nope'], '')).err).toMatch(/no playbook "nope". Known playbooks: test-walk/);
    expect((await cli(['resume'], '')).err).toMatch(/resume needs the walkthrough id/);
  });

  it('says why a resumed id is not found without Redis', async () => {
    const { code, err } = await cli(['resume', 'local-console-abcdef'], '');
    expect(code).toBe(2);
    expect(err).toMatch(
      /no walkthrough "local-console-abcdef": walkthroughs are kept in memory .* set REDIS_URL/,
    );
  });
});
