import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadAlertsConfig, parseAlertsConfig } from '../../src/alerts/config.ts';
import { ConfigInvalidError } from '../../src/errors.ts';
import { ROUTES_YAML, SECRETS } from './support.ts';

const env = (name: string) => SECRETS[name];
const parse = (text: string) => parseAlertsConfig(text, 'alerts.yaml', env);
const problem = (text: string) => {
  try {
    parse(text);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigInvalidError);
    return (error as Error).message;
  }
  throw new Error('accepted');
};

describe('the routing file', () => {
  it('reads receivers with their secrets from references, and the routes in order', () => {
    const config = parse(ROUTES_YAML);
    expect(config.receivers.alertmanager).toEqual({
      bearer: 'am-token-1',
      basic: { username: 'alertmanager', password: 'am-password-1' },
    });
    expect(config.receivers.pagerduty).toEqual({
      secrets: ['pd-secret-new', 'pd-secret-old'],
      maxAgeSeconds: 3600,
    });
    expect(config.receivers.sns?.topics).toEqual(['arn:aws:sns:us-west-2:123456789012:MyTopic']);
    expect(config.routes.map((r) => r.name)).toEqual([
      'flink-oom',
      'glue-failures',
      'aws-alarms',
      'spark-pages',
      'dataflow',
    ]);
    expect(config.maxBodyBytes).toBe(1024 * 1024);
  });

  it('reads a secret from a file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'alerts-config-'));
    writeFileSync(join(dir, 'token'), 'from-a-file\n');
    const config = parse(
      `receivers: { alertmanager: { bearer: "file:${dir}/token" } }\nroutes: [{ name: a, channel: C0A1 }]`,
    );
    expect(config.receivers.alertmanager?.bearer).toBe('from-a-file');
  });

  it('refuses a secret written in the file, naming the key', () => {
    expect(
      problem('receivers: { alertmanager: { bearer: hunter2 } }\nroutes: [{ name: a, channel: C0A1 }]'),
    ).toMatch(/alerts\.yaml:[\s\S]*env:NAME or file:\/path[\s\S]*at receivers\.alertmanager\.bearer/);
  });

  it('names the file and the variable when a referenced secret is unset', () => {
    expect(
      problem('receivers: { gcp: { token: env:NOPE } }\nroutes: [{ name: a, channel: C0A1 }]'),
    ).toContain('alerts.yaml: receivers.gcp.token: NOPE is not set in the environment');
  });

  it('names the route key that is wrong', () => {
    expect(problem('receivers: { sns: { topics: [nope] } }\nroutes: [{ name: a, channel: C0A1 }]')).toMatch(
      /SNS topic ARN[\s\S]*at receivers\.sns\.topics\[0\]/,
    );
    expect(
      problem('receivers: { gcp: { token: env:GCP_TOKEN } }\nroutes: [{ name: a, channel: "#alerts" }]'),
    ).toMatch(/Slack channel id[\s\S]*at routes\[0\]\.channel/);
    expect(
      problem(
        'receivers: { gcp: { token: env:GCP_TOKEN } }\nroutes: [{ name: a, channel: C0A1, checks: { pod: "{{labels.pod}}" } }]',
      ),
    ).toMatch(/routes\[0\]\.checks/);
    expect(
      problem(
        'receivers: { gcp: { token: env:GCP_TOKEN } }\nroutes: [{ name: a, channel: C0A1, checks: { glue: "{{ a b }}" } }]',
      ),
    ).toMatch(/must name a field[\s\S]*at routes\[0\]\.checks\.glue/);
    expect(
      problem(
        'receivers: { gcp: { token: env:GCP_TOKEN } }\nroutes: [{ name: a, channel: C0A1, when: { kind: { regex: "(" } } }]',
      ),
    ).toMatch(/alerts\.yaml: routes\[0\]\.when\.kind\.regex is not a regular expression/);
  });

  it('refuses an Alertmanager receiver without credentials and a file without receivers', () => {
    expect(problem('receivers: { alertmanager: {} }\nroutes: [{ name: a, channel: C0A1 }]')).toMatch(
      /needs bearer or basic/,
    );
    expect(problem('receivers: {}\nroutes: [{ name: a, channel: C0A1 }]')).toMatch(/names no receiver/);
  });

  it('says which file MEMDOCTOR_ALERTS names when it cannot be read', () => {
    expect(() => loadAlertsConfig('/nonexistent/alerts.yaml', env)).toThrow(
      'MEMDOCTOR_ALERTS names /nonexistent/alerts.yaml, which cannot be read (ENOENT)',
    );
  });
});
