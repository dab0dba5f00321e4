// @ts-nocheck
import { loadConfig } from '../../config.ts';
import { UsageError } from '../../errors.ts';
import type { Command } from '../command.ts';
import { Console } from '../console/console.ts';
import { configuredPlaybooks, openService } from '../console/start.ts';

/** `memdoctor resume <id>`: continues a walkthrough kept in Redis (after a restart, or another person's). */
export const resumeCommand: Command = {
  name: 'resume',
  summary: 'continue a walkthrough by its id (needs REDIS_URL across restarts)',
  usage: 'memdoctor resume <walkthrough-id>',
  async run(args, io) {
    const [id] = args;
    if (!id) throw new UsageError('resume needs the walkthrough id that walk printed.');
    const config = loadConfig();
    const service = await openService(config);
    try {
      const record = await service.get(id);
      const console = new Console(io, { playbooks: configuredPlaybooks(config), service });
      await console.resume(record.id);
      await console.run();
      return 0;
    } finally {
      await service.close();
    }
  },
};
