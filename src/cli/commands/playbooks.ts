import { loadConfigLeniently } from '../../config.ts';
import { playbooksDir } from '../../console.ts';
import { UsageError } from '../../errors.ts';
import { runFixtures } from '../../playbooks/fixtures.ts';
import { loadPlaybooks } from '../../playbooks/load.ts';
import type { Command } from '../command.ts';

/** `memdoctor playbooks list|lint|test`, over the configured folder (MEMDOCTOR_PLAYBOOKS_DIR). */
export const playbooksCommand: Command = {
  async run(args, io) {
    const verb = args[0] ?? 'list';
    if (!['list', 'lint', 'test'].includes(verb))
      throw new UsageError(`unknown playbooks verb "${verb}": use list, lint or test.`);
    const dir = playbooksDir(loadConfigLeniently().config);
    const playbooks = loadPlaybooks(dir);
    if (verb === 'list') {
      for (const p of playbooks) io.stdout.write(`${p.id.padEnd(32)} ${p.title}\n`);
      return 0;
    }
    if (verb === 'lint') {
      io.stdout.write(`${playbooks.length} playbooks in ${dir} are valid.\n`);
      return 0;
    }
    const results = await runFixtures(playbooks);
    let failed = 0;
    for (const r of results) {
      if (!r.ok) failed++;
      io.stdout.write(`${r.ok ? 'ok  ' : 'FAIL'} ${r.playbook}/${r.fixture}${r.ok ? '' : `: ${r.detail}`}\n`);
    }
    io.stdout.write(`${results.length - failed} passed, ${failed} failed\n`);
    return failed > 0 ? 1 : 0;
  },
};
