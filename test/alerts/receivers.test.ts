import { execFileSync } from 'node:child_process';
import { createHmac, sign } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import pino from 'pino';
import { Registry } from 'prom-client';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type AlertsConfig, parseAlertsConfig } from '../../src/alerts/config.ts';
import { BodyTooLargeError, readCapped } from '../../src/alerts/http.ts';
import { AlertMetrics } from '../../src/alerts/metrics.ts';
import { mountAlertReceivers } from '../../src/alerts/mount.ts';
import type { SnsTransport } from '../../src/alerts/sns.ts';
import type { AlertIntake, RoutedAlert } from '../../src/incidents/types.ts';
import { type ConnectorsConfig, checkIdProblem } from '../../src/usecases/connectors.ts';
import { fixture, fixtureText, ROUTES_YAML, SECRETS } from './support.ts';

const TOPIC = 'arn:aws:sns:us-west-2:123456789012:MyTopic';
const CERT_URL =
  'https://sns.us-west-2.amazonaws.com/SimpleNotificationService-f3ecfb7224c7233fe7bb5f59f96de52f.pem';
const connectors = {
  glue: { region: 'us-west-2' },
  spark: { url: 'http://h:18080' },
} as unknown as ConnectorsConfig;

// A key and a self-signed certificate for sns.amazonaws.com, made here: the verifier trusts it only
// because the test's transport hands it over for an SNS certificate URL.
let keyPem: string;
let certPem: string;
beforeAll(() => {
  const dir = mkdtempSync(join(tmpdir(), 'alerts-sns-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '2',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
      '-subj',
      '/CN=sns.amazonaws.com',
      '-addext',
      'subjectAltName=DNS:sns.amazonaws.com',
    ],
    { stdio: 'ignore' },
  );
  keyPem = readFileSync(join(dir, 'key.pem'), 'utf8');
  certPem = readFileSync(join(dir, 'cert.pem'), 'utf8');
});

class FakeIntake implements AlertIntake {
  readonly accepted: RoutedAlert[] = [];
  failing = false;
  async accept(alert: RoutedAlert) {
    if (this.failing) throw new Error('Redis is down');
    const seen = this.accepted.some((a) => a.event.deliveryId === alert.event.deliveryId);
    this.accepted.push(alert);
    return seen ? 'duplicate' : 'queued';
  }
}

interface Harness {
  url: string;
  intake: FakeIntake;
  registry: Registry;
  certificateFetches: string[];
  confirmations: string[];
  fallbackHits: number;
}

let server: Server | undefined;
afterEach(async () => {
  const open = server;
  server = undefined;
  if (!open) return;
  open.closeAllConnections();
  await new Promise((resolve) => open.close(resolve));
});

