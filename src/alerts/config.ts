import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { ConfigInvalidError } from '../errors.ts';
import type { AlertSource } from '../incidents/types.ts';
import { CONNECTOR_NAMES } from '../usecases/connector-names.ts';

/**
 * The routing file MEMDOCTOR_ALERTS names: which receivers are served and with which credentials,
 * which alerts go to which Slack channel, and how an alert's fields become the ids `check` takes.
 * Secrets are only ever references (`env:NAME`, `file:/path`), read once here.
 */

const SECRET_REF = /^(env:[A-Za-z_][A-Za-z0-9_]*|file:\/.+)$/;
const SecretRef = z
  .string()
  .regex(SECRET_REF, 'must be a reference, env:NAME or file:/path, never the secret itself');

const Basic = z.strictObject({ username: z.string().min(1), password: SecretRef });

const Alertmanager = z
  .strictObject({ bearer: SecretRef.optional(), basic: Basic.optional() })
  .refine((r) => r.bearer !== undefined || r.basic !== undefined, {
    message:
      'needs bearer or basic: Alertmanager must authenticate (http_config authorization or basic_auth)',
  });

const PagerDuty = z.strictObject({
  /** Several during a rotation: PagerDuty then signs with each. */
  secrets: z.array(SecretRef).min(1, 'needs the signing secret of the webhook subscription'),
  maxAgeSeconds: z.number().int().positive().default(3600),
});

const TopicArn = z
  .string()
  .regex(/^arn:aws(-cn|-us-gov)?:sns:[a-z0-9-]+:\d{12}:[\w-]{1,256}$/, 'must be an SNS topic ARN');

const Sns = z.strictObject({
  topics: z.array(TopicArn).min(1, 'needs the topic ARNs whose messages are accepted'),
  maxAgeSeconds: z.number().int().positive().default(3600),
});

const Gcp = z
  .strictObject({ token: SecretRef.optional(), basic: Basic.optional() })
  .refine((r) => r.token !== undefined || r.basic !== undefined, {
    message: 'needs token (the ?token= of the channel URL) or basic (a webhook_basicauth channel)',
  });

export type AlertConnector = (typeof CONNECTOR_NAMES)[number];

const FIELD_PATH = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;
const Template = z
  .string()
  .min(1)
  .refine(
    (t) => [...t.matchAll(/\{\{([^{}]{0,200})\}\}/g)].every((m) => FIELD_PATH.test((m[1] ?? '').trim())),
    {
      message: 'each {{...}} must name a field such as labels.pod or detail.jobRunId',
    },
  );

const Matcher = z.union([z.string(), z.strictObject({ regex: z.string() })]);

const Route = z.strictObject({
  name: z.string().min(1),
  /** A Slack channel id, as the bot posts to it. */
  channel: z.string().regex(/^[CG][A-Z0-9]{2,}$/, 'must be a Slack channel id such as C0123ABCD'),
  /** Every key must match: `source`, `kind`, `status`, or a field path such as labels.alertname. */
  when: z
    .record(z.string().regex(FIELD_PATH, 'must be source, kind, status or a field path'), Matcher)
    .default({}),
  checks: z.partialRecord(z.enum(CONNECTOR_NAMES), Template).default({}),
});

const AlertsFile = z.strictObject({
  maxBodyBytes: z
    .number()
    .int()
    .min(1024)
    .max(8 * 1024 * 1024)
    .default(1024 * 1024),
  receivers: z
    .strictObject({
      alertmanager: Alertmanager.optional(),
      pagerduty: PagerDuty.optional(),
      sns: Sns.optional(),
      gcp: Gcp.optional(),
    })
    .refine((r) => Object.values(r).some((v) => v !== undefined), { message: 'names no receiver' }),
  routes: z.array(Route).min(1, 'needs at least one route'),
});

export type Matcher = z.infer<typeof Matcher>;
export type RouteConfig = z.infer<typeof Route>;

export interface BasicCredentials {
  username: string;
  password: string;
}

