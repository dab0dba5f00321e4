import { loadConfig } from '../../config.ts';
import { openOutcomeReader } from '../../console.ts';
import { UsageError } from '../../errors.ts';
import { NO_STATS, readStats, statsTable } from '../../usecases/read-stats.ts';
import type { Command } from '../command.ts';

const WORKSPACE = /^[A-Za-z0-9_.]{1,64}$/;

/** `memdoctor stats <workspace>`: the outcomes `/memdoctor stats` shows, read from the same Redis. */
export const statsCommand: Command = {
  async run(args, io) {
    const [workspace] = args;
    if (!workspace || !WORKSPACE.test(workspace) || args.length > 1)
      throw new UsageError('stats needs one Slack workspace id (the team id, e.g. T0123ABCD).');
    const reader = await openOutcomeReader(loadConfig());
    try {
      const rows = (await readStats(reader, workspace)) ?? [];
      io.stdout.write(rows.length === 0 ? `${NO_STATS}\n` : `${statsTable(rows).join('\n')}\n`);
      return 0;
    } finally {
      reader.close();
    }
  },
};
