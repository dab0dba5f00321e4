// @ts-nocheck
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Playbook } from '../engine/playbook/schema.ts';
import { asMemdoctorError, ConfigInvalidError } from '../errors.ts';
import { createLlmAssist, type LlmAssist } from '../llm/assist.ts';
import { createLogger } from '../log.ts';
import { loadPlaybooks, PLAYBOOKS_DIR } from '../playbooks/load.ts';
import { connectRedis, openStore, WalkthroughService } from '../walkthrough/index.ts';
import { createSlackApp } from './app.ts';
import { MemoryEventDedupe, RedisEventDedupe } from './dedupe.ts';
import type { Health, SlackDeps } from './deps.ts';
import { allowedFileHosts } from './download.ts';
import { OncallPolicy } from './oncall.ts';

const MEMORY_WARNING =
  'REDIS_URL is not set: walkthroughs and event dedupe live in this process only. They are lost on restart and other replicas will not see them; set REDIS_URL for production.';

async function redisUp(redis: Redis): Promise<boolean> {
  try {
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  }
}

/** What startSlack builds from the configuration before wiring the app. */
export interface SlackResources {
  playbooks: readonly Playbook[];
  walkthroughs: WalkthroughService;
  /** Set with REDIS_URL: event dedupe and the health check use it. */
  redis?: Redis;
}

/** The model assist when one is configured; a configuration error turns it off with a warning. */
function modelAssist(config: Config, log: Logger, redis: Redis | undefined): LlmAssist | undefined {
  try {
    return createLlmAssist(config, {
      log,
      keyPrefix: config.MEMDOCTOR_REDIS_PREFIX,
      ...(redis ? { redis } : {}),
    });
  } catch (error) {
    log.warn({ err: asMemdoctorError(error).message }, 'model assist off');
    return undefined;
  }
}

/** Builds the listeners' dependencies: settings, dedupe (Redis or memory), on-call policy, health. */
export function buildDeps(config: Config, log: Logger, resources: SlackResources): SlackDeps {
  const token = config.SLACK_BOT_TOKEN;
  if (!token) throw new ConfigInvalidError('SLACK_BOT_TOKEN is not set; the Slack app needs it.');
  const { playbooks, walkthroughs, redis } = resources;
  const health = async (): Promise<Health> => {
    if (!redis) return { ok: true, store: 'memory', playbooks: playbooks.length };
    const up = await redisUp(redis);
    return { ok: up, store: 'redis', redis: up ? 'up' : 'down', playbooks: playbooks.length };
  };
  const prefix = `${config.MEMDOCTOR_REDIS_PREFIX}:`;
  const assist = modelAssist(config, log, redis);
  return {
    settings: {
      botToken: token,
      maxUploadBytes: config.MEMDOCTOR_MAX_UPLOAD_BYTES,
      maxExpandedBytes: config.MEMDOCTOR_MAX_EXPANDED_BYTES,
      fileHosts: allowedFileHosts(config.SLACK_API_URL),
    },
    playbooks,
    dedupe: redis ? new RedisEventDedupe(redis, prefix) : new MemoryEventDedupe(),
    walkthroughs,
    oncall: new OncallPolicy(config.MEMDOCTOR_ONCALL_USERS, config.MEMDOCTOR_ONCALL_GROUP),
    log,
    health,
    ...(assist ? { assist } : {}),
  };
}

/**
 * Starts the Slack bot: HTTP on PORT (/slack/events, /healthz), or Socket Mode with SLACK_APP_TOKEN.
 * Redis (REDIS_URL) holds walkthroughs and event dedupe, so any replica can serve any request.
 */
export async function startSlack(config: Config): Promise<void> {
  const log = createLogger(config.LOG_LEVEL).child({ module: 'slack' });
  const { SLACK_BOT_TOKEN: botToken, SLACK_SIGNING_SECRET: signingSecret } = config;
  if (!botToken || !signingSecret)
    throw new ConfigInvalidError(
      'SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET must both be set to run the Slack app.',
    );
  const playbooks = loadPlaybooks(config.MEMDOCTOR_PLAYBOOKS_DIR ?? PLAYBOOKS_DIR);
  const walkthroughs = new WalkthroughService({ store: await openStore(config), logger: log });
  const redis = config.REDIS_URL ? await connectRedis(config.REDIS_URL) : undefined;
  if (!redis) log.warn(MEMORY_WARNING);
  const deps = buildDeps(config, log, { playbooks, walkthroughs, ...(redis ? { redis } : {}) });
  const app = createSlackApp(deps, {
    botToken,
    signingSecret,
    port: config.PORT,
    ...(config.SLACK_APP_TOKEN ? { appToken: config.SLACK_APP_TOKEN } : {}),
    ...(config.SLACK_API_URL ? { slackApiUrl: config.SLACK_API_URL } : {}),
  });
  await app.start(config.PORT);
  const transport = config.SLACK_APP_TOKEN ? 'socket-mode' : 'http';
  log.info({ port: config.PORT, transport, store: walkthroughs.storeKind }, 'memdoctor Slack app started');
  const stop = async () => {
    await app.stop();
    await walkthroughs.close();
    redis?.disconnect();
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
}
