import { existsSync, readdirSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { ConfigInvalidError } from './errors.ts';
import { isLoopbackHost } from './net.ts';
import { ClusterNodesSchema, type RedisTarget } from './redis/target.ts';

const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

const commaList = z
  .string()
  .optional()
  .transform((v) =>
    v
      ? v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : [],
  );

/**
 * Why a folder cannot be MEMDOCTOR_PLAYBOOKS_DIR, or undefined when it holds `<id>/playbook.yaml`
 * folders. Checked where playbooks are loaded (setup/playbooks.ts), not in the schema: commands that
 * read no playbook (`stats`) must run whatever the folder.
 */
export function playbooksDirProblem(dir: string): string | undefined {
  const path = resolve(dir);
  if (!existsSync(path)) return `there is no folder ${path}`;
  if (!statSync(path).isDirectory()) return `${path} is a file, not a folder of playbooks`;
  const holdsOne = readdirSync(path, { withFileTypes: true }).some(
    (entry) => entry.isDirectory() && existsSync(join(path, entry.name, 'playbook.yaml')),
  );
  return holdsOne ? undefined : `${path} holds no playbook (expected ${path}/<id>/playbook.yaml)`;
}

/** The URL, or undefined: zod runs refinements even on a value that already failed `z.url()`. */
function urlOf(text: string | undefined): URL | undefined {
  if (text === undefined || !URL.canParse(text)) return undefined;
  return new URL(text);
}

/** redis:// or rediss://, with at most a database number as its path (ioredis reads it as SELECT n). */
const redisUrl = optionalString.pipe(
  z
    .url('must be a URL such as redis://127.0.0.1:6379')
    .refine(
      (url) => /^rediss?:$/.test(urlOf(url)?.protocol ?? 'redis:'),
      'must start with redis:// or rediss://',
    )
    .refine(
      (url) => /^\/?\d*$/.test(urlOf(url)?.pathname ?? ''),
      'may only name a database number after the host, e.g. redis://127.0.0.1:6379/0',
    )
    .optional(),
);

/**
 * A whole number from the environment: unset or empty gives `fallback`; anything else must be digits
 * within [min, max], with a message that says so (z.coerce would take "1e3", " 4 " and "0x10").
 */
function wholeNumber(min: number, max: number, fallback: () => number) {
  const allowed = `a whole number from ${min} to ${max}`;
  return z
    .string()
    .optional()
    .transform((v, ctx) => {
      const text = v?.trim() ?? '';
      if (text === '') return fallback();
      const n = /^\d{1,15}$/.test(text) ? Number(text) : Number.NaN;
      if (Number.isInteger(n) && n >= min && n <= max) return n;
      ctx.addIssue({ code: 'custom', message: `must be ${allowed}, not "${text}"` });
      return z.NEVER;
    });
}

/** The Slack app's diagnosis threads by default: the cores less one for the event loop, at least 1. */
export function defaultEngineThreads(cores = availableParallelism()): number {
  return Math.max(1, cores - 1);
}

/**
 * One block thread for `memdoctor diagnose` where there is a second core: on a file it reads ranges
 * from the end while the first core reads on (src/engine/range-reader.ts). Measured on two cores
 * (docs/bench.md, 2026-12-06): a 1 GiB log 1.08-1.47x faster, no bench log slower, peak RSS 115-120
 * MiB against 80. More threads are not the default: untried beyond two cores, and each holds its heap.
 */
export function defaultDiagnoseThreads(cores = availableParallelism()): number {
  return cores > 1 ? 1 : 0;
}

const SIZE_UNITS: Record<string, number> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4 };

/**
 * A size in bytes from the environment, written as a number with an optional binary unit: `8g`,
 * `512m`, `1.5G`, `4GiB`, `4096` (bytes). Unset or empty gives `fallback`.
 */
function byteSize(fallback: number) {
  return z
    .string()
    .optional()
    .transform((v, ctx) => {
      const text = v?.trim() ?? '';
      if (text === '') return fallback;
      const match = /^(\d{1,9}(?:\.\d{1,3})?)\s*([kmgt]?)(?:i?b)?$/i.exec(text);
      const bytes = match
        ? Math.round(Number(match[1]) * (SIZE_UNITS[(match[2] ?? '').toLowerCase()] ?? 1))
        : 0;
      if (bytes > 0) return bytes;
      ctx.addIssue({
        code: 'custom',
        message: `must be a size such as 8g, 512m or 1.5g (binary units), not "${text}"`,
      });
      return z.NEVER;
    });
}

