import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { ConfigInvalidError } from '../errors.ts';
import { type AccessRule, AccessRuleSettings } from './access-config.ts';
import { DataflowSettings, type DataflowTarget, dataflowTarget } from './dataflow-config.ts';
import { GlueSettings, type GlueTarget, glueTarget } from './glue-config.ts';
import { KubernetesSettings, type KubernetesTarget, kubernetesTarget } from './kubernetes-config.ts';

/** A header value memdoctor sends but never prints: logs, JSON and inspection show "[redacted]". */
export class Secret {
  readonly #value: string;
  constructor(value: string) {
    this.#value = value;
  }
  reveal(): string {
    return this.#value;
  }
  toString(): string {
    return '[redacted]';
  }
  toJSON(): string {
    return '[redacted]';
  }
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return '[redacted]';
  }
}

/** One REST API memdoctor may read: its base URL and the limits every request to it keeps. */
export interface RestTarget {
  /** Base URL without a trailing slash; every request stays under it. */
  url: string;
  headers: Readonly<Record<string, Secret>>;
  timeoutMs: number;
  maxBytes: number;
}

export const DEFAULT_TIMEOUT_MS = 5_000;
export const DEFAULT_MAX_BYTES = 8 * 1024 * 1024;

const SECRET_REF = /^(env:[A-Za-z_][A-Za-z0-9_]*|file:\/.+)$/;

const BaseUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL such as http://flink-jm:8081' })
  .refine((u) => !URL.canParse(u) || !new URL(u).username, {
    message:
      'must not carry a user or password: put credentials in headers, e.g. Authorization: env:FLINK_AUTH',
  })
  .refine((u) => !URL.canParse(u) || (!new URL(u).search && !new URL(u).hash), {
    message: 'must be a base URL without ?query or #fragment',
  });

const Rest = z.strictObject({
  url: BaseUrl,
  headers: z
    .record(
      z.string().regex(/^[A-Za-z0-9-]+$/, 'a header name is letters, digits and "-"'),
      z
        .string()
        .regex(
          SECRET_REF,
          'must be a reference, env:NAME or file:/absolute/path, never the secret itself in the file',
        ),
    )
    .default({}),
  timeoutMs: z.number().int().min(100).max(60_000).default(DEFAULT_TIMEOUT_MS),
  maxBytes: z
    .number()
    .int()
    .min(1024)
    .max(64 * 1024 * 1024)
    .default(DEFAULT_MAX_BYTES),
});

const ConnectorsFile = z.strictObject({
  flink: Rest.optional(),
  spark: Rest.optional(),
  yarn: Rest.optional(),
  kubernetes: KubernetesSettings.optional(),
  glue: GlueSettings.optional(),
  aws: z
    .never('is not a key: AWS Glue is read through a "glue:" entry (region, endpoint, profile)')
    .optional(),
  dataflow: DataflowSettings.optional(),
  /** Who may fetch from each connector in Slack, and where its answers may be shown (docs/connectors.md). */
  access: z
    .strictObject({
      flink: AccessRuleSettings.optional(),
      spark: AccessRuleSettings.optional(),
      yarn: AccessRuleSettings.optional(),
      kubernetes: AccessRuleSettings.optional(),
      glue: AccessRuleSettings.optional(),
      dataflow: AccessRuleSettings.optional(),
    })
    .optional(),
});

export type RestName = 'flink' | 'spark' | 'yarn';
/** Each connector's settings, by its key in connectors.yaml: REST APIs share one shape, client libraries have their own. */
export interface ConnectorTargets {
  flink: RestTarget;
  spark: RestTarget;
  yarn: RestTarget;
  kubernetes: KubernetesTarget;
  glue: GlueTarget;
  dataflow: DataflowTarget;
}
/** Every key of connectors.yaml that has a connector. */
export type ConnectorName = keyof ConnectorTargets;
/** Each connector's access rule, by its key; a connector without one: anyone asks, only the asker sees. */
export type AccessRules = Readonly<Partial<Record<ConnectorName, AccessRule>>>;
export type ConnectorsConfig = Partial<ConnectorTargets> & { access?: AccessRules };
export type { AccessRule, DataflowTarget, GlueTarget, KubernetesTarget };