async function start(options: { now?: number; config?: AlertsConfig } = {}): Promise<Harness> {
  const config = options.config ?? parseAlertsConfig(ROUTES_YAML, 'alerts.yaml', (n) => SECRETS[n]);
  const intake = new FakeIntake();
  const registry = new Registry();
  const harness = {
    intake,
    registry,
    certificateFetches: [] as string[],
    confirmations: [] as string[],
    fallbackHits: 0,
  };
  const sns: SnsTransport = {
    fetchCertificate: async (url) => {
      harness.certificateFetches.push(url);
      return certPem;
    },
    confirm: async (url) => {
      harness.confirmations.push(url);
    },
  };
  server = createServer((_req, res) => {
    harness.fallbackHits += 1;
    res.writeHead(404).end();
  });
  mountAlertReceivers(server, {
    config,
    intake,
    metrics: new AlertMetrics(registry),
    logger: pino({ level: 'silent' }),
    idCheck: (connector, id) => checkIdProblem(connector, id, connectors),
    sns,
    now: () => options.now ?? Date.now(),
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    ...harness,
    url: `http://127.0.0.1:${port}`,
    get fallbackHits() {
      return harness.fallbackHits;
    },
  } as Harness;
}

async function post(h: Harness, path: string, body: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${h.url}${path}`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', ...headers },
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

async function refusals(h: Harness): Promise<string> {
  return await h.registry.getSingleMetricAsString('memdoctor_alert_requests_refused_total');
}

const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('the Alertmanager receiver', () => {
  it('stores each alert, then answers 200', async () => {
    const h = await start();
    const answer = await post(h, '/alerts/alertmanager', fixtureText('alertmanager-v4-firing.json'), {
      authorization: 'Bearer am-token-1',
    });
    expect(answer).toEqual({ status: 200, json: { queued: 1, duplicates: 0, unrouted: 0 } });
    expect(h.intake.accepted.map((a) => [a.route, a.channel, a.event.incidentKey])).toEqual([
      ['flink-oom', 'C0FLINK01', '948c667b1fc76492'],
    ]);
  });

  it('takes basic auth as http_config basic_auth sends it', async () => {
    const h = await start();
    const answer = await post(h, '/alerts/alertmanager', fixtureText('alertmanager-v4-firing.json'), {
      authorization: basic('alertmanager', 'am-password-1'),
    });
    expect(answer.status).toBe(200);
  });

  it('refuses a request without or with wrong credentials before reading it, counted, nothing stored', async () => {
    const h = await start();
    const body = fixtureText('alertmanager-v4-firing.json');
    expect((await post(h, '/alerts/alertmanager', body)).status).toBe(401);
    expect((await post(h, '/alerts/alertmanager', body, { authorization: 'Bearer am-token-2' })).status).toBe(
      403,
    );
    expect(
      (await post(h, '/alerts/alertmanager', body, { authorization: basic('alertmanager', 'nope') })).status,
    ).toBe(403);
    // Not even JSON: the body is never looked at when the credentials are wrong.
    expect((await post(h, '/alerts/alertmanager', 'not json', { authorization: 'Bearer x' })).status).toBe(
      403,
    );
    expect(h.intake.accepted).toEqual([]);
    const text = await refusals(h);
    expect(text).toContain(
      'memdoctor_alert_requests_refused_total{receiver="alertmanager",reason="unauthenticated"} 1',
    );
    expect(text).toContain(
      'memdoctor_alert_requests_refused_total{receiver="alertmanager",reason="forbidden"} 3',
    );
  });

  it('answers 400 with what is wrong for a payload that is not Alertmanager’s', async () => {
    const h = await start();
    const answer = await post(h, '/alerts/alertmanager', '{"version":"4"}', {
      authorization: 'Bearer am-token-1',
    });
    expect(answer.status).toBe(400);
    expect(answer.json.error).toMatch(/not an Alertmanager webhook message[\s\S]*groupKey/);
    expect(h.intake.accepted).toEqual([]);
  });

  it('answers 503 when the intake cannot store, so Alertmanager retries', async () => {
    const h = await start();
    h.intake.failing = true;
    const answer = await post(h, '/alerts/alertmanager', fixtureText('alertmanager-v4-firing.json'), {
      authorization: 'Bearer am-token-1',
    });
    expect(answer.status).toBe(503);
    expect(await h.registry.getSingleMetricAsString('memdoctor_alert_intake_failures_total')).toContain(
      'memdoctor_alert_intake_failures_total{receiver="alertmanager"} 1',
    );
  });

  it('refuses a 10 MB body with 413 and stores nothing', async () => {
    const h = await start();
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${h.url}/alerts/alertmanager`, {
        method: 'POST',
        headers: { authorization: 'Bearer am-token-1', 'content-length': 10 * 1024 * 1024 },
      });
      req.on('response', (res) => resolve(res.statusCode ?? 0));
      req.on('error', reject);
      req.write(Buffer.alloc(64 * 1024, 0x20));
    });
    expect(status).toBe(413);
    expect(h.intake.accepted).toEqual([]);
    expect(await refusals(h)).toContain('reason="too_large"} 1');
  });

  it('stores 1,000 alerts of one burst, each once, and knows the resent burst as duplicates', async () => {
    const h = await start();
    const message = fixture<{ alerts: Record<string, unknown>[] }>('alertmanager-v4-firing.json');
    const alerts = Array.from({ length: 1000 }, (_, i) => ({
      ...message.alerts[0],
      fingerprint: `948c667b1fc7${i.toString(16).padStart(4, '0')}`,
    }));
    const body = JSON.stringify({ ...message, alerts });
    const headers = { authorization: 'Bearer am-token-1' };
    expect(await post(h, '/alerts/alertmanager', body, headers)).toEqual({
      status: 200,
      json: { queued: 1000, duplicates: 0, unrouted: 0 },
    });
    expect(await post(h, '/alerts/alertmanager', body, headers)).toEqual({
      status: 200,
      json: { queued: 0, duplicates: 1000, unrouted: 0 },
    });
    expect(new Set(h.intake.accepted.map((a) => a.event.incidentKey)).size).toBe(1000);
  });

  it('answers 405 to a GET', async () => {
    const h = await start();
    expect((await fetch(`${h.url}/alerts/alertmanager`)).status).toBe(405);
  });
});

