import type { WebClient } from '@slack/web-api';
import { fetchOffer } from '../usecases/fetch-step.ts';
import {
  answerText,
  chartsAnsweredSince,
  type StepView,
  type WalkthroughRecord,
  walkthroughCharts,
} from '../walkthrough/index.ts';
import { postNamedCharts } from './charts.ts';
import type { SlackDeps } from './deps.ts';
import { explainFailure } from './failures.ts';
import { fixRateWarning, postFeedbackPrompt } from './feedback.ts';
import { postTextFile } from './upload.ts';
import type { Block, MessageView } from './views/blocks.ts';
import { fetchBlocks } from './views/fetch-button.ts';
import {
  abandonedMessage,
  answeredStep,
  incidentDraftMessage,
  prefilledNote,
  stepBlockId,
  stepMessage,
  transcriptMessage,
} from './views/step.ts';

/** Transcripts longer than this go up as a file: a message would be cut at Block Kit's limits. */
export const TRANSCRIPT_INLINE_CHARS = 2500;

/** Where a walkthrough's messages go. */
export interface Thread {
  channel: string;
  ts: string;
}

function prefilledSince(record: WalkthroughRecord, from: number) {
  return record.path
    .slice(from)
    .filter((e) => e.prefilled)
    .map((e) => ({
      title: record.procedure.steps.find((s) => s.id === e.step)?.title ?? e.step,
      answer: answerText(e.answer),
      ...(e.because ? { because: e.because } : {}),
    }));
}

/** A step message with its Fetch button added, when a configured connector can answer the step. */
function withFetch(
  deps: SlackDeps,
  record: WalkthroughRecord,
  view: StepView,
  message: MessageView,
): MessageView {
  const offer = fetchOffer(record, deps.connectors);
  if (!offer) return message;
  return { ...message, blocks: [...message.blocks, ...fetchBlocks(view, offer)] };
}

/**
 * Posts what comes after an answer: the current step (with a note for steps memdoctor answered from
 * the diagnosis since `pathBefore`), and at the end the transcript.
 */
export async function postProgress(
  deps: SlackDeps,
  client: WebClient,
  record: WalkthroughRecord,
  thread: Thread,
  pathBefore: number,
): Promise<void> {
  if (record.status === 'abandoned') {
    await client.chat.postMessage({
      channel: thread.channel,
      thread_ts: thread.ts,
      ...abandonedMessage(record),
    });
    return;
  }
  const view = deps.walkthroughs.view(record);
  if (view) {
    const notes = [prefilledNote(prefilledSince(record, pathBefore)), await fixRateWarning(deps, record)];
    const message = withFetch(
      deps,
      record,
      view,
      stepMessage(view, notes.filter(Boolean).join('\n') || undefined),
    );
    await client.chat.postMessage({ channel: thread.channel, thread_ts: thread.ts, ...message });
  }
  if (record.status !== 'done') return;
  await postTranscript(deps, client, record, thread);
  await postFeedbackPrompt(deps, client, record, thread);
}

/**
 * The charts of the steps an answer just completed (a pasted GC log, memory samples, NMT, pmap), at
 * most one per step, under the names the transcript gives them. Posted after the next step, so a
 * picture never holds the walkthrough back; a chart that fails is logged and left out (postCharts).
 */
export async function postAnsweredCharts(
  deps: SlackDeps,
  client: WebClient,
  record: WalkthroughRecord,
  thread: Thread,
  pathBefore: number,
): Promise<void> {
  const charts = chartsAnsweredSince(record, pathBefore);
  if (charts.length)
    await postNamedCharts(deps, client, charts, { channel: thread.channel, threadTs: thread.ts });
}

/** The transcript in the thread: as a message when short, as a text file when long. */
export async function postTranscript(
  deps: SlackDeps,
  client: WebClient,
  record: WalkthroughRecord,
  thread: Thread,
): Promise<void> {
  const transcript = await deps.walkthroughs.transcript(record.id);
  await postTranscriptText(deps, client, record, thread, transcript);
  // The files the transcript names that were not posted with their answers: in the same thread,
  // under the same names.
  const charts = walkthroughCharts(record).filter((c) => !c.atAnswer);
  if (charts.length)
    await postNamedCharts(deps, client, charts, { channel: thread.channel, threadTs: thread.ts });
  if (deps.assist) await postIncidentDraft(deps, client, record, thread, transcript);
}

