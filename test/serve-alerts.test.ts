import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Config, loadConfig } from '../src/config.ts';
import type { AlertIntake, RoutedAlert } from '../src/incidents/types.ts';
import { createLogger } from '../src/log.ts';
import { alertsConfigOf, buildSlackService, listenWithAlerts, type SlackService } from '../src/serve.ts';
import { fixtureText } from './alerts/support.ts';
import { FakeSlack } from './slack/support/fake-slack.ts';
import { BOT_TOKEN, freePort, SIGNING_SECRET } from './slack/support/harness.ts';

const log = createLogger('silent');
const METRICS_TOKEN = 'scrape-token-alerts-1';
let service: SlackService | undefined;
let fake: FakeSlack | undefined;
afterEach(async () => {
  await service?.stop();
  await fake?.stop();
  service = undefined;
  fake = undefined;
});

async function configWith(extra: Record<string, string>): Promise<Config> {
  fake = new FakeSlack(BOT_TOKEN);
  await fake.start();
  return loadConfig({
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: fake.apiUrl,
    MEMDOCTOR_ALLOW_HTTP_LOOPBACK: 'true',
    MEMDOCTOR_METRICS_TOKEN: METRICS_TOKEN,
    MEMDOCTOR_ENGINE_THREADS: '1',
    PORT: String(await freePort()),
    ...extra,
  });
}

function alertsFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'serve-alerts-'));
  const file = join(dir, 'alerts.yaml');
  writeFileSync(
    file,
    'receivers: { alertmanager: { bearer: env:SERVE_TEST_AM_TOKEN } }\nroutes: [{ name: all, channel: C0ALL0001 }]\n',
  );
  return file;
}

const post = (port: number, headers: Record<string, string> = {}) =>
  fetch(`http://127.0.0.1:${port}/alerts/alertmanager`, {
    method: 'POST',
    body: fixtureText('alertmanager-v4-firing.json'),
    headers: { 'content-type': 'application/json', ...headers },
  });

const scrape = async (port: number) =>
  (
    await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
  ).text();

describe('memdoctor serve and MEMDOCTOR_ALERTS', () => {
  it('unset: no receiver is served, Bolt answers the path as before, and no alert counter exists', async () => {
    const config = await configWith({});
    expect(alertsConfigOf(config)).toBeUndefined();
    service = await buildSlackService(config, log);
    await listenWithAlerts(service, config.PORT, log, undefined);
    // Bolt verifies every POST's Slack signature: an alert is refused as any unsigned request is.
    expect((await post(config.PORT, { authorization: 'Bearer anything' })).status).toBe(401);
    expect(await scrape(config.PORT)).not.toContain('memdoctor_alert');
  });

  it('set: the receiver answers after the intake stored the alert, and refusals show in /metrics', async () => {
    const config = await configWith({ MEMDOCTOR_ALERTS: alertsFile() });
    const alertsConfig = alertsConfigOf(config, (name) =>
      name === 'SERVE_TEST_AM_TOKEN' ? 'am-serve-token' : undefined,
    );
    if (!alertsConfig) throw new Error('MEMDOCTOR_ALERTS not read');
    const stored: RoutedAlert[] = [];
    const intake: AlertIntake = {
      accept: async (alert) => {
        stored.push(alert);
        return 'queued';
      },
    };
    service = await buildSlackService(config, log);
    await listenWithAlerts(service, config.PORT, log, { config: alertsConfig, intake });
    const answer = await post(config.PORT, { authorization: 'Bearer am-serve-token' });
    expect(answer.status).toBe(200);
    expect(stored.map((a) => [a.route, a.channel])).toEqual([['all', 'C0ALL0001']]);
    expect((await post(config.PORT, { authorization: 'Bearer forged' })).status).toBe(403);
    expect(stored).toHaveLength(1);
    expect(await scrape(config.PORT)).toContain(
      'memdoctor_alert_requests_refused_total{receiver="alertmanager",reason="forbidden"} 1',
    );
    // Slack's own routes are untouched.
    expect((await fetch(`http://127.0.0.1:${config.PORT}/livez`)).status).toBe(200);
  });

  it('refuses Socket Mode with MEMDOCTOR_ALERTS, saying why', async () => {
    const config = await configWith({ MEMDOCTOR_ALERTS: alertsFile(), SLACK_APP_TOKEN: 'xapp-1-test' });
    expect(() => alertsConfigOf(config, () => undefined)).toThrow(/needs the HTTP transport/);
  });
});
