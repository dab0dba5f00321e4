import { loadConfig } from '../../config.ts';
import { openConsole } from '../../console.ts';
import { UsageError } from '../../errors.ts';
import type { Command } from '../command.ts';
import { Console } from '../console/console.ts';

/** `memdoctor resume <id>`: continues a walkthrough kept in Redis (after a restart, or another person's). */
export const resumeCommand: Command = {
  async run(args, io) {
    const [id] = args;
    if (!id) throw new UsageError('resume needs the walkthrough id that walk printed.');
    const config = loadConfig();
    const { playbooks, service, fetching, close } = await openConsole(config);
    try {
      const record = await service.get(id);
      const console = new Console(io, {
        playbooks,
        service,
        heapDumpBudget: config.MEMDOCTOR_HEAP_DUMP_BUDGET,
        ...(fetching ? { fetching } : {}),
      });
      await console.resume(record.id);
      await console.run();
      return 0;
    } finally {
      await close();
    }
  },
};
