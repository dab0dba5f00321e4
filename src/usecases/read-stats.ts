import type { OutcomeRow, OutcomeStore } from '../stats/outcomes.ts';
import { NO_STATS, statsTable } from '../stats/report.ts';

export type { OutcomeRow };
export { NO_STATS, statsTable };

/** A workspace's outcomes, per playbook and cause; undefined when no outcomes are kept. */
export async function readStats(
  context: { outcomes?: OutcomeStore },
  workspace: string,
): Promise<OutcomeRow[] | undefined> {
  return context.outcomes ? context.outcomes.rows(workspace) : undefined;
}
