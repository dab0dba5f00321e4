import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runConsole } from './console-harness.ts';

describe('console (in-process, with a test parser)', () => {
  it('takes pastes for paste steps and explains one that does not parse', async () => {
    const out = await runConsole([
      'walk test-leak',
      '2',
      '1',
      'hello there',
      '.',
      '# samples',
      '',
      'growth=30',
      '.',
      'status',
      '3',
    ]);
    expect(out).toContain('-- Step 3: Paste the memory samples');
    expect(out).toContain('Paste the output of: sample-memory --every 10s');
    expect(out).toContain(
      '! this does not look like memory samples: run sample-memory --every 10s and paste what it prints.',
    );
    expect(out).toMatch(
      /\(answered\) Paste the memory samples: memory grew 30% over the samples \(memory grows steadily\)/,
    );
    expect(out).toMatch(
      /Active walkthroughs:\n {2}local-console-\w+ {2}test-leak {2}active {2}at "Find the leaking stage"/,
    );
    expect(out).toMatch(/! answer with a number from 1 to 2/);
  });

  it('aborts, refuses answers after that, and prints help', async () => {
    const out = await runConsole(['help', 'walk test-leak', 'abort', 'back', 'walk nope']);
    expect(out).toContain('resume <id>       pick up a walkthrough again');
    expect(out).toContain('This walkthrough was abandoned.');
    expect(out).toContain('! this walkthrough is abandoned; start a new one to continue.');
    expect(out).toContain('! no playbook "nope". Known playbooks: test-leak.');
  });

  it('diagnoses a log file given by its path, then walks with its facts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'md-console-'));
    const file = join(dir, 'driver.log');
    writeFileSync(file, 'INFO starting\njava.lang.OutOfMemoryError: Java heap space\n');
    try {
      const out = await runConsole([file, 'walk', '95']);
      expect(out).toContain(`== ${file} (2 lines)`);
      expect(out).toContain('(known) Which limit was hit?: The Java heap');
      expect(out).toContain('== Conclusion: The heap is too small');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('asks for a diagnosis before walk, and says when nothing was recognised', async () => {
    const out = await runConsole(['walk', 'transcript', 'just some words', '.']);
    expect(out).toContain('Nothing diagnosed yet: paste an error first, or type walk <playbook>.');
    expect(out).toContain('No walkthrough yet');
    expect(out).toContain('No known memory problem recognised.');
  });
});

describe('console after a walkthrough ends', () => {
  const TO_THE_END = ['INFO starting', 'java.lang.OutOfMemoryError: Java heap space', '.', 'walk', '95'];

  it('takes commands: a number typed after the end is not the start of a paste', async () => {
    const out = await runConsole([...TO_THE_END, '3', 'status', 'transcript', 'quit', 'never read']);
    expect(out).toContain('== Conclusion: The heap is too small');
    expect(out).toContain('This walkthrough is finished: type transcript, status, walk to start again');
    expect(out).toContain('No active walkthroughs.');
    // The transcript's Markdown, printed by `transcript` (not swallowed into a paste).
    expect(out.indexOf('No active walkthroughs.')).toBeLessThan(out.lastIndexOf('The heap is too small'));
    expect(out).not.toContain('No known memory problem recognised.');
  });

  it('still diagnoses an error pasted after the end', async () => {
    const out = await runConsole([...TO_THE_END, 'just some words', '.']);
    expect(out).toContain('No known memory problem recognised.');
  });
});
