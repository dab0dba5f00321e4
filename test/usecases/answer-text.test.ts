import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diagnoseCase } from '../../src/diagnosis/index.ts';
import { fileChunks } from '../../src/file-chunks.ts';
import { loadPlaybooks } from '../../src/playbooks/load.ts';
import { caseLines } from '../../src/usecases/answer-text.ts';

// One JVM captured here (test/fixtures/case/SOURCES.md): its console and its GC log, joined by pid.
const DIR = join(import.meta.dirname, '..', 'fixtures', 'case', 'jvm-heap-oom');

describe('a case answered as text (the terminal and the MCP tools alike)', () => {
  it('says the process, the cause the GC log refined and where it was read, then the evidence', async () => {
    const inputs = ['console.txt', 'gc-21442.log'].map((file) => ({
      source: file,
      chunks: fileChunks(join(DIR, file)),
    }));
    const lines = caseLines(await diagnoseCase({ inputs }, { playbooks: loadPlaybooks() }));
    expect(lines[0]).toBe('Case 1: console.txt, gc-21442.log');
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}joined by pid 21442 /));
    const cause = lines.findIndex((l) => /^ {4}cause: .*, from gc-21442\.log:\d+: /.test(l));
    const firstCite = lines.findIndex((l) => /^ {4}(console\.txt|gc-21442\.log):\d+ {2}/.test(l));
    expect(cause).toBeGreaterThan(0);
    expect(firstCite).toBeGreaterThan(cause);
  });
});

// The captured Python leak (test/fixtures/case/python-leak): nothing in it names Beam.
describe('a case no playbook matched, as text', () => {
  const PY = join(import.meta.dirname, '..', 'fixtures', 'case', 'python-leak');
  const report = () =>
    diagnoseCase(
      {
        inputs: ['dmesg.txt', 'top-11304.txt', 'tracemalloc-11304.txt'].map((file) => ({
          source: file,
          chunks: fileChunks(join(PY, file)),
        })),
      },
      { playbooks: loadPlaybooks() },
    );

  it('says what the inputs show instead of a bare "no known problem", and how to name Beam', async () => {
    const lines = caseLines(await report());
    expect(lines).not.toContain('  no known problem found');
    expect(lines).toContain('  no playbook matched; what the inputs show:');
    expect(lines).toContain("    dmesg.txt:3: the kernel's OOM killer ended python3");
    expect(lines).toContain('    top-11304.txt:8: memory climbs at 4.28 MB/s without levelling off');
    expect(lines).toContainEqual(expect.stringMatching(/^ {4}tracemalloc-11304\.txt:1: .*leaky_dofn\.py:24/));
    expect(lines.at(-1)).toBe(
      '  If this is a Beam worker, run it again with --engine beam: the beam-python-leak playbook then reads these inputs. Nothing in them names Beam (an SDK harness log would), so it was not applied.',
    );
  });

  it('names the system the way the surface takes it (MCP: engine: beam)', async () => {
    const lines = caseLines(await report(), (engine) => `call diagnose again with engine: ${engine}`);
    expect(lines.at(-1)).toContain('If this is a Beam worker, call diagnose again with engine: beam:');
  });
});
