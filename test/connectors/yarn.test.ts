import { afterEach, describe, expect, it } from 'vitest';
import { attemptIdOf, yarnConnector } from '../../src/connectors/yarn.ts';
import { parseText } from '../../src/engine/parsers/parse-text.ts';
import { fixture, type RestFake } from './fakes/rest-fake.ts';
import { YARN_APP, yarnFake } from './fakes/systems.ts';
import { FIXED_NOW, targetFor } from './support.ts';

describe('YARN connector against a fake ResourceManager answering documented responses', () => {
  let fake: RestFake;
  afterEach(async () => {
    expect(fake.violations).toEqual([]);
    await fake.stop();
  });
  async function fetchFrom(app: string | undefined, resource: string, appId = YARN_APP) {
    fake = yarnFake(app);
    const url = await fake.start();
    return yarnConnector.fetch({ resource, ids: { appId } }, { target: targetFor(url), now: FIXED_NOW });
  }

  it('hands the diagnostics to the yarn-container parser as a paste of them is handed', async () => {
    const got = await fetchFrom('yarn/assembled-app-killed-beyond-physical.json', 'app');
    expect(got.from.path).toBe(`/ws/v1/cluster/apps/${YARN_APP}`);
    const paste = fixture('yarn/assembled-app-killed-beyond-physical.paste.txt');
    const judged = parseText('yarn-container', got.paste);
    expect(judged).toEqual(parseText('yarn-container', paste));
    expect(judged.values).toMatchObject({
      resource: 'physical',
      containerId: 'container_1598507699008_0094_01_000010',
    });
    expect(got.citations[0]).toBe('app.state = FINISHED, app.finalStatus = FAILED');
    expect(got.citations[1]).toMatch(
      /^app\.diagnostics = Container \[pid=8788,.*running beyond physical memory limits/,
    );
  });

  it('reads a finished application with empty diagnostics (the documented answer)', async () => {
    const got = await fetchFrom(undefined, 'app');
    expect(got.paste).toBe('');
    expect(got.citations).toEqual(['app.state = FINISHED, app.finalStatus = SUCCEEDED']);
  });

  it('reads a real Tez application whose diagnostics the RM wrote as "null" as one with none', async () => {
    const appId = 'application_1508258610180_0005';
    fake = yarnFake('yarn/app-kylo-sandbox-tez-diagnostics-null.json', appId);
    const url = await fake.start();
    const got = await yarnConnector.fetch(
      { resource: 'app', ids: { appId } },
      { target: targetFor(url), now: FIXED_NOW },
    );
    // RMAppAttemptImpl appends the AM's unregister message to a StringBuilder: a null one reads "null".
    expect(got.paste).toBe('');
    // allocatedMB -1 is the RM's "no usage report" for an application no longer running, not a size.
    expect(got.citations).toEqual(['app.state = FINISHED, app.finalStatus = SUCCEEDED']);
  });

  it('fetches the attempts and cites each attempt container', async () => {
    const got = await fetchFrom(undefined, 'attempts');
    expect(got.citations).toEqual([
      'appAttempts.appAttempt[0]: id 1, containerId container_1326821518301_0005_01_000001',
    ]);
  });

  it('refuses an application id with anything but digits after application_', async () => {
    fake = yarnFake();
    const url = await fake.start();
    const request = { resource: 'app', ids: { appId: 'application_1/../../x' } };
    await expect(yarnConnector.fetch(request, { target: targetFor(url) })).rejects.toThrow(/is not a appId/);
    expect(fake.seen).toEqual([]);
  });
});

describe('YARN containers of an attempt', () => {
  it('hands the failed containers diagnostics to the parser and cites their exit status', async () => {
    const fake = yarnFake();
    const url = await fake.start();
    const ids = { appId: YARN_APP, attemptId: 'appattempt_1326821518301_0005_000001' };
    const got = await yarnConnector.fetch({ resource: 'containers', ids }, { target: targetFor(url) });
    expect(got.from.path).toBe(`/ws/v1/cluster/apps/${YARN_APP}/appattempts/${ids.attemptId}/containers`);
    // Killed by the ApplicationMaster (-105), not for memory: the paste is refused as no memory kill.
    expect(got.paste).toBe(
      'Container killed by the ApplicationMaster.\nContainer killed on request. Exit code is 143\nContainer exited with a non-zero exit code 143\n',
    );
    expect(() => parseText('yarn-container', got.paste)).toThrow(
      /does not look like YARN container diagnostics/,
    );
    expect(got.citations).toEqual([
      'container_1430424020775_0001_01_000007.containerExitStatus = -105, allocatedMB = 1024 MB',
      'container_1430424020775_0001_01_000007.diagnosticsInfo = Container killed by the ApplicationMaster.',
    ]);
    expect(fake.violations).toEqual([]);
    await fake.stop();
  });

  it('names attempt n of an application as YARN does', () => {
    expect(attemptIdOf(YARN_APP, 1)).toBe('appattempt_1326821518301_0005_000001');
    expect(attemptIdOf(YARN_APP, 'appattempt_1326821518301_0005_000002')).toBe(
      'appattempt_1326821518301_0005_000002',
    );
  });
});
