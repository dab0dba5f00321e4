/**
 * `check` over MCP against a loopback fake answering YARN's real REST responses (the CLI's check
 * tests use the same fake): the same JSON as `memdoctor check yarn <app> --json`, the time of each
 * fetch aside.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cli } from '../cli/in-process.ts';
import type { RestFake } from '../connectors/fakes/rest-fake.ts';
import { YARN_APP, yarnFake } from '../connectors/fakes/systems.ts';
import { mcpInProcess } from './in-process.ts';
import { textOf } from './mcp-client.ts';

type Checked = { fetched: { fetchedAt: string }[] } & Record<string, unknown>;

/** The answer without the time of each fetch, which differs between two runs. */
function untimed(json: Checked) {
  return { ...json, fetched: json.fetched.map(({ fetchedAt: _, ...rest }) => rest) };
}

describe('check over MCP', () => {
  const fake: RestFake = yarnFake('yarn/assembled-app-killed-beyond-physical.json');
  beforeAll(async () => {
    const url = await fake.start();
    const file = join(mkdtempSync(join(tmpdir(), 'mcp-check-')), 'connectors.yaml');
    writeFileSync(file, `yarn: { url: ${url}, timeoutMs: 2000 }\n`);
    vi.stubEnv('MEMDOCTOR_CONNECTORS', file);
    vi.stubEnv('REDIS_URL', '');
    vi.stubEnv('OPENAI_API_KEY', '');
    vi.stubEnv('MEMDOCTOR_PLAYBOOKS_DIR', '');
    vi.stubEnv('LOG_LEVEL', 'silent');
  });
  afterAll(async () => {
    expect(fake.violations).toEqual([]);
    await fake.stop();
    vi.unstubAllEnvs();
  });

  it('fetches and diagnoses as memdoctor check --json does', async () => {
    const mcp = await mcpInProcess();
    try {
      const result = await mcp.call('check', { system: 'yarn', id: YARN_APP });
      expect(result.isError).toBeFalsy();
      const byCli = JSON.parse((await cli(['check', 'yarn', YARN_APP, '--json'])).out) as Checked;
      expect(byCli.fetched.length).toBeGreaterThan(0);
      expect(untimed(result.structuredContent as Checked)).toEqual(untimed(byCli));
      expect(textOf(result)).toMatch(/^fetched yarn GET \/ws\/v1\/cluster\/apps\//);
      const missing = await mcp.call('check', { system: 'yarn' });
      expect(textOf(missing)).toMatch(/^memdoctor: check yarn needs/);
    } finally {
      expect(await mcp.close()).toBe(0);
    }
  });
});
