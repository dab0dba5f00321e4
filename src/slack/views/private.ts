import { ACTION, PRIVATE_IDS } from '../ids.ts';
import { type Block, context, type MessageView } from './blocks.ts';

/**
 * A diagnosis for one person's eyes (ephemeral): the same blocks, but its Start button runs the
 * walkthrough in their DM, and the buttons that would edit a shared message are left out (an
 * ephemeral message cannot be updated by the app).
 */
export function privateDiagnosis(view: MessageView): MessageView {
  const blocks: Block[] = view.blocks.flatMap((block): Block[] => {
    if (block.type !== 'actions') return [block];
    const start = block.elements.filter(
      (e) => e.type === 'button' && e.action_id === ACTION.startWalkthrough,
    );
    if (start.length === 0) return [];
    return [
      {
        ...block,
        elements: start.map((e) => ({
          ...e,
          action_id: PRIVATE_IDS.startInDm,
          text: { type: 'plain_text', text: 'Start walkthrough in a DM' },
        })),
      } as Block,
    ];
  });
  return {
    text: view.text,
    blocks: [
      ...blocks,
      context(':lock: Only you can see this diagnosis; a walkthrough runs in your DM with memdoctor.'),
    ],
  };
}
