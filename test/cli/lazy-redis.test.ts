import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PATIENCE_MS } from '../support/patience.ts';
import { ROOT, TEST_PLAYBOOKS } from './spawn-helpers.ts';

const REFUSE = fileURLToPath(new URL('./fixtures/refuse-ioredis.mjs', import.meta.url));

/** The built command (dist/cli.js, as `npm ci` builds it) with every import of ioredis refused. */
function walk(env: Record<string, string>) {
  return spawnSync(process.execPath, ['--import', REFUSE, 'dist/cli.js', 'walk', 'test-walk'], {
    cwd: ROOT,
    input: '2\n3\n',
    encoding: 'utf8',
    env: { PATH: process.env.PATH, LOG_LEVEL: 'silent', MEMDOCTOR_PLAYBOOKS_DIR: TEST_PLAYBOOKS, ...env },
    timeout: PATIENCE_MS,
  });
}

describe('memdoctor walk without Redis configured', () => {
  it('walks to the conclusion without loading ioredis', () => {
    const run = walk({});
    expect(run.stderr).not.toContain('ioredis was loaded');
    expect(run.stdout).toMatch(/== Conclusion: No leak/);
    expect(run.status).toBe(0);
  });

  it('loads it when REDIS_URL is set (so the check above can fail)', () => {
    const run = walk({ REDIS_URL: 'redis://127.0.0.1:6379' });
    expect(`${run.stdout}${run.stderr}`).toContain('ioredis was loaded');
    expect(run.status).not.toBe(0);
  });
});
