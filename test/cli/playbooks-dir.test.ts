import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ALL_COMMANDS as COMMANDS } from '../../src/memdoctor.ts';
import { TEST_REDIS_URL } from '../support/redis.ts';
import { cli } from './in-process.ts';
import { TEST_PLAYBOOKS } from './spawn-helpers.ts';

const OOM = 'java.lang.OutOfMemoryError: Java heap space\n';

/** An MCP session piped in: initialize, then the playbooks tool (the server answers before it closes). */
const MCP_LIST = [
  {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } },
  },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'playbooks', arguments: {} } },
]
  .map((m) => `${JSON.stringify(m)}\n`)
  .join('');

/**
 * Every command that reads playbooks, with a run that shows which folder it read: the test folder
 * holds one playbook, `test-walk`, that the shipped folder does not.
 */
const USES_PLAYBOOKS: Readonly<Record<string, { args: string[]; input?: string; shows: RegExp }>> = {
  diagnose: { args: ['diagnose', '-'], input: 'nothing here\n', shows: /Looked for: test-walk\./ },
  playbooks: { args: ['playbooks', 'list'], shows: /^test-walk\s+Test heap trouble\n$/ },
  walk: { args: ['walk', 'test-walk'], input: '2\n3\n', shows: /== Conclusion: No leak/ },
  // Past the playbooks, it finds no such walkthrough in memory.
  resume: { args: ['resume', 'local-console-abcdef'], shows: /kept in memory and end with the process/ },
  mcp: {
    args: ['mcp'],
    input: MCP_LIST,
    shows: /"playbooks":\[\{"id":"test-walk","title":"Test heap trouble"/,
  },
};

/** Commands that read no playbooks at all. */
const NO_PLAYBOOKS: Readonly<Record<string, string[]>> = {
  extractors: ['extractors'],
  calc: ['calc', 'spark'],
  parse: ['parse', 'list'],
};

/** Commands that read no playbooks but read Redis: they run against the test Redis. */
const NEEDS_REDIS: Readonly<Record<string, string[]>> = {
  stats: ['stats', 'T0NOBODY'],
};

describe('MEMDOCTOR_PLAYBOOKS_DIR', () => {
  beforeEach(() => {
    vi.stubEnv('REDIS_URL', '');
    vi.stubEnv('OPENAI_API_KEY', '');
    vi.stubEnv('LOG_LEVEL', 'silent');
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('every command is in one of the tables', () => {
    // serve reads the playbooks inside startSlack, which test/slack/start.test.ts drives; alerts reads
    // a routing file and connectors.yaml, never a playbook (test/alerts/test-command.test.ts).
    expect(Object.keys(COMMANDS).sort()).toEqual(
      [
        ...Object.keys(USES_PLAYBOOKS),
        ...Object.keys(NO_PLAYBOOKS),
        ...Object.keys(NEEDS_REDIS),
        'alerts',
        'check',
        'serve',
      ].sort(),
    );
  });

  it.each(Object.entries(USES_PLAYBOOKS))('%s reads the folder it names', async (_name, run) => {
    vi.stubEnv('MEMDOCTOR_PLAYBOOKS_DIR', TEST_PLAYBOOKS);
    const { out, err } = await cli(run.args, run.input, COMMANDS);
    expect(out + err).toMatch(run.shows);
  });

  it.each(Object.entries(USES_PLAYBOOKS))('%s reads no other folder', async (_name, run) => {
    vi.stubEnv('MEMDOCTOR_PLAYBOOKS_DIR', '/nonexistent/memdoctor-playbooks');
    const { code, err } = await cli(run.args, run.input, COMMANDS);
    expect(code).toBe(2);
    expect(err).toContain('/nonexistent/memdoctor-playbooks');
  });

  it('check reads the folder it names before it fetches anything', async () => {
    // A connector on a port nothing listens on: the playbooks are read first, so the folder's error wins.
    const dir = mkdtempSync(join(tmpdir(), 'memdoctor-check-'));
    const file = join(dir, 'connectors.yaml');
    writeFileSync(file, 'flink: { url: "http://127.0.0.1:9" }\n');
    vi.stubEnv('MEMDOCTOR_CONNECTORS', file);
    vi.stubEnv('MEMDOCTOR_PLAYBOOKS_DIR', '/nonexistent/memdoctor-playbooks');
    const { code, err } = await cli(['check', 'flink']);
    rmSync(dir, { recursive: true, force: true });
    expect(code).toBe(2);
    expect(err).toContain('/nonexistent/memdoctor-playbooks');
  });

  it('playbooks lint and test use the folder too', async () => {
    vi.stubEnv('MEMDOCTOR_PLAYBOOKS_DIR', TEST_PLAYBOOKS);
    expect((await cli(['playbooks', 'lint'])).out).toBe(`1 playbooks in ${TEST_PLAYBOOKS} are valid.\n`);
    // The test playbook has no fixtures: the error names its folder, not a shipped one.
    expect((await cli(['playbooks', 'test'])).err).toContain(
      `${TEST_PLAYBOOKS}/test-walk/fixtures/cases.yaml`,
    );
  });

  it('diagnose --json ranks the folder’s playbooks', async () => {
    vi.stubEnv('MEMDOCTOR_PLAYBOOKS_DIR', TEST_PLAYBOOKS);
    const { out } = await cli(['diagnose', '--json', '-'], OOM);
    expect(JSON.parse(out).diagnoses.map((d: { playbook: string }) => d.playbook)).toEqual(['test-walk']);
  });

  it.each(Object.entries(NEEDS_REDIS))('%s works whatever the folder', async (_name, args) => {
    vi.stubEnv('MEMDOCTOR_PLAYBOOKS_DIR', '/nonexistent/memdoctor-playbooks');
    vi.stubEnv('REDIS_URL', TEST_REDIS_URL);
    const { code, out, err } = await cli(args);
    expect(err).toBe('');
    expect(out).toBe('No outcomes recorded in this workspace yet.\n');
    expect(code).toBe(0);
  });

  it('stats says it needs REDIS_URL when none is set', async () => {
    const { code, err } = await cli(['stats', 'T1']);
    expect(code).toBe(2);
    expect(err).toContain('set REDIS_URL');
  });

  it.each(Object.entries(NO_PLAYBOOKS))('%s works whatever the folder', async (_name, args) => {
    vi.stubEnv('MEMDOCTOR_PLAYBOOKS_DIR', '/nonexistent/memdoctor-playbooks');
    const { code, err } = await cli(args);
    expect(err).toBe('');
    expect(code).toBe(0);
  });
});