/** The routing file with its secrets read and its matchers compiled. */
export interface AlertsConfig {
  file: string;
  maxBodyBytes: number;
  receivers: {
    alertmanager?: { bearer?: string; basic?: BasicCredentials };
    pagerduty?: { secrets: string[]; maxAgeSeconds: number };
    sns?: { topics: string[]; maxAgeSeconds: number };
    gcp?: { token?: string; basic?: BasicCredentials };
  };
  routes: RouteConfig[];
}

export type EnvLookup = (name: string) => string | undefined;

function secret(ref: string, where: string, env: EnvLookup): string {
  if (ref.startsWith('env:')) {
    const value = env(ref.slice(4));
    if (!value) throw new ConfigInvalidError(`${where}: ${ref.slice(4)} is not set in the environment`);
    return value;
  }
  try {
    const value = readFileSync(ref.slice(5), 'utf8').trim();
    if (value) return value;
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new ConfigInvalidError(`${where}: ${ref.slice(5)} cannot be read (${reason})`);
  }
  throw new ConfigInvalidError(`${where}: ${ref.slice(5)} is empty`);
}

function basic(b: z.infer<typeof Basic> | undefined, where: string, env: EnvLookup) {
  return b ? { basic: { username: b.username, password: secret(b.password, `${where}.password`, env) } } : {};
}

function checkRegexes(routes: RouteConfig[], file: string): void {
  routes.forEach((route, i) => {
    for (const [key, matcher] of Object.entries(route.when)) {
      if (typeof matcher === 'string') continue;
      try {
        new RegExp(matcher.regex);
      } catch (error) {
        throw new ConfigInvalidError(
          `${file}: routes[${i}].when.${key}.regex is not a regular expression (${(error as Error).message})`,
        );
      }
    }
  });
}

/** Validates a routing file already read; `file` names it in every message. */
export function parseAlertsConfig(text: string, file: string, env: EnvLookup): AlertsConfig {
  let raw: unknown;
  try {
    raw = parseYaml(text) ?? {};
  } catch (error) {
    throw new ConfigInvalidError(`${file} is not valid YAML: ${(error as Error).message}`);
  }
  const parsed = AlertsFile.safeParse(raw);
  if (!parsed.success) throw new ConfigInvalidError(`${file}:\n${z.prettifyError(parsed.error)}`);
  const { receivers: r, routes, maxBodyBytes } = parsed.data;
  checkRegexes(routes, file);
  const at = (key: string) => `${file}: receivers.${key}`;
  const receivers: AlertsConfig['receivers'] = {};
  if (r.alertmanager)
    receivers.alertmanager = {
      ...(r.alertmanager.bearer
        ? { bearer: secret(r.alertmanager.bearer, at('alertmanager.bearer'), env) }
        : {}),
      ...basic(r.alertmanager.basic, at('alertmanager.basic'), env),
    };
  if (r.pagerduty)
    receivers.pagerduty = {
      secrets: r.pagerduty.secrets.map((s, i) => secret(s, at(`pagerduty.secrets[${i}]`), env)),
      maxAgeSeconds: r.pagerduty.maxAgeSeconds,
    };
  if (r.sns) receivers.sns = { topics: r.sns.topics, maxAgeSeconds: r.sns.maxAgeSeconds };
  if (r.gcp)
    receivers.gcp = {
      ...(r.gcp.token ? { token: secret(r.gcp.token, at('gcp.token'), env) } : {}),
      ...basic(r.gcp.basic, at('gcp.basic'), env),
    };
  return { file, maxBodyBytes, receivers, routes };
}

/** Reads and validates the routing file MEMDOCTOR_ALERTS names. */
export function loadAlertsConfig(file: string, env: EnvLookup): AlertsConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new ConfigInvalidError(`MEMDOCTOR_ALERTS names ${file}, which cannot be read (${reason})`);
  }
  return parseAlertsConfig(text, file, env);
}

/** The receivers' paths on serve's HTTP server. */
export const RECEIVER_PATHS: Readonly<Record<AlertSource, string>> = {
  alertmanager: '/alerts/alertmanager',
  pagerduty: '/alerts/pagerduty',
  sns: '/alerts/sns',
  'gcp-monitoring': '/alerts/gcp',
};
