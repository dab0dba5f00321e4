import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixtureCases, runFixture } from '../../src/playbooks/fixtures.ts';
import { loadPlaybooks, PLAYBOOKS_DIR } from '../../src/playbooks/load.ts';

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

  it('loads every playbook folder, each under its own id', () => {
    const folders = readdirSync(PLAYBOOKS_DIR, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
    expect(folders.length).toBeGreaterThan(0);
    expect(playbooks.map((p) => p.id)).toEqual(folders);
  });
});