/**
 * The memory a heap dump's analysis may take by default: 8 GiB, a third of a 24 GiB machine that
 * also runs the bot, Redis and the other diagnoses. At the factor measured in
 * src/diagnosis/heap-budget.ts (2.5 bytes per dump byte since the two-pass reader) that is a dump of
 * about 3.1 GiB.
 */
export const DEFAULT_HEAP_DUMP_BUDGET = 8 * 1024 ** 3;

/** `true`/`1` or `false`/`0` (unset: false). */
const flag = z
  .enum(['true', 'false', '1', '0', ''], 'must be true or false')
  .optional()
  .transform((v) => v === 'true' || v === '1');

/** Every environment variable memdoctor reads. This module is the only reader of process.env. */
const Fields = z.object({
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SLACK_BOT_TOKEN: optionalString.pipe(z.string().startsWith('xoxb-', 'must start with "xoxb-"').optional()),
  SLACK_SIGNING_SECRET: optionalString,
  SLACK_APP_TOKEN: optionalString.pipe(z.string().startsWith('xapp-', 'must start with "xapp-"').optional()),
  SLACK_API_URL: optionalString.pipe(z.url('must be a URL such as https://slack.com/api/').optional()),
  /** Lets the bot token go over plain http to a loopback SLACK_API_URL: a fake Slack, never production. */
  MEMDOCTOR_ALLOW_HTTP_LOOPBACK: flag,
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** Set: GET /metrics is served on its own listener on this port (MEMDOCTOR_METRICS_HOST). */
  MEMDOCTOR_METRICS_PORT: optionalString.pipe(
    z
      .string()
      .regex(/^\d+$/, 'must be a port number (0-65535)')
      .transform(Number)
      .pipe(z.number().max(65535, 'must be a port number (0-65535)'))
      .optional(),
  ),
  /** Where that listener binds; loopback unless a scraper elsewhere must reach it. */
  MEMDOCTOR_METRICS_HOST: z.string().trim().min(1).default('127.0.0.1'),
  /** Set: scrapes must send `Authorization: Bearer <token>`; /metrics is then also served on PORT. */
  MEMDOCTOR_METRICS_TOKEN: optionalString.pipe(
    z.string().min(16, 'must be at least 16 characters').optional(),
  ),
  REDIS_URL: redisUrl,
  /** A Redis Cluster instead of one server: seed nodes `host:port,host:port` (or rediss:// URLs). */
  REDIS_CLUSTER_NODES: optionalString.pipe(ClusterNodesSchema.optional()),
  OPENAI_API_KEY: optionalString,
  OPENAI_BASE_URL: optionalString.pipe(z.url('must be a URL such as https://api.openai.com/v1').optional()),
  OPENAI_MODEL: z.string().trim().min(1).default('gpt-4.1-mini'),
  /** One model request's deadline, each retry included separately (the SDK's `timeout`). */
  OPENAI_TIMEOUT_MS: z.coerce.number().int().positive().default(20_000),
  /** Retries of connection errors, 408, 409, 429 (honouring Retry-After) and 5xx. */
  OPENAI_MAX_RETRIES: z.coerce.number().int().min(0).max(5).default(2),
  /** Approximate input tokens per model request; longer inputs are cut to fit. */
  MEMDOCTOR_LLM_MAX_INPUT_TOKENS: z.coerce.number().int().min(500).default(4000),
  /** Model requests one workspace may make per hour (cache hits are free). */
  MEMDOCTOR_LLM_REQUESTS_PER_HOUR: z.coerce.number().int().positive().default(30),
  /** How long a model answer is reused for the same redacted input. */
  MEMDOCTOR_LLM_CACHE_TTL_SECONDS: z.coerce
    .number()
    .int()
    .positive()
    .default(24 * 3600),
  /** Memory a heap dump's analysis may need (estimated from the dump's size before it starts): `8g`, `512m`. */
  MEMDOCTOR_HEAP_DUMP_BUDGET: byteSize(DEFAULT_HEAP_DUMP_BUDGET),
  MEMDOCTOR_MAX_UPLOAD_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(200 * 1024 * 1024),
  /** Bytes of pastes and uploads the Slack app holds at once (an upload: its chunks in hand); past it an input waits, then is told to retry. */
  MEMDOCTOR_MAX_INFLIGHT_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(128 * 1024 * 1024),
  MEMDOCTOR_MAX_EXPANDED_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(2 * 1024 * 1024 * 1024),
  MEMDOCTOR_ONCALL_USERS: commaList,
  MEMDOCTOR_ONCALL_GROUP: optionalString,
  /** Prefix of every Redis key (tests and shared Redis servers use their own). */
  MEMDOCTOR_REDIS_PREFIX: z
    .string()
    .trim()
    .regex(/^[\w.-]{1,64}$/, 'letters, digits, "_", "." and "-" only')
    .default('memdoctor'),
  /** Another playbooks folder than the one shipped (tests, site-specific playbooks). */
  MEMDOCTOR_PLAYBOOKS_DIR: optionalString,
  /** connectors.yaml: the Flink, Spark and YARN APIs `memdoctor check` may read (docs/connectors.md). */
  MEMDOCTOR_CONNECTORS: optionalString,
  /** alerts.yaml: the alert receivers `serve` mounts and where their alerts go (docs/alerts.md). */
  MEMDOCTOR_ALERTS: optionalString,
  /** Fetches (a check, a step's Fetch) one person may have running at once (src/diagnosis/fetch-limits.ts). */
  MEMDOCTOR_FETCHES_PER_USER: wholeNumber(1, 100, () => 2),
  /** Fetches one person may start in a minute. */
  MEMDOCTOR_FETCHES_PER_USER_PER_MINUTE: wholeNumber(1, 10_000, () => 10),
  /** Fetches running at once, everyone together; one more is refused with a message. */
  MEMDOCTOR_FETCHES_TOTAL: wholeNumber(1, 1000, () => 8),
  /**
   * Whom a terminal's fetches (`check`, the console's and `walk`'s Fetch, `mcp`'s check) count
   * against: a Slack `TEAM:MEMBER` pair shares that person's caps with their Slack checks; a plain
   * name counts as that terminal person. Unset: the OS user (docs/connectors.md "Fetch caps").
   */
  MEMDOCTOR_FETCH_AS: optionalString.pipe(
    z
      .string()
      .regex(
        /^[\w.@-]{1,64}(:[\w.@-]{1,64})?$/,
        'a name, or a Slack TEAM:MEMBER pair such as T0123ABCD:U0456EFGH (letters, digits, "_", ".", "@", "-")',
      )
      .optional(),
  ),
  /** Worker threads that diagnose for the Slack app (src/setup/engine-pool.ts). */
  MEMDOCTOR_ENGINE_THREADS: wholeNumber(1, 64, () => defaultEngineThreads()),
  /**
   * Threads that read parts of a large input for `memdoctor diagnose` (a file's ranges, any other
   * input's blocks); 0 reads it in order on one thread. They start only for an input long enough.
   */
  MEMDOCTOR_DIAGNOSE_THREADS: wholeNumber(0, 64, () => defaultDiagnoseThreads()),
  /** Inputs that may wait for a diagnosis thread; one more is refused as busy. */
  MEMDOCTOR_ENGINE_QUEUE: wholeNumber(0, 10_000, () => 32),
  /** Longest one input may take in a diagnosis thread before it is stopped (milliseconds). */
  MEMDOCTOR_ENGINE_TIMEOUT_MS: wholeNumber(100, 3_600_000, () => 60_000),
  MEMDOCTOR_WALKTHROUGH_TTL_SECONDS: z.coerce
    .number()
    .int()
    .positive()
    .default(7 * 24 * 3600),
  /** Inputs one case (a Slack thread, a console session) reads together; later ones are left out, and the answer says so. */
  MEMDOCTOR_CASE_MAX_INPUTS: wholeNumber(1, 100, () => 8),
  /** Bytes of text one case reads in all; an input that would pass it is left out, and the answer says so. */
  MEMDOCTOR_CASE_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(64 * 1024 * 1024),
});

