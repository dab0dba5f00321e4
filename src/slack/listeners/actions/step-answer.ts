import type { AllMiddlewareArgs, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { MemdoctorError, WalkthroughNotFoundError } from '../../../errors.ts';
import type { WalkthroughRecord } from '../../../walkthrough/index.ts';
import { ANSWER_NOT_RECORDED, answerStep } from '../../answer-flow.ts';
import type { SlackDeps } from '../../deps.ts';
import { explainFailure } from '../../failures.ts';
import type { Block } from '../../views/blocks.ts';
import { readStepButton } from '../../views/step-button.ts';

type Args = SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & AllMiddlewareArgs;

const EXPIRED =
  'This walkthrough is no longer stored (it may have expired). Start a new one from the diagnosis.';

/** The clicked walkthrough, or what to tell the person: gone, or Redis unavailable (nothing lost). */
async function clicked(deps: SlackDeps, id: string): Promise<WalkthroughRecord | string> {
  try {
    return await deps.walkthroughs.get(id);
  } catch (error) {
    if (error instanceof WalkthroughNotFoundError) return EXPIRED;
    if (!(error instanceof MemdoctorError)) throw error;
    const failure = explainFailure(error, ANSWER_NOT_RECORDED);
    deps.log.warn(
      { walkthrough: id, code: failure.code, err: failure.detail ?? failure.message },
      'answer not stored',
    );
    return failure.message;
  }
}

/** A click on a walkthrough step's button: the answer goes to the walkthrough service. */
export function stepAnswered(deps: SlackDeps) {
  return async ({ ack, body, action, client }: Args): Promise<void> => {
    await ack();
    const channel = body.channel?.id ?? body.container.channel_id;
    const message = body.message;
    const value = readStepButton(action.value);
    if (!channel || !message || !value) return;
    const user = body.user.id;
    const thread = { channel, ts: message.thread_ts ?? message.ts };
    const tell = async (text: string) => {
      await client.chat.postEphemeral({ channel, user, thread_ts: thread.ts, text });
    };
    const record = await clicked(deps, value.w);
    if (typeof record === 'string') return tell(record);
    await answerStep(deps, client, {
      record,
      event: value.e,
      user,
      thread,
      message: { ts: message.ts, blocks: (message.blocks ?? []) as Block[] },
      label: action.text.text,
      expectedVersion: value.v,
      tell,
    });
  };
}
