// @ts-nocheck
import { describe, expect, it } from 'vitest';
import { npmStart, testEnv } from './spawn-helpers.ts';

describe('npm start without Slack credentials', () => {
  it('diagnoses a paste and walks the procedure to its conclusion over stdin', async () => {
    const app = npmStart(testEnv());
    await app.waitFor(/memdoctor console \(1 playbooks, walkthroughs are kept in memory\)/);
    app.type(
      'Exception in thread "main" java.lang.OutOfMemoryError: Java heap space',
      '',
      '  at Job.run(Job.java:42)',
      '.',
    );
    await app.waitFor(/Test heap trouble {2}\[test-walk, confidence 80%\]/);
    await app.waitFor(/Type walk to go through "Test heap trouble" step by step/);
    app.type('walk');
    // The diagnosis already says it is the Java heap, so that question is answered and skipped.
    await app.waitFor(
      /\(known\) Which limit was hit\?: The Java heap \(known from the facts: oom\.java-heap\)/,
    );
    await app.waitFor(/-- Step 2: Heap after a full GC/);
    app.type('150');
    await app.waitFor(/! "150" is outside 0% to 100%; type a percentage/);
    app.type('0.4');
    await app.waitFor(/! "0.4" is ambiguous: 0.4% or a ratio of 0.4 \(40%\)\?/);
    app.type('40%');
    await app.waitFor(/read as 40%/);
    await app.waitFor(/Round 1: 4 of 4 candidates still suspected\.\nRun with only: read, parse/);
    app.type('1');
    await app.waitFor(/Round 2: 2 of 4 candidates still suspected\.\nRun with only: read/);
    app.type('back');
    await app.waitFor(/Round 1: 4 of 4/);
    app.type('1');
    await app.waitFor(/Round 2/);
    app.type('2');
    await app.waitFor(/== Conclusion: Stage parse leaks\nMemory grows while stage parse runs\./);
    app.type('status');
    await app.waitFor(/No active walkthroughs\./);
    app.type('transcript');
    await app.waitFor(
      /# Walkthrough: Test heap trouble[\s\S]*- Round 1: symptom with read, parse\n {3}- Round 2: no symptom with read[\s\S]*## Audit trail/,
    );
    expect(await app.end()).toBe(0);
    expect(app.stderr).toBe('');
  });
});