type Fields = z.infer<typeof Fields>;

/**
 * Slack's credentials go together: half of them is a mistake, not a wish for the local console.
 * The issue sits on the variable that is set (a lenient load drops it) and names the missing one.
 */
function slackHalves(config: Fields, ctx: z.RefinementCtx): void {
  const token = config.SLACK_BOT_TOKEN !== undefined;
  const secret = config.SLACK_SIGNING_SECRET !== undefined;
  const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
  if (token && !secret)
    issue(
      'SLACK_BOT_TOKEN',
      'SLACK_SIGNING_SECRET is not set, but SLACK_BOT_TOKEN is: set SLACK_SIGNING_SECRET too to run the Slack app, or unset SLACK_BOT_TOKEN for the local console',
    );
  if (secret && !token)
    issue(
      'SLACK_SIGNING_SECRET',
      'SLACK_BOT_TOKEN is not set, but SLACK_SIGNING_SECRET is: set SLACK_BOT_TOKEN too to run the Slack app, or unset SLACK_SIGNING_SECRET for the local console',
    );
  if (config.SLACK_APP_TOKEN !== undefined && !token && !secret)
    issue(
      'SLACK_APP_TOKEN',
      'SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET are not set, but SLACK_APP_TOKEN is: Socket Mode needs them too',
    );
}

