// @ts-nocheck
import { describe, expect, it } from 'vitest';
import { fixtureCases, runFixture } from '../../src/playbooks/fixtures.ts';
import { loadPlaybooks } from '../../src/playbooks/load.ts';

const playbooks = loadPlaybooks();
const table = playbooks.flatMap((playbook) =>
  fixtureCases(playbook).map((fixture) => ({ name: `${playbook.id}/${fixture.file}`, playbook, fixture })),
);

describe('playbook fixtures', () => {
  it.each(table)('$name', async ({ playbook, fixture }) => {
    const result = await runFixture(playbook, fixture, playbooks);
    expect(result.detail).toBe('');
    expect(result.ok).toBe(true);
  });

  it.each(playbooks.map((p) => ({ id: p.id, playbook: p })))(
    '$id has at least 3 positive and 2 near-miss fixtures',
    ({ playbook }) => {
      const cases = fixtureCases(playbook);
      expect(cases.filter((c) => c.expect === playbook.id).length).toBeGreaterThanOrEqual(3);
      expect(cases.filter((c) => c.expect !== playbook.id).length).toBeGreaterThanOrEqual(2);
    },
  );

  it('ships the nine launch playbooks', () => {
    expect(playbooks.map((p) => p.id)).toEqual([
      'beam-python-leak',
      'flink-container-oom-killed',
      'flink-jvm-oom',
      'flink-pending-slots',
      'glue-heap-oom',
      'jvm-oom',
      'spark-driver-result-size',
      'spark-executor-overhead-killed',
      'spark-heap-oom',
    ]);
  });
});
