import { afterEach, describe, expect, it } from 'vitest';
import { yarnConnector } from '../../src/connectors/yarn.ts';
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