/** How `env:NAME` is looked up (src/config.ts's secretFromEnv; tests pass a map). */
export type EnvLookup = (name: string) => string | undefined;

function resolveSecret(where: string, ref: string, env: EnvLookup): Secret {
  if (ref.startsWith('env:')) {
    const name = ref.slice(4);
    const value = env(name);
    if (value === undefined || value === '')
      throw new ConfigInvalidError(`${where} names env:${name}, but ${name} is not set`);
    return new Secret(value);
  }
  const path = ref.slice(5);
  try {
    return new Secret(readFileSync(path, 'utf8').trim());
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new ConfigInvalidError(`${where} names file:${path}, which cannot be read (${reason})`);
  }
}

/** The base URL without trailing slashes, cut by a loop (`/\/+$/` is quadratic on a run of slashes). */
function withoutTrailingSlashes(url: string): string {
  let end = url.length;
  while (end > 0 && url[end - 1] === '/') end--;
  return url.slice(0, end);
}

function target(file: string, name: string, rest: z.infer<typeof Rest>, env: EnvLookup): RestTarget {
  const headers: Record<string, Secret> = {};
  for (const [header, ref] of Object.entries(rest.headers))
    headers[header] = resolveSecret(`${file}: ${name}.headers.${header}`, ref, env);
  return {
    url: withoutTrailingSlashes(rest.url),
    headers,
    timeoutMs: rest.timeoutMs,
    maxBytes: rest.maxBytes,
  };
}

/** What a connectors.yaml is checked against besides the environment; tests point it at temporary files. */
export interface ConnectorsHost {
  /** Where the pod's service account volume is looked for (loadFromCluster's path prefix): '' in a pod. */
  serviceAccountPrefix?: string;
}

/** Validates a connectors.yaml already read; `file` names it in messages. */
export function parseConnectorsConfig(
  text: string,
  file: string,
  env: EnvLookup,
  host: ConnectorsHost = {},
): ConnectorsConfig {
  let raw: unknown;
  try {
    raw = parseYaml(text) ?? {};
  } catch (error) {
    throw new ConfigInvalidError(`${file} is not valid YAML: ${(error as Error).message}`);
  }
  const parsed = ConnectorsFile.safeParse(raw);
  if (!parsed.success) throw new ConfigInvalidError(`${file}:\n${z.prettifyError(parsed.error)}`);
  const config: ConnectorsConfig = {};
  for (const name of ['flink', 'spark', 'yarn'] as const) {
    const rest = parsed.data[name];
    if (rest) config[name] = target(file, name, rest, env);
  }
  if (parsed.data.kubernetes)
    config.kubernetes = kubernetesTarget(
      `${file}: kubernetes`,
      parsed.data.kubernetes,
      env,
      host.serviceAccountPrefix,
    );
  if (parsed.data.glue) config.glue = glueTarget(parsed.data.glue);
  if (parsed.data.dataflow) config.dataflow = dataflowTarget(parsed.data.dataflow);
  const access = parsed.data.access;
  if (access) {
    for (const name of Object.keys(access) as ConnectorName[])
      if (!config[name])
        throw new ConfigInvalidError(
          `${file}: access.${name} is set, but there is no "${name}:" entry to fetch from; add one or remove access.${name}`,
        );
    config.access = access;
  }
  return config;
}

/** Reads and validates the connectors.yaml that MEMDOCTOR_CONNECTORS names. */
export function loadConnectorsConfig(file: string, env: EnvLookup): ConnectorsConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new ConfigInvalidError(`MEMDOCTOR_CONNECTORS names ${file}, which cannot be read (${reason})`);
  }
  return parseConnectorsConfig(text, file, env);
}
