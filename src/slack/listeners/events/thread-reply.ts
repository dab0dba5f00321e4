import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import { z } from 'zod';
import { StoreUnavailableError } from '../../../errors.ts';
import { readTyped, type StepView, type TypedAnswer } from '../../../walkthrough/index.ts';
import { answerStep } from '../../answer-flow.ts';
import { caseWhere, refineWithPaste } from '../../case-thread.ts';
import type { SlackDeps } from '../../deps.ts';
import { explainFailure, storeDownText } from '../../failures.ts';
import { pastedOutput, waitingIn } from '../../waiting.ts';

type Args = SlackEventMiddlewareArgs<'message'> & AllMiddlewareArgs;

/** A plain reply in a thread (no subtype: edits, joins and file shares are other listeners' business). */
const ReplySchema = z.looseObject({
  subtype: z.undefined().optional(),
  channel: z.string(),
  user: z.string(),
  ts: z.string(),
  text: z.string(),
  thread_ts: z.string(),
  parent_user_id: z.string(),
});

/** A reply that starts like a figure is an attempt at one; other replies that do not read are talk. */
const LOOKS_LIKE_A_FIGURE = /^\s*[-+.\d]/;

/** The event a reply makes for the waiting step, why it cannot answer it, or nothing (talk). */
function replyAnswer(view: StepView, text: string): TypedAnswer | undefined {
  // Command output comes fenced or on several lines; a one-line remark ("looking now") is talk.
  const typed = view.input === 'output' ? pastedOutput(text) : text;
  if (typed === undefined) return undefined;
  const answer = readTyped(view, typed);
  if (answer && 'refusal' in answer && !LOOKS_LIKE_A_FIGURE.test(text)) return undefined;
  return answer;
}

/** A reply that could answer a step (a paste or a figure), as opposed to talk ("looking now"). */
function mayBeAnAnswer(text: string): boolean {
  return pastedOutput(text) !== undefined || LOOKS_LIKE_A_FIGURE.test(text);
}

type Reply = z.infer<typeof ReplySchema>;

/** A paste in a thread with a case answer and no step waiting: it joins the case (other replies are talk). */
async function addPaste(
  deps: SlackDeps,
  client: Args['client'],
  reply: Reply,
  workspace: string,
  tell: (text: string) => Promise<void>,
): Promise<void> {
  const text = pastedOutput(reply.text);
  if (text === undefined) return;
  const where = caseWhere({ workspace, channel: reply.channel, threadTs: reply.thread_ts });
  try {
    await refineWithPaste(deps, client, { where, user: reply.user, text });
  } catch (error) {
    const failure = explainFailure(error, 'this paste was not added to the thread’s case');
    deps.log.warn({ channel: reply.channel, code: failure.code, err: failure.message }, 'paste not added');
    await tell(failure.message);
  }
}

/**
 * The walkthrough step waiting in the reply's thread, if any; undefined too when the store is down,
 * after telling the person of a reply that may have been an answer (talk is still left alone).
 */
async function stepWaiting(
  deps: SlackDeps,
  workspace: string,
  reply: Reply,
  tell: (text: string) => Promise<void>,
): Promise<{ waiting: Awaited<ReturnType<typeof waitingIn>> } | undefined> {
  try {
    return {
      waiting: await waitingIn(deps, workspace, { channel: reply.channel, ts: reply.thread_ts }, [
        'output',
        'value',
      ]),
    };
  } catch (error) {
    if (!(error instanceof StoreUnavailableError)) throw error;
    deps.log.warn({ channel: reply.channel, code: error.code, err: error.message }, 'thread reply not read');
    if (mayBeAnAnswer(reply.text))
      await tell(storeDownText(error, 'this reply was not taken as the answer to a walkthrough step'));
    return undefined;
  }
}

/**
 * A reply in a memdoctor thread whose walkthrough waits for command output or a number: the reply
 * answers that step. A paste with no step waiting joins the thread's case. Other replies are
 * conversation and are ignored. When Redis is unavailable, a reply that may be an answer is told so.
 */
export function threadReply(deps: SlackDeps) {
  return async ({ event, client, context }: Args): Promise<void> => {
    const parsed = ReplySchema.safeParse(event);
    if (!parsed.success || !context.teamId || parsed.data.parent_user_id !== context.botUserId) return;
    const reply = parsed.data;
    const thread = { channel: reply.channel, ts: reply.thread_ts };
    const tell = async (text: string) => {
      await client.chat.postEphemeral({
        channel: reply.channel,
        user: reply.user,
        thread_ts: thread.ts,
        text,
      });
    };
    const found = await stepWaiting(deps, context.teamId, reply, tell);
    if (!found) return;
    const { waiting } = found;
    if (!waiting) return addPaste(deps, client, reply, context.teamId, tell);
    const answer = replyAnswer(waiting.view, reply.text);
    if (!answer) return;
    if ('refusal' in answer) return tell(answer.refusal);
    await answerStep(deps, client, {
      walkthrough: waiting.record.id,
      expectedVersion: waiting.record.version,
      ...(waiting.record.current ? { step: waiting.record.current } : {}),
      event: answer.event,
      user: reply.user,
      thread,
      tell,
    });
  };
}
