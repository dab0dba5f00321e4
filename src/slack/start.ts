import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { ConfigInvalidError } from '../errors.ts';
import { createLogger } from '../log.ts';
import { loadPlaybooks } from '../playbooks/load.ts';
import { createSlackApp } from './app.ts';
import { MemoryEventDedupe, RedisEventDedupe } from './dedupe.ts';
import type { Health, SlackDeps } from './deps.ts';
import { allowedFileHosts } from './download.ts';
import { OncallPolicy } from './oncall.ts';
import { createWalkthroughs } from './walkthroughs.ts';

/** Every Redis key memdoctor's Slack layer writes starts with this. */
export const REDIS_PREFIX = 'memdoctor:';

async function redisUp(redis: Redis): Promise<boolean> {
  try {
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  }
}

/** Builds the listeners' dependencies from the configuration: store, dedupe, playbooks, health. */
export function buildDeps(config: Config, log: Logger, redis?: Redis): SlackDeps {
  const token = config.SLACK_BOT_TOKEN;
  if (!token) throw new ConfigInvalidError('SLACK_BOT_TOKEN is not set; the Slack app needs it.');
  const playbooks = loadPlaybooks();
  if (!redis)
    log.warn(
      'REDIS_URL is not set: walkthroughs and event dedupe live in this process only. They are lost on restart and other replicas will not see them; set REDIS_URL for production.',
    );
  const health = async (): Promise<Health> => {
    if (!redis) return { ok: true, store: 'memory', playbooks: playbooks.length };
    const up = await redisUp(redis);
    return { ok: up, store: 'redis', redis: up ? 'up' : 'down', playbooks: playbooks.length };
  };
  return {
    settings: {
      botToken: token,
      maxUploadBytes: config.MEMDOCTOR_MAX_UPLOAD_BYTES,
      maxExpandedBytes: config.MEMDOCTOR_MAX_EXPANDED_BYTES,
      fileHosts: allowedFileHosts(config.SLACK_API_URL),
    },
    playbooks,
    dedupe: redis ? new RedisEventDedupe(redis, REDIS_PREFIX) : new MemoryEventDedupe(),
    walkthroughs: createWalkthroughs(config, playbooks, redis),
    oncall: new OncallPolicy(config.MEMDOCTOR_ONCALL_USERS, config.MEMDOCTOR_ONCALL_GROUP),
    log,
    health,
  };
}

/** Starts the Slack bot: HTTP on PORT (/slack/events, /healthz), or Socket Mode with SLACK_APP_TOKEN. */
export async function startSlack(config: Config): Promise<void> {
  const log = createLogger(config.LOG_LEVEL).child({ module: 'slack' });
  const { SLACK_BOT_TOKEN: botToken, SLACK_SIGNING_SECRET: signingSecret } = config;
  if (!botToken || !signingSecret)
    throw new ConfigInvalidError(
      'SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET must both be set to run the Slack app.',
    );
  const redis = config.REDIS_URL ? new Redis(config.REDIS_URL, { maxRetriesPerRequest: 3 }) : undefined;
  const deps = buildDeps(config, log, redis);
  const app = createSlackApp(deps, {
    botToken,
    signingSecret,
    port: config.PORT,
    ...(config.SLACK_APP_TOKEN ? { appToken: config.SLACK_APP_TOKEN } : {}),
    ...(config.SLACK_API_URL ? { slackApiUrl: config.SLACK_API_URL } : {}),
  });
  await app.start(config.PORT);
  log.info(
    {
      port: config.PORT,
      transport: config.SLACK_APP_TOKEN ? 'socket-mode' : 'http',
      store: redis ? 'redis' : 'memory',
    },
    'memdoctor Slack app started',
  );
  const stop = async () => {
    await app.stop();
    redis?.disconnect();
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
}
