/**
 * `memdoctor mcp` driven over stdio by the MCP SDK's own client, as Claude, Cursor or VS Code drive
 * it: the tools and their schemas, the same JSON as `memdoctor diagnose --json` for a real paste
 * and a real file, and tool errors (with the CLI's messages) for what an agent gets wrong.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, ROOT } from '../cli/spawn-helpers.ts';
import { MCP_ENV, runCli } from './cli-run.ts';
import { type McpSession, startMcp, textOf } from './mcp-client.ts';

// Real inputs with their sources in each playbook's fixtures/cases.yaml: a JVM heap OOM captured
// here on JDK 17 (jvm-oom), and a Spark executor killed by YARN pasted in SparkDiary's notes (p004).
const HEAP_PASTE = join(ROOT, 'playbooks/jvm-oom/fixtures/jdk17-oom-heap-space-heap-dump.txt');
const YARN_KILL = join(ROOT, 'playbooks/spark-executor-overhead-killed/fixtures/corpus-p004.txt');

const TOOLS = [
  'calc',
  'check',
  'diagnose',
  'parse',
  'playbooks',
  'walkthrough_answer',
  'walkthrough_start',
  'walkthrough_status',
];

describe('memdoctor mcp over stdio', () => {
  let mcp: McpSession;
  beforeAll(async () => {
    assertBuilt();
    mcp = await startMcp(MCP_ENV);
  });
  afterAll(async () => {
    await mcp?.close();
  });

  it('lists every tool with a JSON Schema for its input and its output', async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOLS);
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.description?.length).toBeGreaterThan(40);
    }
    const diagnose = tools.find((t) => t.name === 'diagnose');
    expect(diagnose?.inputSchema.properties).toMatchObject({
      text: { type: 'string' },
      paths: { type: 'array', items: { type: 'string' }, maxItems: 8 },
      engine: { enum: ['glue', 'spark', 'flink', 'beam'] },
    });
    expect(Object.keys(diagnose?.outputSchema?.properties ?? {})).toEqual(
      expect.arrayContaining(['source', 'input', 'diagnoses', 'groups']),
    );
    const calc = tools.find((t) => t.name === 'calc');
    expect(calc?.inputSchema.properties?.system).toMatchObject({
      enum: ['spark', 'glue', 'flink', 'flink-slots', 'beam'],
    });
  });

  it('diagnoses a real paste with the JSON diagnose --json prints for it', async () => {
    const paste = readFileSync(HEAP_PASTE, 'utf8');
    const cli = JSON.parse(runCli(['diagnose', '--json'], paste).out);
    const result = await mcp.call('diagnose', { text: paste });
    expect(result.isError).toBeFalsy();
    // The CLI calls stdin "-"; the server calls a paste "paste". The rest is the same report.
    expect(result.structuredContent).toEqual({ ...cli, source: 'paste' });
    expect(cli.diagnoses[0]).toMatchObject({ playbook: 'jvm-oom', cause: 'heap' });
    expect(textOf(result)).toContain('line 1: java.lang.OutOfMemoryError: Java heap space');
  });

  it('diagnoses a real file by its path with the same JSON as diagnose --json FILE', async () => {
    const cli = runCli(['diagnose', '--json', YARN_KILL]);
    const result = await mcp.call('diagnose', { paths: [YARN_KILL], engine: 'spark' });
    const withHint = JSON.parse(runCli(['diagnose', '--json', '--engine', 'spark', YARN_KILL]).out);
    expect(result.structuredContent).toEqual(withHint);
    expect(JSON.parse(cli.out).diagnoses[0].playbook).toBe('spark-executor-overhead-killed');
    expect(withHint.diagnoses[0].playbook).toBe('spark-executor-overhead-killed');
    expect(textOf(result)).toMatch(/Spark executor|overhead|killed/i);
  });

  it('reads several paths as one case, as diagnose --together --json does', async () => {
    const cli = JSON.parse(runCli(['diagnose', '--together', '--json', HEAP_PASTE, YARN_KILL]).out);
    const result = await mcp.call('diagnose', { paths: [HEAP_PASTE, YARN_KILL] });
    expect(result.structuredContent).toEqual(cli);
    expect(cli.inputs.map((i: { source: string }) => i.source)).toEqual([HEAP_PASTE, YARN_KILL]);
  });

  it.each([
    ['a missing file', join(ROOT, 'no-such-dir/driver.log'), /no such file; check the path/],
    ['a binary file (the node executable)', process.execPath, /this is not a text log/],
    ['a directory', join(ROOT, 'playbooks'), /it is a directory; give the log file inside it/],
  ])('gives a tool error for %s with the message the CLI prints', async (_name, path, message) => {
    const result = await mcp.call('diagnose', { paths: [path] });
    expect(result.isError).toBe(true);
    const cli = runCli(['diagnose', '--json', path]);
    expect(cli.code).toBe(2);
    expect(textOf(result)).toMatch(message);
    expect(`${textOf(result)}\n`).toBe(cli.err);
  });

  it('gives a tool error naming the known playbooks for an unknown one, as walk does', async () => {
    const result = await mcp.call('playbooks', { id: 'no-such-playbook' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^memdoctor: no playbook "no-such-playbook"\. Known playbooks: .*jvm-oom/);
    expect(runCli(['walk', 'no-such-playbook']).err.split('\n')[0]).toBe(textOf(result));
    const started = await mcp.call('walkthrough_start', { playbook: 'no-such-playbook' });
    expect(textOf(started)).toBe(textOf(result));
  });

  it.each([
    ['an engine it does not know', 'diagnose', { text: 'x', engine: 'oracle' }, /engine/],
    ['neither text nor paths', 'diagnose', {}, /diagnose takes text \(a paste\) or paths/],
    ['a wrong type', 'diagnose', { paths: 'driver.log' }, /paths/],
    [
      'an unknown calc setting',
      'calc',
      { system: 'spark', settings: { 'spark.executor.memroy': '8g' } },
      /unknown flag --spark\.executor\.memroy\. Known flags: --spark\.executor\.memory/,
    ],
    [
      'a bad size',
      'calc',
      { system: 'spark', settings: { 'spark.executor.memory': 'lots' } },
      /takes a size like 8g or 1536m; got "lots"/,
    ],
    ['an unknown parser', 'parse', { parser: 'nope', text: 'x' }, /unknown parser "nope"\. Known: auto, /],
    ['check without connectors', 'check', { system: 'spark', id: 'app-1' }, /set MEMDOCTOR_CONNECTORS/],
    [
      'an unknown walkthrough',
      'walkthrough_answer',
      { id: 'local-console-abcdef', answer: '1' },
      /no walkthrough "local-console-abcdef"/,
    ],
  ])('answers %s with a tool error and keeps serving', async (_name, tool, args, message) => {
    const result = await mcp.call(tool, args);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(message);
    const { tools } = await mcp.client.listTools();
    expect(tools).toHaveLength(TOOLS.length);
  });

  it('computes a Spark budget with the JSON calc --json prints', async () => {
    const settings = { 'spark.executor.memory': '8g', 'spark.executor.cores': 4 };
    const result = await mcp.call('calc', { system: 'spark', settings });
    const cli = runCli([
      'calc',
      'spark',
      '--json',
      '--spark.executor.memory',
      '8g',
      '--spark.executor.cores',
      '4',
    ]);
    expect(result.structuredContent).toEqual(JSON.parse(cli.out));
    expect(textOf(result)).toContain('container total');
  });

  it('parses a real GC log by its path with the JSON parse --json prints', async () => {
    const log = join(ROOT, 'test/engine/parsers/fixtures/gc-log/jdk17-g1-leak-oom-xlog-gc.log');
    const result = await mcp.call('parse', { parser: 'auto', path: log });
    expect(result.structuredContent).toEqual(JSON.parse(runCli(['parse', 'auto', '--json', log]).out));
    expect(result.structuredContent).toMatchObject({ format: 'gc-log' });
  });

  it('lists the playbooks and serves each as a resource', async () => {
    const listed = await mcp.call('playbooks', {});
    const ids = (listed.structuredContent as { playbooks: { id: string }[] }).playbooks.map((p) => p.id);
    expect(ids).toEqual(
      runCli(['playbooks', 'list'])
        .out.trim()
        .split('\n')
        .map((l) => l.split(/\s+/)[0]),
    );
    const { resources } = await mcp.client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(
      expect.arrayContaining(ids.map((id) => `memdoctor://playbooks/${id}`)),
    );
    const read = await mcp.client.readResource({ uri: 'memdoctor://playbooks/jvm-oom' });
    const text = (read.contents[0] as { text: string }).text;
    expect(text).toMatch(/^# A JVM ran out of memory \(`jvm-oom`, jvm\)/);
    expect(text).toContain('## Procedure (start: `kind`)');
  });

  it('keeps the session diagnoses as resources, the newest first', async () => {
    const { resources } = await mcp.client.listResources();
    const diagnoses = resources.filter((r) => r.uri.startsWith('memdoctor://diagnoses/'));
    expect(diagnoses.length).toBeGreaterThanOrEqual(3);
    const read = await mcp.client.readResource({ uri: diagnoses[0]?.uri ?? '' });
    expect(JSON.parse((read.contents[0] as { text: string }).text)).toHaveProperty('groups');
  });

  it('wrote nothing but protocol on stdout', () => {
    expect(mcp.errors).toEqual([]);
  });
});
