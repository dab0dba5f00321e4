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
    // Spark on Kubernetes annotates the code (ExecutorPodsLifecycleManager.describeExitCode).
    ['The executor with id 13 exited with exit code 137(SIGKILL, possible container OOM).', 137],
    ['The executor with id 3 exited with exit code 52(JVM OOM).', 52],
    // Spark standalone (ExecutorRunner) and Flink on YARN (YarnResourceManagerDriver).
    [
      'ExecutorLostFailure (executor 12 exited caused by one of the running tasks) Reason: Command exited with code 52',
      52,
    ],
    ['Container container_e05_1600000000000_0003_01_000002 marked as failed.\\n Exit code:-104.', -104],
    ['flink_taskmanager_1 exited with code 137', 137],
    // Spark standalone's ExecutorExitCode.explainExitCode.
    ['Reason: Unknown executor exit code (137) (died from signal 9?)', 137],
  ])('%s -> exit %i', (line, code) => {
    const findings = findingsOf(exitCodes, line);
    expect(findings.map((f) => f.kind)).toEqual([`exit.${code}`]);
    expect(findings[0]?.values?.code).toBe(code);
    expect(String(findings[0]?.values?.meaning).length).toBeGreaterThan(10);
  });

  it.each([
    [
      'exit.-103',
      'Container marked as failed: container_1 on host: h1. Exit status: -103. Diagnostics: killed',
    ],
    ['exit.-104', 'Exit status: -104. Diagnostics: Container killed on request.'],
    ['exit.52', 'Exit status: 52. Diagnostics: Exception from container-launch.'],
  ])('%s from %s', (kind, line) => {
    expect(kindsOf(exitCodes, line)).toEqual([kind]);
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
    // Spark's own codes that are not memory: 53 is a DiskStore that could not create its directory.
    'The executor with id 4 exited with exit code 53(DiskStore failed to create temp dir).',
    'Command failed with exit code 1',
  ])('finds nothing in %s', (line) => {
    expect(kindsOf(exitCodes, line)).toEqual([]);
  });
});
