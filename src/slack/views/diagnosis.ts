import type { Suggestion } from '../../llm/triage.ts';
import type { Diagnosis, InputReport, Playbook } from '../../usecases/types.ts';
import type { DiagnosisFacts } from '../../walkthrough/index.ts';
import { ACTION, BLOCK } from '../ids.ts';
import { type AlternativeRef, packAlternatives } from './alternatives.ts';
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
import { packExplainRef } from './explain-ref.ts';
import { LIMITS } from './limits.ts';
import { suggestionBlocks } from './suggestion.ts';
import { packWalkSeed } from './walk-seed.ts';

export function percent(confidence: number): string {
  return `${Math.round(confidence * 100)}%`;
}

function evidenceBlock(d: Diagnosis): Block {
  const lines = d.evidence.map((e) => `${e.line}: ${mrkdwn(e.text).replace(/```/g, "'''")}`);
  // The code fence and the title take ~30 characters of the section's 3000.
  return section(`*Evidence*\n\`\`\`${fitLines(lines, LIMITS.sectionText - 40)}\`\`\``);
}

export function causeText(d: Pick<Diagnosis, 'cause' | 'title'>, playbook: Playbook | undefined): string {
  const cause = playbook?.causes.find((c) => c.id === d.cause);
  if (cause) return `*Likely cause: ${mrkdwn(cause.title)}*\n${mrkdwn(cause.explanation)}`;
  return `*What it means*\n${mrkdwn(playbook?.summary ?? d.title)}`;
}

export function actionsText(d: Pick<Diagnosis, 'actions'>): string {
  const lines = d.actions.map((a, i) => `${i + 1}. ${mrkdwn(a)}`);
  return `*First things to do*\n${fitLines(lines, LIMITS.sectionText - 30)}`;
}

function buttons(
  top: Diagnosis,
  rest: readonly Diagnosis[],
  playbook: Playbook | undefined,
  known: DiagnosisFacts,
  explain: boolean,
): ButtonElement[] {
  const out: ButtonElement[] = [];
  if (playbook?.procedure !== undefined)
    out.push(
      button('Start walkthrough', ACTION.startWalkthrough, packWalkSeed(top.playbook, known), 'primary'),
    );
  if (rest.length > 0) out.push(button('Show alternatives', ACTION.showAlternatives, packAlternatives(rest)));
  if (explain && playbook) out.push(button('Explain (model)', ACTION.explain, packExplainRef(top)));
  out.push(button('Not a memory problem', ACTION.notMemory, top.playbook));
  return out;
}

function noDiagnosis(report: InputReport, playbooks: readonly Playbook[]): MessageView {
  const text = 'memdoctor found no known memory problem in this input.';
  return {
    text,
    blocks: [
      section(`*${text}*`),
      section(`Looked for: ${playbooks.map((p) => `\`${p.id}\``).join(', ') || 'no playbooks are loaded'}.`),
      context(
        `If you know the system, say it first: \`/memdoctor glue &lt;paste&gt;\` (or spark, flink, beam). ` +
          `Read ${report.input.lines} lines from ${mrkdwn(report.source)}.`,
      ),
    ],
  };
}

/**
 * The diagnosis message (a thread root): title, confidence, evidence, cause, first actions, and
 * the buttons; below them, set apart, a model's suggestion when there is one. Pure: the same
 * report gives the same blocks.
 */
export function diagnosisView(
  report: InputReport,
  playbooks: readonly Playbook[],
  user?: string,
  known: DiagnosisFacts = { facts: [], values: {} },
  model: ModelExtras = {},
): MessageView {
  const { suggestion } = model;
  const view = engineView(report, playbooks, user, known, model.explain === true);
  if (!suggestion) return view;
  return { ...view, blocks: capBlocks([...view.blocks, ...suggestionBlocks(suggestion, playbooks)]) };
}

/** What a configured model adds to a diagnosis message. */
export interface ModelExtras {
  /** The model's suggestion, shown apart when the engine was unsure. */
  suggestion?: Suggestion;
  /** Offer an Explain button (only when a model is configured). */
  explain?: boolean;
}

function engineView(
  report: InputReport,
  playbooks: readonly Playbook[],
  user: string | undefined,
  known: DiagnosisFacts,
  explain: boolean,
): MessageView {
  const [top, ...rest] = report.diagnoses;
  if (!top) return noDiagnosis(report, playbooks);
  const playbook = playbooks.find((p) => p.id === top.playbook);
  const by = user ? ` · asked by <@${user}>` : '';
  return {
    text: cut(`${top.title} (confidence ${percent(top.confidence)})`, LIMITS.fallbackText),
    blocks: [
      header(top.title),
      context(
        `Confidence *${percent(top.confidence)}* · playbook \`${top.playbook}\` · ${report.input.lines} lines read${by}`,
      ),
      evidenceBlock(top),
      section(causeText(top, playbook)),
      section(actionsText(top)),
      actions(BLOCK.diagnosisActions, buttons(top, rest, playbook, known, explain)),
    ],
  };
}

/** The answer to "Show alternatives": the other candidates, each with a walkthrough button. */
export function alternativesView(
  refs: readonly AlternativeRef[],
  playbooks: readonly Playbook[],
): MessageView {
  const lines = refs.map((r) => `• *${mrkdwn(r.t)}* · \`${r.p}\` · ${percent(r.c)}`);
  const walkable = refs.filter((r) => playbooks.find((p) => p.id === r.p)?.procedure !== undefined);
  const blocks: Block[] = [section(`*Other possibilities*\n${fitLines(lines, LIMITS.sectionText - 30)}`)];
  if (walkable.length > 0)
    blocks.push(
      actions(
        'memdoctor.alternatives.actions',
        walkable.map((r) => button(`Walk through ${r.p}`, `${ACTION.startWalkthrough}:${r.p}`, r.p)),
      ),
    );
  return { text: 'Other possibilities', blocks };
}

/** A model's plain-language explanation of a diagnosis, labelled as the model's. */
export function explanationView(title: string, text: string): MessageView {
  return {
    text: `A model's explanation: ${cut(title, 200)}`,
    blocks: [
      context(
        ':robot_face: *Explained by a model* from the playbook and the evidence; it may be wrong, so check it.',
      ),
      section(mrkdwn(text)),
    ],
  };
}

/** The root message after "Not a memory problem": the same blocks without buttons, plus who said so. */
export function markedNotMemory(blocks: readonly Block[], user: string): MessageView {
  const kept = blocks.filter((b) => b.type !== 'actions');
  return {
    text: 'Marked as not a memory problem',
    blocks: [...kept, context(`:no_entry_sign: <@${user}> marked this as not a memory problem.`)],
  };
}