describe('readCapped', () => {
  it('stops reading a chunked body once past the cap, without pulling the rest', async () => {
    let produced = 0;
    const tenMegabytes = new Readable({
      read() {
        if (produced >= 10 * 1024 * 1024) return this.push(null);
        produced += 64 * 1024;
        this.push(Buffer.alloc(64 * 1024));
      },
    });
    Object.assign(tenMegabytes, { headers: {} });
    await expect(readCapped(tenMegabytes as never, 1024 * 1024)).rejects.toBeInstanceOf(BodyTooLargeError);
    expect(produced).toBeLessThan(2 * 1024 * 1024);
  });
});

/** PagerDuty's v1 signature: HMAC-SHA256 of the raw body, hex (docs/webhooks/04-Signatures.md). */
const pdSign = (body: string, secret: string) =>
  `v1=${createHmac('sha256', secret).update(body).digest('hex')}`;
const PD_SAMPLE_TIME = Date.parse('2020-10-02T18:50:00Z');

describe('the PagerDuty receiver', () => {
  const body = () => fixtureText('pagerduty-incident-priority-updated.json');

  it('stores an incident event signed with the current secret', async () => {
    const h = await start({ now: PD_SAMPLE_TIME });
    const answer = await post(h, '/alerts/pagerduty', body(), {
      'x-pagerduty-signature': pdSign(body(), 'pd-secret-new'),
    });
    expect(answer).toEqual({ status: 200, json: { queued: 1, duplicates: 0, unrouted: 0 } });
    expect(h.intake.accepted[0]).toMatchObject({
      route: 'spark-pages',
      event: { incidentKey: 'PGR0VU2' },
      // The route's template reads data.incident_key; it passes Spark's id grammar, so it is kept.
      checks: [{ connector: 'spark', id: 'd3640fbd41094207a1c11e58e46b1662' }],
    });
  });

  it('accepts any one of several signatures during a rotation', async () => {
    const h = await start({ now: PD_SAMPLE_TIME });
    const header = `v1=${'0'.repeat(64)},${pdSign(body(), 'pd-secret-old')}`;
    expect((await post(h, '/alerts/pagerduty', body(), { 'x-pagerduty-signature': header })).status).toBe(
      200,
    );
  });

  it('refuses a forged, a tampered and an unsigned request', async () => {
    const h = await start({ now: PD_SAMPLE_TIME });
    const forged = pdSign(body(), 'not-the-secret');
    expect((await post(h, '/alerts/pagerduty', body(), { 'x-pagerduty-signature': forged })).status).toBe(
      403,
    );
    const tampered = body().replace('A little bump in the road', 'Something else');
    const signedOriginal = pdSign(body(), 'pd-secret-new');
    expect(
      (await post(h, '/alerts/pagerduty', tampered, { 'x-pagerduty-signature': signedOriginal })).status,
    ).toBe(403);
    expect((await post(h, '/alerts/pagerduty', body())).status).toBe(401);
    expect(h.intake.accepted).toEqual([]);
  });

  it('refuses a genuine delivery replayed after the window', async () => {
    const h = await start({ now: PD_SAMPLE_TIME + 2 * 3600 * 1000 });
    const answer = await post(h, '/alerts/pagerduty', body(), {
      'x-pagerduty-signature': pdSign(body(), 'pd-secret-new'),
    });
    expect(answer.status).toBe(403);
    expect(h.intake.accepted).toEqual([]);
    expect(await refusals(h)).toContain(
      'memdoctor_alert_requests_refused_total{receiver="pagerduty",reason="stale"} 1',
    );
  });

  it('answers 200 to a service event and stores nothing', async () => {
    const h = await start({ now: Date.parse('2021-03-02T13:40:00Z') });
    const service = fixtureText('pagerduty-service-updated.json');
    const answer = await post(h, '/alerts/pagerduty', service, {
      'x-pagerduty-signature': pdSign(service, 'pd-secret-new'),
    });
    expect(answer).toEqual({ status: 200, json: { ignored: 'service.updated is not an incident event' } });
    expect(h.intake.accepted).toEqual([]);
  });
});

