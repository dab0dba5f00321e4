/**
 * `memdoctor mcp` run in this process (src/memdoctor.ts builds it, as the installed command does),
 * driven by the SDK's client over a pair of pipes: every tool, resource and refusal once, so the
 * surface's own code is exercised here as well as in the spawned tests beside this file.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../cli/spawn-helpers.ts';
import { mcpInProcess } from './in-process.ts';
import { textOf } from './mcp-client.ts';

const HEAP_PASTE = join(ROOT, 'playbooks/jvm-oom/fixtures/jdk17-oom-heap-space-heap-dump.txt');
const YARN_KILL = join(ROOT, 'playbooks/spark-executor-overhead-killed/fixtures/corpus-p004.txt');
const GC_LOG = join(ROOT, 'test/engine/parsers/fixtures/gc-log/jdk17-g1-leak-oom-xlog-gc.log');
const HISTOGRAM = join(ROOT, 'test/engine/parsers/fixtures/class-histogram/jdk17-jmap-histo-live.txt');

type Session = Awaited<ReturnType<typeof mcpInProcess>>;

describe('memdoctor mcp in this process', () => {
  let mcp: Session;
  beforeAll(async () => {
    // This file runs in its own worker: the settings stay here.
    process.env.LOG_LEVEL = 'silent';
    delete process.env.REDIS_URL;
    delete process.env.MEMDOCTOR_PLAYBOOKS_DIR;
    delete process.env.MEMDOCTOR_CONNECTORS;
    mcp = await mcpInProcess();
  });
  afterAll(async () => {
    expect(await mcp.close()).toBe(0);
    expect(mcp.errors).toEqual([]);
  });

  it('names itself with the package version', () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(mcp.client.getServerVersion()).toMatchObject({ name: 'memdoctor', version });
    expect(mcp.client.getInstructions()).toMatch(/Call diagnose with the user's log/);
  });

  it('diagnoses a paste, a file and a case, and keeps each as a resource', async () => {
    const paste = await mcp.call('diagnose', { text: readFileSync(HEAP_PASTE, 'utf8') });
    expect(paste.structuredContent).toMatchObject({ source: 'paste', diagnoses: [{ playbook: 'jvm-oom' }] });
    expect(textOf(paste)).toMatch(/\(diagnosis 1: memdoctor:\/\/diagnoses\/1\)$/);
    const file = await mcp.call('diagnose', { paths: [YARN_KILL], engine: 'spark' });
    expect(file.structuredContent).toMatchObject({ source: YARN_KILL, input: { lines: 13 } });
    expect(textOf(file)).toMatch(
      /Walk through the fix step by step: walkthrough_start with playbook "spark-executor-overhead-killed"/,
    );
    const both = await mcp.call('diagnose', { paths: [HEAP_PASTE, YARN_KILL] });
    expect(textOf(both)).toMatch(/^Case 1: /);
    const nothing = await mcp.call('diagnose', { text: 'INFO all is well' });
    expect(textOf(nothing)).toMatch(/No known memory problem recognised\.\nLooked for: .*jvm-oom/);
    const listed = (await mcp.client.listResources()).resources.map((r) => r.uri);
    expect(listed.filter((u) => u.startsWith('memdoctor://diagnoses/'))).toEqual([
      'memdoctor://diagnoses/4',
      'memdoctor://diagnoses/3',
      'memdoctor://diagnoses/2',
      'memdoctor://diagnoses/1',
    ]);
    const second = await mcp.client.readResource({ uri: 'memdoctor://diagnoses/2' });
    expect(JSON.parse((second.contents[0] as { text: string }).text)).toEqual(file.structuredContent);
    await expect(mcp.client.readResource({ uri: 'memdoctor://diagnoses/99' })).rejects.toThrow(
      /no diagnosis 99 in this session/,
    );
  });

  it('refuses text and paths together, and paths it cannot read', async () => {
    const both = await mcp.call('diagnose', { text: 'x', paths: ['y'] });
    expect(textOf(both)).toBe(
      'memdoctor: diagnose takes text (a paste) or paths (log files), one of the two.',
    );
    const missing = await mcp.call('diagnose', { paths: [HEAP_PASTE, join(ROOT, 'missing.log')] });
    expect(textOf(missing)).toMatch(/missing\.log: cannot read it: no such file; check the path/);
  });

  it('parses pasted output and refuses text and path together', async () => {
    const parsed = await mcp.call('parse', { text: readFileSync(HISTOGRAM, 'utf8') });
    expect(parsed.structuredContent).toMatchObject({ format: 'class-histogram' });
    expect(textOf(parsed)).toMatch(/^class-histogram: /);
    const both = await mcp.call('parse', { text: 'x', path: HISTOGRAM });
    expect(textOf(both)).toMatch(/parse takes text .* or path/);
  });

  it('lists the calculators with their settings and runs one', async () => {
    const calc = (await mcp.client.listTools()).tools.find((t) => t.name === 'calc');
    expect(calc?.description).toMatch(/glue: .*settings .*worker-type/);
    const glue = await mcp.call('calc', { system: 'glue', settings: { 'worker-type': 'G.1X' } });
    expect(glue.structuredContent).toMatchObject({ system: 'glue' });
  });

  it('serves one playbook and refuses check without connectors', async () => {
    const one = await mcp.call('playbooks', { id: 'spark-heap-oom' });
    expect(one.structuredContent).toMatchObject({
      playbook: { id: 'spark-heap-oom', procedure: { steps: expect.any(Array) } },
    });
    expect(textOf(one)).toMatch(/^# .*\(`spark-heap-oom`, spark\)[\s\S]*## What to do/);
    const check = await mcp.call('check', { system: 'flink' });
    expect(textOf(check)).toBe(
      'memdoctor: set MEMDOCTOR_CONNECTORS to a connectors.yaml naming the APIs memdoctor may read (docs/connectors.md)',
    );
  });

  it('walks from a chosen diagnosis, reads output from a file, and aborts', async () => {
    const refused = await mcp.call('walkthrough_start', { diagnosis: 3 });
    expect(textOf(refused)).toMatch(/no diagnosis 3 of one input in this session/);
    // The last diagnosis (4) recognised nothing: it names no playbook to walk through.
    const unnamed = await mcp.call('walkthrough_start', {});
    expect(textOf(unnamed)).toMatch(/diagnosis 4 recognised no known problem, so it points to no playbook/);
    const started = await mcp.call('walkthrough_start', { diagnosis: 1 });
    const { id } = started.structuredContent as { id: string };
    expect(textOf(started)).toMatch(/\(known\) What does the error say ran out\?/);
    const wrongPath = await mcp.call('walkthrough_answer', { id, answer: 'x', path: GC_LOG });
    expect(textOf(wrongPath)).toMatch(/takes answer \(typed\) or path/);
    const gc = await mcp.call('walkthrough_answer', { id, path: GC_LOG });
    expect(gc.structuredContent).toMatchObject({ step: { id: 'histogram' }, version: 2 });
    const active = await mcp.call('walkthrough_status', {});
    expect(active.structuredContent).toMatchObject({ active: [{ id, playbook: 'jvm-oom', version: 2 }] });
    const aborted = await mcp.call('walkthrough_answer', { id, answer: 'abort' });
    expect(aborted.structuredContent).toMatchObject({ status: 'abandoned' });
    const none = await mcp.call('walkthrough_status', {});
    expect(textOf(none)).toBe('No active walkthroughs.');
  });

  it('refuses a file for a step that does not take output', async () => {
    const started = await mcp.call('walkthrough_start', { playbook: 'spark-heap-oom', diagnosis: 2 });
    const state = started.structuredContent as { id: string; step: { input?: string } };
    if (state.step.input === 'output') throw new Error('this test needs a first step without pasted output');
    const refused = await mcp.call('walkthrough_answer', { id: state.id, path: GC_LOG });
    expect(textOf(refused)).toMatch(/does not take command output; answer it with answer\./);
  });
});
