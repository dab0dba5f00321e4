import type { Suggestion } from '../../llm/triage.ts';
import type { Playbook } from '../../usecases/types.ts';
import { ACTION } from '../ids.ts';
import { actions, type Block, button, context, fitLines, mrkdwn, section } from './blocks.ts';
import { LIMITS } from './limits.ts';

/** The block_id of the suggestion's button row, apart from the diagnosis' own buttons. */
export const SUGGESTION_BLOCK = 'memdoctor.suggestion.actions';

const percent = (n: number): string => `${Math.round(n * 100)}%`;

/**
 * A model's suggestion, set apart below the deterministic result and labelled as a model's, with a
 * button to walk through the playbook it names (when that playbook has a procedure).
 */
export function suggestionBlocks(suggestion: Suggestion, playbooks: readonly Playbook[]): Block[] {
  const playbook = playbooks.find((p) => p.id === suggestion.playbook);
  const said =
    suggestion.playbook === 'none' || !playbook
      ? 'The model found no playbook that fits.'
      : `The model suggests *${mrkdwn(playbook.title)}* (\`${playbook.id}\`).`;
  const evidence = suggestion.evidence.map((e) => `${e.line}: ${mrkdwn(e.text).replace(/```/g, "'''")}`);
  const blocks: Block[] = [
    { type: 'divider' },
    context(
      ":robot_face: *A model's suggestion*: not one of memdoctor's rules and may be wrong; check it before acting.",
    ),
    section(
      `${said} Model confidence ${percent(suggestion.confidence)}.\n*Why*: ${mrkdwn(suggestion.rationale)}`,
    ),
  ];
  if (evidence.length > 0)
    blocks.push(section(`*Lines it relied on*\n\`\`\`${fitLines(evidence, LIMITS.sectionText - 40)}\`\`\``));
  if (playbook?.procedure !== undefined)
    blocks.push(
      actions(SUGGESTION_BLOCK, [
        button(
          `Walk through ${playbook.id} (suggested)`,
          `${ACTION.startWalkthrough}:suggested`,
          playbook.id,
        ),
      ]),
    );
  return blocks;
}
