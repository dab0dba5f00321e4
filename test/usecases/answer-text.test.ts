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
