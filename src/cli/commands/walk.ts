import { parseArgs } from 'node:util';
import { loadConfig } from '../../config.ts';
import { UsageError } from '../../errors.ts';
import { findPlaybook } from '../../playbooks/load.ts';
import { configuredPlaybooks } from '../../setup/playbooks.ts';
import { openWalkthroughs } from '../../setup/walkthroughs.ts';
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
    const playbooks = configuredPlaybooks(config);
    findPlaybook(playbooks, id);
    const service = await openWalkthroughs(config);
    try {
      const console = new Console(io, { playbooks, service });
      if (values.from) await console.diagnoseFile(values.from);
      await console.walk(id);
      await console.run();
      return 0;
    } finally {
      await service.close();
    }
  },
};
