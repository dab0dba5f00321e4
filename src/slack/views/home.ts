import type { types } from '@slack/bolt';
import type { OutcomeRow } from '../../stats/outcomes.ts';
import { type Block, context, fitLines, header, mrkdwn, section } from './blocks.ts';
import { helpView } from './help.ts';
import { LIMITS } from './limits.ts';

/** One line of the Home tab: a title, where it is (a permalink when Slack gave one) and a detail. */
export interface HomeItem {
  title: string;
  channel: string;
  link?: string;
  detail: string;
  /** Who asked (a user id): shown as a mention, which mrkdwn escaping of the detail would break. */
  askedBy?: string;
}

/** What the Home tab shows one person. */
export interface HomeContent {
  walkthroughs: readonly HomeItem[];
  diagnoses: readonly HomeItem[];
  /** Undefined: this memdoctor keeps no outcomes. */
  outcomes?: readonly OutcomeRow[];
}

/** Slack user ids are upper-case letters and digits; anything else is not made a mention. */
const USER_ID = /^[A-Z0-9]+$/;

function itemLine(i: HomeItem): string {
  const title = i.link ? `<${i.link}|${mrkdwn(i.title)}>` : mrkdwn(i.title);
  const by = i.askedBy && USER_ID.test(i.askedBy) ? `, asked by <@${i.askedBy}>` : '';
  return `• ${title} in <#${i.channel}> · ${mrkdwn(i.detail)}${by}`;
}

function listSection(title: string, items: readonly HomeItem[], none: string): Block {
  if (items.length === 0) return section(`*${title}*\n_${none}_`);
  return section(`*${title}*\n${fitLines(items.map(itemLine), LIMITS.sectionText - 60)}`);
}

function outcomeLines(rows: readonly OutcomeRow[]): string[] {
  return rows
    .map((r) => ({ r, answered: r.counts.fixed + r.counts.not_fixed + r.counts.partly }))
    .filter((x) => x.answered > 0)
    .sort((a, b) => b.answered - a.answered)
    .map(
      ({ r, answered }) =>
        `• \`${r.playbook}\` → \`${r.cause}\`: fixed ${r.counts.fixed} of ${answered} (partly ${r.counts.partly})`,
    );
}

function outcomesSection(rows: readonly OutcomeRow[] | undefined): Block {
  if (!rows) return section('*What fixed it here*\n_This memdoctor does not keep outcomes._');
  const lines = outcomeLines(rows);
  if (lines.length === 0) return section('*What fixed it here*\n_No "Did this fix it?" answers yet._');
  return section(`*What fixed it here*\n${fitLines(lines, LIMITS.sectionText - 60)}`);
}

/** The App Home tab: the person's walkthroughs, recent diagnoses in their channels, outcomes, help. */
export function homeView(content: HomeContent): types.HomeView {
  const help = helpView();
  return {
    type: 'home',
    blocks: [
      header('memdoctor'),
      listSection('Your active walkthroughs', content.walkthroughs, 'None running.'),
      listSection('Recent diagnoses in your channels', content.diagnoses, 'None yet.'),
      outcomesSection(content.outcomes),
      { type: 'divider' },
      ...help.blocks,
      context('Figures are per workspace; memdoctor keeps ids and answers, never pasted logs.'),
    ],
  };
}