/**
 * With a model configured, a draft incident note from the transcript, posted after it and labelled
 * as a model's draft. A model or posting failure is logged: the transcript is already out.
 */
async function postIncidentDraft(
  deps: SlackDeps,
  client: WebClient,
  record: WalkthroughRecord,
  thread: Thread,
  transcript: string,
): Promise<void> {
  const log = { walkthrough: record.id, playbook: record.playbook.id };
  try {
    const outcome = await deps.assist?.incidentNote({ workspace: record.workspace, transcript });
    if (!outcome?.value) {
      deps.log.info({ ...log, note: outcome?.note }, 'no incident draft');
      return;
    }
    const draft = outcome.value;
    await postInlineOrFile(deps, client, thread, draft, incidentDraftMessage(draft), {
      filename: `memdoctor-${record.playbook.id}-${record.id}-incident-draft.md`,
      title: `Incident note draft: ${record.playbook.title}`,
      comment:
        ':robot_face: A draft incident note written by a model from the transcript; check it before filing.',
    });
  } catch (error) {
    deps.log.warn({ ...log, err: explainFailure(error).message }, 'incident draft not posted');
  }
}

async function postTranscriptText(
  deps: SlackDeps,
  client: WebClient,
  record: WalkthroughRecord,
  thread: Thread,
  transcript: string,
): Promise<void> {
  await postInlineOrFile(
    deps,
    client,
    thread,
    transcript,
    transcriptMessage(record.playbook.title, transcript),
    {
      filename: `memdoctor-${record.playbook.id}-${record.id}.txt`,
      title: `Transcript: ${record.playbook.title}`,
      comment: 'The walkthrough is finished; its full transcript is attached.',
    },
  );
}

/** Posts a text in the thread as a message when it is short enough, else uploads it as a file. */
async function postInlineOrFile(
  deps: SlackDeps,
  client: WebClient,
  thread: Thread,
  content: string,
  inline: MessageView,
  file: { filename: string; title: string; comment: string },
): Promise<void> {
  if (content.length <= (deps.settings.transcriptInlineChars ?? TRANSCRIPT_INLINE_CHARS)) {
    await client.chat.postMessage({ channel: thread.channel, thread_ts: thread.ts, ...inline });
    return;
  }
  await postTextFile(client, { channel: thread.channel, threadTs: thread.ts, content, ...file }, deps.fetch);
}

/** The answer a step got, as text, from the record after the event. */
export function lastAnswerTo(
  record: WalkthroughRecord,
  step: string,
): { text: string; by: string } | undefined {
  const entry = record.path.findLast((e) => e.step === step);
  return entry ? { text: answerText(entry.answer), by: entry.by } : undefined;
}

interface ThreadMessage {
  ts?: string;
  blocks?: Block[];
}

/**
 * Finds a step's message in its thread (for answers that arrive as replies or files, not clicks),
 * by the block_id the step message carries. Reading the thread keeps the Slack layer stateless.
 */
export async function findStepMessage(
  client: WebClient,
  thread: Thread,
  walkthrough: string,
  step: string,
): Promise<ThreadMessage | undefined> {
  const blockId = stepBlockId(walkthrough, step);
  const reply = await client.conversations.replies({ channel: thread.channel, ts: thread.ts, limit: 200 });
  const messages = (reply.messages ?? []) as ThreadMessage[];
  return messages.findLast((m) => (m.blocks ?? []).some((b) => b.block_id === blockId));
}

/** Marks a step message answered (buttons gone, answer and who gave it shown). */
export async function markAnswered(
  client: WebClient,
  channel: string,
  message: ThreadMessage,
  answer: { text: string; by: string },
): Promise<void> {
  if (!message.ts) return;
  await client.chat.update({
    channel,
    ts: message.ts,
    ...answeredStep(message.blocks ?? [], answer.text, answer.by),
  });
}