/** AWS's Notification sample carrying `message`, signed with the test's key (SignatureVersion 1 or 2). */
function snsNotification(
  message: string,
  options: { version?: '1' | '2'; timestamp?: string; topic?: string; certUrl?: string } = {},
) {
  const sample = fixture<Record<string, string>>('sns-notification.json');
  const m: Record<string, string> = {
    ...sample,
    Message: message,
    Timestamp: options.timestamp ?? new Date().toISOString(),
    TopicArn: options.topic ?? sample.TopicArn ?? '',
    SignatureVersion: options.version ?? '1',
    SigningCertURL: options.certUrl ?? CERT_URL,
  };
  const signed = ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type']
    .map((k) => `${k}\n${m[k]}\n`)
    .join('');
  m.Signature = sign(
    m.SignatureVersion === '1' ? 'RSA-SHA1' : 'RSA-SHA256',
    Buffer.from(signed),
    keyPem,
  ).toString('base64');
  return m;
}

describe('the SNS receiver', () => {
  const glueFailed = () => fixtureText('eventbridge-glue-job-failed.json');

  it('stores a failed Glue run signed with SignatureVersion 1 and 2, fetching the certificate once', async () => {
    const h = await start();
    // The same message twice (an SNS redelivery), signed once with SHA1 and once with SHA256.
    const first = await post(
      h,
      '/alerts/sns',
      JSON.stringify(snsNotification(glueFailed(), { version: '1' })),
    );
    const again = await post(
      h,
      '/alerts/sns',
      JSON.stringify(snsNotification(glueFailed(), { version: '2' })),
    );
    expect(first).toEqual({ status: 200, json: { queued: 1, duplicates: 0, unrouted: 0 } });
    expect(again).toEqual({ status: 200, json: { queued: 0, duplicates: 1, unrouted: 0 } });
    expect(h.certificateFetches).toEqual([CERT_URL]);
    expect(h.intake.accepted[0]).toMatchObject({
      route: 'glue-failures',
      checks: [
        {
          connector: 'glue',
          id: 'MyJob/jr_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
        },
      ],
    });
  });

  it('refuses a topic not configured without fetching anything', async () => {
    const h = await start();
    const other = snsNotification(glueFailed(), { topic: 'arn:aws:sns:us-west-2:123456789012:Other' });
    expect((await post(h, '/alerts/sns', JSON.stringify(other))).status).toBe(403);
    expect(h.certificateFetches).toEqual([]);
  });

  it('never fetches a certificate from anywhere but an SNS host over https', async () => {
    const h = await start();
    for (const certUrl of [
      'https://evil.example.com/SimpleNotificationService.pem',
      'http://sns.us-west-2.amazonaws.com/SimpleNotificationService.pem',
      'https://sns.us-west-2.amazonaws.com.evil.example.com/x.pem',
    ]) {
      expect(
        (await post(h, '/alerts/sns', JSON.stringify(snsNotification(glueFailed(), { certUrl })))).status,
      ).toBe(403);
    }
    expect(h.certificateFetches).toEqual([]);
    expect(h.intake.accepted).toEqual([]);
  });

  it('refuses a message changed after it was signed, and one replayed after the window', async () => {
    const h = await start();
    const tampered = { ...snsNotification(glueFailed()), Message: glueFailed().replace('MyJob', 'OtherJob') };
    expect((await post(h, '/alerts/sns', JSON.stringify(tampered))).status).toBe(403);
    const old = snsNotification(glueFailed(), {
      timestamp: new Date(Date.now() - 2 * 3600 * 1000).toISOString(),
    });
    expect((await post(h, '/alerts/sns', JSON.stringify(old))).status).toBe(403);
    expect(h.intake.accepted).toEqual([]);
  });

  it('confirms a subscription to a configured topic with a URL built from the topic, not the one sent', async () => {
    const h = await start();
    const sample = fixture<Record<string, string>>('sns-subscription-confirmation.json');
    const m: Record<string, string> = {
      ...sample,
      Timestamp: new Date().toISOString(),
      SubscribeURL: 'https://attacker.example.com/confirm',
      SigningCertURL: CERT_URL,
    };
    const keys = ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'];
    m.Signature = sign('RSA-SHA1', Buffer.from(keys.map((k) => `${k}\n${m[k]}\n`).join('')), keyPem).toString(
      'base64',
    );
    const answer = await post(h, '/alerts/sns', JSON.stringify(m));
    expect(answer).toEqual({ status: 200, json: { message: `subscription to ${TOPIC} confirmed` } });
    const confirmed = new URL(h.confirmations[0] ?? '');
    expect(confirmed.origin).toBe('https://sns.us-west-2.amazonaws.com');
    expect(confirmed.searchParams.get('Action')).toBe('ConfirmSubscription');
    expect(confirmed.searchParams.get('TopicArn')).toBe(TOPIC);
    expect(confirmed.searchParams.get('Token')).toBe(sample.Token);
    expect(h.intake.accepted).toEqual([]);
  });
});

