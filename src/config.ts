import { z } from 'zod';
import { ConfigInvalidError } from './errors.ts';
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

/** Every environment variable memdoctor reads. This module is the only reader of process.env. */
export const ConfigSchema = z
  .object({
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    SLACK_BOT_TOKEN: optionalString.pipe(
      z.string().startsWith('xoxb-', 'must start with "xoxb-"').optional(),
    ),
    SLACK_SIGNING_SECRET: optionalString,
    SLACK_APP_TOKEN: optionalString.pipe(
      z.string().startsWith('xapp-', 'must start with "xapp-"').optional(),
    ),
    SLACK_API_URL: optionalString.pipe(z.url('must be a URL such as https://slack.com/api/').optional()),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    REDIS_URL: optionalString.pipe(z.url('must be a URL such as redis://127.0.0.1:6379').optional()),
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
    MEMDOCTOR_MAX_UPLOAD_BYTES: z.coerce
      .number()
      .int()
      .positive()
      .default(200 * 1024 * 1024),
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
    MEMDOCTOR_WALKTHROUGH_TTL_SECONDS: z.coerce
      .number()
      .int()
      .positive()
      .default(7 * 24 * 3600),
  })
  .superRefine((config, ctx) => {
    if (config.REDIS_URL && config.REDIS_CLUSTER_NODES)
      ctx.addIssue({
        code: 'custom',
        path: ['REDIS_CLUSTER_NODES'],
        message:
          'set either REDIS_URL (one Redis server) or REDIS_CLUSTER_NODES (a Redis Cluster), not both; unset one of them',
      });
  });

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
