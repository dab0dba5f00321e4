// @ts-nocheck
import { UsageError } from '../../errors.ts';
import { runFixtures } from '../../playbooks/fixtures.ts';
import { loadPlaybooks, PLAYBOOKS_DIR } from '../../playbooks/load.ts';
import type { Command } from '../command.ts';

/** `memdoctor playbooks list|lint|test`. */
export const playbooksCommand: Command = {
  name: 'playbooks',
  summary: 'list, lint or test the playbooks',
  usage: 'memdoctor playbooks list|lint|test',
  async run(args, io) {
    const verb = args[0] ?? 'list';
    if (verb === 'list') {
      for (const p of loadPlaybooks()) io.stdout.write(`${p.id.padEnd(32)} ${p.title}\n`);
      return 0;
    }
    if (verb === 'lint') {
      const playbooks = loadPlaybooks();
      io.stdout.write(`${playbooks.length} playbooks in ${PLAYBOOKS_DIR} are valid.\n`);
      return 0;
    }
    if (verb === 'test') {
      const results = await runFixtures(loadPlaybooks());
      let failed = 0;
      for (const r of results) {
        if (!r.ok) failed++;
        io.stdout.write(
          `${r.ok ? 'ok  ' : 'FAIL'} ${r.playbook}/${r.fixture}${r.ok ? '' : `: ${r.detail}`}\n`,
        );
      }
      io.stdout.write(`${results.length - failed} passed, ${failed} failed\n`);
      return failed > 0 ? 1 : 0;
    }
    throw new UsageError(`unknown playbooks verb "${verb}": use list, lint or test.`);
  },
};
