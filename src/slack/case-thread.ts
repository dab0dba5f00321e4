import type { WebClient } from '@slack/web-api';
import type { CaseAnswer, CaseWhere } from '../usecases/add-to-case.ts';
import type { SlackDeps } from './deps.ts';
import { addInputToCase } from './diagnose.ts';
import { explainFailure } from './failures.ts';
import { threadTurns } from './thread-turns.ts';
import { caseAnswerView } from './views/case.ts';

/** Where a thread keeps its case: the team, the channel, the thread's root ts. */
export function caseWhere(message: { workspace: string; channel: string; threadTs: string }): CaseWhere {
  return { workspace: message.workspace, conversation: message.channel, thread: message.threadTs };
}

/** The key a thread takes its turns under (thread-turns.ts). */
export function threadKey(message: { workspace: string; channel: string; threadTs: string }): string {
  return `${message.workspace}:${message.channel}:${message.threadTs}`;
}

/** The ts of the thread's case answer, when the thread has one; a store failure reads as none (logged). */
export async function caseAnswerTs(deps: SlackDeps, where: CaseWhere): Promise<string | undefined> {
  if (!deps.cases) return undefined;
  try {
    return (await deps.cases.store.get(where))?.answerTs;
  } catch (error) {
    deps.log.warn({ channel: where.conversation, err: explainFailure(error).message }, 'case not read');
    return undefined;
  }
}

/** Edits the thread's one answer to the case's new answer, with the line saying what changed. */
export async function editCaseAnswer(
  deps: SlackDeps,
  client: WebClient,
  edit: { where: CaseWhere; answerTs: string; user: string; answer: CaseAnswer },
): Promise<void> {
  const { where, answerTs, user, answer } = edit;
  await client.chat.update({
    channel: where.conversation,
    ts: answerTs,
    ...caseAnswerView(answer, deps.playbooks, user),
  });
  deps.log.info(
    {
      channel: where.conversation,
      threadTs: where.thread,
      inputs: answer.record.inputs.length,
      change: answer.change.summary,
    },
    'case answer updated',
  );
}

/**
 * A paste (a code block, or several lines) replying in a thread whose case has an answer, when no
 * walkthrough step waits for it: added to the case like a file, and the answer edited. False when
 * the thread has no case answer (the reply is left alone, as before).
 */
export async function refineWithPaste(
  deps: SlackDeps,
  client: WebClient,
  reply: { where: CaseWhere; user: string; text: string },
): Promise<boolean> {
  const cases = deps.cases;
  if (!cases) return false;
  const { where } = reply;
  const key = threadKey({ workspace: where.workspace, channel: where.conversation, threadTs: where.thread });
  // A paste takes its turn with the thread's files (thread-turns.ts): it waits for a case being formed.
  return threadTurns(cases.store).take(key, async () => {
    const answerTs = await caseAnswerTs(deps, where);
    if (!answerTs) return false;
    const answer = await addInputToCase({ ...deps, cases }, { source: 'paste', text: reply.text }, where);
    await editCaseAnswer(deps, client, { where, answerTs, user: reply.user, answer });
    return true;
  });
}
