import { parseArgs } from 'node:util';
import { loadConfig } from '../../config.ts';
import { configuredPlaybooks, openConsole } from '../../console.ts';
import { UsageError } from '../../errors.ts';
import { findPlaybook } from '../../playbooks/load.ts';
import type { Command } from '../command.ts';
import { Console } from '../console/console.ts';

/** `memdoctor walk <playbook>`: steps through a playbook's procedure on stdin/stdout. */
export const walkCommand: Command = {
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args: [...args],
      allowPositionals: true,
      options: { from: { type: 'string' } },
    });
    const [id] = positionals;
    if (!id) throw new UsageError('walk needs a playbook id; memdoctor playbooks list shows them.');
    const config = loadConfig();
    const known = configuredPlaybooks(config);
    findPlaybook(known, id);
    const { playbooks, service, fetching, close } = await openConsole(config, { playbooks: known });
    try {
      const console = new Console(io, {
        playbooks,
        service,
        heapDumpBudget: config.MEMDOCTOR_HEAP_DUMP_BUDGET,
        ...(fetching ? { fetching } : {}),
      });
      if (values.from) await console.diagnoseFile(values.from);
      await console.walk(id);
      await console.run();
      return 0;
    } finally {
      await close();
    }
  },
};
