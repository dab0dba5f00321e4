import type { OutcomeRow } from '../../stats/outcomes.ts';
import { NO_STATS, statsTable } from '../../stats/report.ts';
import { context, fitLines, type MessageView, section } from './blocks.ts';
import { LIMITS } from './limits.ts';

/** `/memdoctor stats`: per playbook and cause, what was diagnosed, walked through, and what fixed it. */
export function statsView(rows: readonly OutcomeRow[] | undefined): MessageView {
  if (!rows) {
    const text = 'This memdoctor does not keep outcomes.';
    return { text, blocks: [section(text)] };
  }
  if (rows.length === 0) return { text: NO_STATS, blocks: [section(NO_STATS)] };
  const table = fitLines(statsTable(rows), LIMITS.sectionText - 60);
  return {
    text: `memdoctor outcomes: ${rows.length} playbook/cause rows`,
    blocks: [
      section(`*Outcomes in this workspace*\n\`\`\`${table}\`\`\``),
      context(
        'Cause `-`: walkthroughs counted before a conclusion (started, abandoned). A finished walkthrough and its "Did this fix it?" answer count under its conclusion.',
      ),
    ],
  };
}
