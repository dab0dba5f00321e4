// @ts-nocheck
import { describe, expect, it } from 'vitest';
import { exitCodes } from '../../../src/engine/extractors/exit-codes.ts';
import { findingsOf, kindsOf } from './run-extractor.ts';

describe('exit-codes', () => {
  it.each([
    ['Container exited with a non-zero exit code 137', 137],
    ['[2019-11-25 20:12:38.293]Container exited with a non-zero exit code 143.', 143],
    ['[2023-08-01 18:17:56.141]Container killed on request. Exit code is 143', 143],
    [' Exit code:-103.', -103],
    ['exitCode: -104', -104],
    [
      'ExecutorLostFailure (executor 3 exited caused by one of the running tasks) Reason: Container marked as failed: container_1_0001_01_000004 on host: ip-10-0-0-1. Exit status: -104. Diagnostics: killed',
      -104,
    ],
    ['ERROR YarnScheduler: Executor exited with exit status 52', 52],
    ['Process exited with code 137', 137],
    ['exit status: 143', 143],
  ])('%s -> exit %i', (line, code) => {
    const findings = findingsOf(exitCodes, line);
    expect(findings.map((f) => f.kind)).toEqual([`exit.${code}`]);
    expect(findings[0]?.values?.code).toBe(code);
    expect(String(findings[0]?.values?.meaning).length).toBeGreaterThan(10);
  });

  it('reads the exit code of kubectl describe output', () => {
    expect(kindsOf(exitCodes, '      Exit Code:    137')).toEqual(['exit.137']);
  });

  it('reports a code once per line', () => {
    expect(kindsOf(exitCodes, 'exit code 137; retried; exit code 137')).toEqual(['exit.137']);
  });

  it('reports two different codes on one line in order', () => {
    expect(kindsOf(exitCodes, 'exit code 143 after exit code 137')).toEqual(['exit.143', 'exit.137']);
  });

  it.each([
    'Container exited with a non-zero exit code 127',
    'Container exited with a non-zero exit code 1',
    'exit code 1370',
    'exit code 0',
    'System.exit(1) called from ShutdownHook',
    'Lost executor 137 on host-1',
  ])('finds nothing in %s', (line) => {
    expect(kindsOf(exitCodes, line)).toEqual([]);
  });
});