/** Checks across variables, each issue on the variable to change. */
function crossChecks(config: Fields, ctx: z.RefinementCtx): void {
  slackHalves(config, ctx);
  if (config.REDIS_URL && config.REDIS_CLUSTER_NODES)
    ctx.addIssue({
      code: 'custom',
      path: ['REDIS_CLUSTER_NODES'],
      message:
        'set either REDIS_URL (one Redis server) or REDIS_CLUSTER_NODES (a Redis Cluster), not both; unset one of them',
    });
  const api = urlOf(config.SLACK_API_URL);
  const loopbackHttp =
    api?.protocol === 'http:' && config.MEMDOCTOR_ALLOW_HTTP_LOOPBACK && isLoopbackHost(api.hostname);
  if (api && api.protocol !== 'https:' && !loopbackHttp)
    ctx.addIssue({
      code: 'custom',
      path: ['SLACK_API_URL'],
      message:
        'must be an https:// URL: the bot token is sent to it (plain http only to 127.0.0.1 or localhost, with MEMDOCTOR_ALLOW_HTTP_LOOPBACK=true)',
    });
}

export const ConfigSchema = Fields.superRefine(crossChecks);

export type Config = z.infer<typeof ConfigSchema>;

/** Parses the environment once; a bad value fails fast with a message naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) throw new ConfigInvalidError(z.prettifyError(parsed.error));
  return parsed.data;
}

/**
 * For commands that work without most settings (`diagnose`, `playbooks`): a bad value is reported as
 * the problem and falls back to its default instead of stopping the command.
 */
export function loadConfigLeniently(env: NodeJS.ProcessEnv = process.env): {
  config: Config;
  problem?: ConfigInvalidError;
} {
  const parsed = ConfigSchema.safeParse(env);
  if (parsed.success) return { config: parsed.data };
  const bad = new Set(parsed.error.issues.map((issue) => String(issue.path[0])));
  const kept = Object.fromEntries(Object.entries(env).filter(([name]) => !bad.has(name)));
  return { config: ConfigSchema.parse(kept), problem: new ConfigInvalidError(z.prettifyError(parsed.error)) };
}

/** How the Slack app's diagnosis pool is sized (EnginePoolOptions without the playbooks). */
export function enginePoolSettings(config: Config): { threads: number; maxQueue: number; budgetMs: number } {
  return {
    threads: config.MEMDOCTOR_ENGINE_THREADS,
    maxQueue: config.MEMDOCTOR_ENGINE_QUEUE,
    budgetMs: config.MEMDOCTOR_ENGINE_TIMEOUT_MS,
  };
}

/** How much one case reads (MEMDOCTOR_CASE_MAX_INPUTS, MEMDOCTOR_CASE_MAX_BYTES). */
export function caseLimits(config: Config): { maxInputs: number; maxBytes: number } {
  return { maxInputs: config.MEMDOCTOR_CASE_MAX_INPUTS, maxBytes: config.MEMDOCTOR_CASE_MAX_BYTES };
}

/** The Redis the configuration names (a cluster or one server), or undefined for memory. */
export function redisTarget(
  config: Pick<Config, 'REDIS_URL' | 'REDIS_CLUSTER_NODES'>,
): RedisTarget | undefined {
  if (config.REDIS_CLUSTER_NODES) return { kind: 'cluster', seeds: config.REDIS_CLUSTER_NODES };
  return config.REDIS_URL ? { kind: 'server', url: config.REDIS_URL } : undefined;
}

/** Slack runs when both the bot token and the signing secret are set; otherwise the local console. */
export function slackConfigured(config: Config): boolean {
  return config.SLACK_BOT_TOKEN !== undefined && config.SLACK_SIGNING_SECRET !== undefined;
}

/** The terminal's colour settings (https://no-color.org, FORCE_COLOR), for the CLI's output only. */
export function terminalEnv(env: NodeJS.ProcessEnv = process.env): {
  NO_COLOR?: string;
  FORCE_COLOR?: string;
  TERM?: string;
} {
  return { NO_COLOR: env.NO_COLOR, FORCE_COLOR: env.FORCE_COLOR, TERM: env.TERM };
}

/**
 * The value of one environment variable a connectors.yaml names as `env:NAME` (a secret: never log
 * it). Here because this module is the only reader of process.env.
 */
export function secretFromEnv(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env[name];
}
