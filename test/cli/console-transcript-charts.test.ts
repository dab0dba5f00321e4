import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runRealConsole } from './console-harness.ts';

// A real capture the GC log parser is tested on (test/engine/parsers/fixtures/SOURCES.md).
const GC_LOG = readFileSync(
  new URL(
    '../engine/parsers/fixtures/gc-log/jdk17-parallel-leak-oom-128m-xlog-gc-uptime.log',
    import.meta.url,
  ),
  'utf8',
).replace(/\n$/, '');
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("the console's transcript written to a file", () => {
  it('puts the GC log step’s chart beside it, under the name the Markdown gives it', async () => {
    dir = mkdtempSync(join(tmpdir(), 'md-transcript-'));
    const file = join(dir, 'notes', 'oom.md');
    // jvm-oom: Java heap (1), then the GC log pasted at its step.
    const out = await runRealConsole(['walk jvm-oom', '1', GC_LOG, '.', `transcript ${file}`]);
    expect(out).toContain(`transcript: ${file}`);
    const base = join(dir, 'notes', 'gc-log-gc-heap');
    expect(out).toContain(`chart: ${base}.svg ${base}.png`);
    const markdown = readFileSync(file, 'utf8');
    expect(markdown).toMatch(/\n {3}- !\[Chart: heap in use after each GC[^\n]*\]\(gc-log-gc-heap\.png\)\n/);
    expect(readFileSync(`${base}.svg`, 'utf8')).toMatch(/^<svg /);
    expect(readFileSync(`${base}.png`).subarray(0, 8)).toEqual(PNG);
    // Printed to the file, not to the terminal.
    expect(out).not.toContain('## Audit trail');
  });

  it('with nothing drawn, the transcript alone', async () => {
    dir = mkdtempSync(join(tmpdir(), 'md-transcript-'));
    const file = join(dir, 'oom.md');
    const out = await runRealConsole(['walk jvm-oom', `transcript ${file}`]);
    expect(out).toContain(`transcript: ${file}`);
    expect(out).not.toContain('chart:');
    expect(existsSync(file)).toBe(true);
  });
});
