import { describe, expect, it } from 'vitest';
import { check } from '../../src/diagnosis/check.ts';
import { FetchGate } from '../../src/diagnosis/fetch-access.ts';
import { loadPlaybooks } from '../../src/playbooks/load.ts';
import { YARN_APP, yarnFake } from '../connectors/fakes/systems.ts';
import { FIXED_NOW, targetFor, useFake } from '../connectors/support.ts';

const PLAYBOOKS = loadPlaybooks();

// YARN's own docs sample (ResourceManagerRest.md, "Cluster Application API"): a finished application
// whose diagnostics are "" (issue 35, finding 13).
describe('check on a valid answer that holds nothing', () => {
  const yarn = useFake(() => yarnFake('yarn/app-docs-finished.json'));

  it('says what empty YARN diagnostics mean and judges nothing from them', async () => {
    const result = await check(
      {
        system: 'yarn',
        id: YARN_APP,
        workspace: 'T1',
        asker: { surface: 'cli', workspace: 'T1', user: 'U1' },
      },
      {
        connectors: { yarn: targetFor(yarn.url) },
        playbooks: PLAYBOOKS,
        now: FIXED_NOW,
        gate: new FetchGate(undefined),
      },
    );
    const app = result.fetched.find((a) => a.path === `/ws/v1/cluster/apps/${YARN_APP}`);
    expect(app?.judgement).toBeUndefined();
    expect(result.notes).toContain(
      `GET /ws/v1/cluster/apps/${YARN_APP}: the application's diagnostics are empty: YARN wrote no reason for it (it does when the application or its ApplicationMaster fails), so they name no container kill.`,
    );
    expect(result.notes.find((n) => n.includes(`apps/${YARN_APP}:`))).not.toMatch(/does not look like/);
  });
});

// A real Hive-on-Tez application on Kylo's HDP sandbox: the RM wrote its diagnostics as "null".
describe('check on a real answer whose diagnostics the RM wrote as "null"', () => {
  const appId = 'application_1508258610180_0005';
  const yarn = useFake(() => yarnFake('yarn/app-kylo-sandbox-tez-diagnostics-null.json', appId));

  it('says they are empty, not that "null" does not look like YARN container diagnostics', async () => {
    const result = await check(
      { system: 'yarn', id: appId, workspace: 'T1', asker: { surface: 'cli', workspace: 'T1', user: 'U1' } },
      {
        connectors: { yarn: targetFor(yarn.url) },
        playbooks: PLAYBOOKS,
        now: FIXED_NOW,
        gate: new FetchGate(undefined),
      },
    );
    const notes = result.notes.filter((n) => n.includes(`apps/${appId}:`));
    expect(notes).toEqual([
      `GET /ws/v1/cluster/apps/${appId}: the application's diagnostics are empty: YARN wrote no reason for it (it does when the application or its ApplicationMaster fails), so they name no container kill.`,
    ]);
    expect(result.report.diagnoses).toEqual([]);
  });
});
