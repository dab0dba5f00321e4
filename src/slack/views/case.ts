import type { CaseAnswer } from '../../usecases/add-to-case.ts';
import { unmatchedEngineText } from '../../usecases/answer-text.ts';
import type { Playbook } from '../../usecases/types.ts';
import { ACTION, BLOCK } from '../ids.ts';
import { packAlternatives } from './alternatives.ts';
import {
  actions,
  type Block,
  type ButtonElement,
  button,
  capBlocks,
  context,
  cut,
  fitLines,
  header,
  type MessageView,
  mrkdwn,
  section,
} from './blocks.ts';
import { actionsText, causeText, percent } from './diagnosis.ts';
import { LIMITS } from './limits.ts';
import { packWalkSeed } from './walk-seed.ts';

type CaseView = Pick<CaseAnswer, 'report' | 'lead' | 'known'> & {
  change?: Pick<CaseAnswer['change'], 'summary'>;
};
type Lead = NonNullable<CaseAnswer['lead']>;
type Top = Lead['diagnoses'][number];

/** Evidence lines as `input:line`, so a reader finds each in the file it came from. */
function evidenceBlock(top: Top): Block {
  const lines = top.evidence.map(
    (e) => `${mrkdwn(e.input)}:${e.line}: ${mrkdwn(e.text).replace(/```/g, "'''")}`,
  );
  return section(`*Evidence*\n\`\`\`${fitLines(lines, LIMITS.sectionText - 40)}\`\`\``);
}

function caseButtons(top: Top, rest: readonly Top[], playbook: Playbook | undefined, view: CaseView) {
  const out: ButtonElement[] = [];
  if (playbook?.procedure !== undefined)
    out.push(
      button('Start walkthrough', ACTION.startWalkthrough, packWalkSeed(top.playbook, view.known), 'primary'),
    );
  if (rest.length > 0) out.push(button('Show alternatives', ACTION.showAlternatives, packAlternatives(rest)));
  out.push(button('Not a memory problem', ACTION.notMemory, top.playbook));
  return out;
}

/**
 * The cause another input of the same process decided (a pmap's arenas for an overhead kill), said
 * first with the line that decided it; else the playbook's cause, as for a single input.
 */
function caseCauseText(top: Top, playbook: Playbook | undefined): string {
  const refined = top.refinedBy;
  if (!refined) return causeText(top, playbook);
  const from = `${mrkdwn(refined.evidence.input)}:${refined.evidence.line}`;
  return `*Likely cause: ${mrkdwn(refined.title)}* (from ${from})\n${mrkdwn(refined.because)}`;
}

/** Where the inputs of the lead group disagree about one process, said rather than averaged. */
function contradictionBlocks(view: CaseView): Block[] {
  const said = view.lead?.contradictions ?? [];
  return said.length > 0
    ? [section(cut(`:warning: ${said.map(mrkdwn).join('\n')}`, LIMITS.sectionText))]
    : [];
}

/** What the case read: every input, the notes (inputs read apart, inputs left out) and what changed. */
function footer(view: CaseView): Block[] {
  const read = view.report.inputs.map((i) => mrkdwn(i.source)).join(', ');
  const lines = [`Read together in this thread: ${read || 'nothing yet'}.`, ...view.report.notes.map(mrkdwn)];
  const blocks = [context(cut(lines.join('\n'), LIMITS.contextText))];
  if (view.change)
    blocks.push(
      context(
        cut(`:arrows_counterclockwise: *What changed:* ${mrkdwn(view.change.summary)}`, LIMITS.sectionText),
      ),
    );
  return blocks;
}

/** A thread's case takes no system (only `/memdoctor <system> <paste>` does), so the hint names that. */
const SLACK_ENGINE_HINT = (engine: string) =>
  `paste the worker's log with \`/memdoctor ${engine}\` (a thread's case takes no system yet; that reads the paste with the ${engine} playbooks)`;

/** No playbook matched, yet the inputs show something: each line cited, and the system to name. */
function shownBlocks(view: CaseView): Block[] {
  const unmatched = view.report.groups.find((g) => g.unmatched && g.unmatched.shown.length > 0)?.unmatched;
  if (!unmatched) return [];
  const shown = unmatched.shown.map((said) => `• ${mrkdwn(said)}`).join('\n');
  const engine = unmatchedEngineText(unmatched, SLACK_ENGINE_HINT);
  return [
    section(cut(`*What the inputs show*\n${shown}`, LIMITS.sectionText)),
    ...(engine ? [section(cut(mrkdwn(engine), LIMITS.sectionText))] : []),
  ];
}

function nothingFound(view: CaseView, playbooks: readonly Playbook[]): MessageView {
  const text = 'memdoctor found no known memory problem in the inputs of this thread.';
  return {
    text: view.change ? `${text} ${view.change.summary}` : text,
    blocks: [
      section(`*${text}*`),
      ...shownBlocks(view),
      section(`Looked for: ${playbooks.map((p) => `\`${p.id}\``).join(', ') || 'no playbooks are loaded'}.`),
      ...footer(view),
    ],
  };
}

/**
 * A thread's one answer, over every input posted in it (a case): the lead group's top diagnosis
 * with evidence cited `input:line`, its cause and first actions, the buttons (the walkthrough starts
 * from the whole case's facts), then what was read, what was kept apart or left out, and what the
 * latest input changed. Pure: the same case gives the same blocks.
 */
export function caseAnswerView(view: CaseView, playbooks: readonly Playbook[], user?: string): MessageView {
  const [top, ...rest] = view.lead?.diagnoses ?? [];
  if (!top || !view.lead) return nothingFound(view, playbooks);
  const playbook = playbooks.find((p) => p.id === top.playbook);
  const by = user ? ` · asked by <@${user}>` : '';
  const together =
    view.lead.inputs.length > 1 ? ` · read together: ${view.lead.inputs.map(mrkdwn).join(', ')}` : '';
  const summary = view.change ? ` · ${view.change.summary}` : '';
  const cause = top.refinedBy ? `${top.refinedBy.title}: ` : '';
  return {
    text: cut(`${cause}${top.title} (confidence ${percent(top.confidence)})${summary}`, LIMITS.fallbackText),
    blocks: capBlocks([
      header(top.title),
      context(
        cut(
          `Confidence *${percent(top.confidence)}* · playbook \`${top.playbook}\`${together}${by}`,
          LIMITS.sectionText,
        ),
      ),
      ...(top.refinedBy ? [section(caseCauseText(top, playbook))] : []),
      evidenceBlock(top),
      ...(top.refinedBy ? [] : [section(caseCauseText(top, playbook))]),
      ...contradictionBlocks(view),
      section(actionsText(top)),
      actions(BLOCK.diagnosisActions, caseButtons(top, rest, playbook, view)),
      ...footer(view),
    ]),
  };
}
