import { loadConfig, redisTarget } from '../../config.ts';
import { UsageError } from '../../errors.ts';
import { connectTo } from '../../redis/connect.ts';
import { RedisKeys } from '../../redis/keys.ts';
import { RedisOutcomeStore } from '../../stats/redis.ts';
import { NO_STATS, statsTable } from '../../stats/report.ts';
import type { Command } from '../command.ts';

const WORKSPACE = /^[A-Za-z0-9_.]{1,64}$/;

/** `memdoctor stats <workspace>`: the outcomes `/memdoctor stats` shows, read from the same Redis. */
export const statsCommand: Command = {
  async run(args, io) {
    const [workspace] = args;
    if (!workspace || !WORKSPACE.test(workspace) || args.length > 1)
      throw new UsageError('stats needs one Slack workspace id (the team id, e.g. T0123ABCD).');
    const config = loadConfig();
    const target = redisTarget(config);
    if (!target)
      throw new UsageError(
        'stats reads the outcomes the Slack app keeps in Redis: set REDIS_URL (or REDIS_CLUSTER_NODES) to the Redis it uses.',
      );
    const redis = await connectTo(target);
    try {
      const rows = await new RedisOutcomeStore(redis, new RedisKeys(config.MEMDOCTOR_REDIS_PREFIX)).rows(
        workspace,
      );
      io.stdout.write(rows.length === 0 ? `${NO_STATS}\n` : `${statsTable(rows).join('\n')}\n`);
      return 0;
    } finally {
      redis.disconnect();
    }
  },
};