describe('the Cloud Monitoring receiver', () => {
  const body = () => fixtureText('gcp-incident-open.json');

  it('takes the token query parameter or basic auth', async () => {
    const h = await start();
    expect((await post(h, '/alerts/gcp?token=gcp-token-1', body())).status).toBe(200);
    expect(
      (await post(h, '/alerts/gcp', body(), { authorization: basic('google', 'gcp-password-1') })).status,
    ).toBe(200);
    expect(h.intake.accepted.map((a) => a.event.deliveryId)).toEqual([
      '0.mtdi83m6w8ao:open',
      '0.mtdi83m6w8ao:open',
    ]);
  });

  it('refuses a wrong or missing token', async () => {
    const h = await start();
    expect((await post(h, '/alerts/gcp?token=nope', body())).status).toBe(403);
    expect((await post(h, '/alerts/gcp', body())).status).toBe(401);
    expect(h.intake.accepted).toEqual([]);
  });
});

describe('only what is configured is served', () => {
  it('passes a receiver path the file does not configure to the server’s own handler', async () => {
    const config = parseAlertsConfig(
      'receivers: { alertmanager: { bearer: env:AM_TOKEN } }\nroutes: [{ name: a, channel: C0A1 }]',
      'alerts.yaml',
      (n) => SECRETS[n],
    );
    const h = await start({ config });
    const body = fixtureText('pagerduty-incident-priority-updated.json');
    const response = await fetch(`${h.url}/alerts/pagerduty`, { method: 'POST', body });
    expect(response.status).toBe(404);
    expect(h.fallbackHits).toBe(1);
    expect(h.intake.accepted).toEqual([]);
  });
});
