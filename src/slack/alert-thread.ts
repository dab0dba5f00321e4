import { createHash } from 'node:crypto';
import type { WebClient } from '@slack/web-api';
import type { AlertAnswer, IncidentState, IncidentThread, RoutedAlert } from '../usecases/alerts.ts';
import { requestText } from '../usecases/connectors.ts';
import type { WalkthroughRecord } from '../walkthrough/index.ts';
import type { SlackDeps } from './deps.ts';
import { type Block, capBlocks, context, type MessageView, mrkdwn, section } from './views/blocks.ts';
import { diagnosisView } from './views/diagnosis.ts';
import { findStepMessage, postProgress, type Thread } from './walk-messages.ts';
import { startInThread } from './walk-start.ts';

const SOURCE_NAMES: Readonly<Record<RoutedAlert['event']['source'], string>> = {
  alertmanager: 'Alertmanager',
  pagerduty: 'PagerDuty',
  sns: 'AWS (SNS)',
  'gcp-monitoring': 'Google Cloud Monitoring',
};

/** Messages asked for per page when a retry searches a channel or a thread for what a crash left unrecorded. */
const SEARCH_PAGE = 200;
/** Pages searched at most: 4,000 messages posted in the channel (or the thread) since the claim. */
const SEARCH_PAGES = 20;
/** How far Slack's clock may be behind this process's: the channel is searched from that much before the claim. */
const CLOCK_SKEW_MS = 5 * 60_000;

function digestOf(incidentKey: string): string {
  return createHash('sha256').update(incidentKey).digest('hex').slice(0, 32);
}

/**
 * The block id that marks an incident's root message: a digest of its key, so the root can be found
 * again in the channel by a retry after a crash between posting it and recording its ts.
 */
export function rootMarker(incidentKey: string): string {
  return `memdoctor-incident-${digestOf(incidentKey)}`;
}

/**
 * The block id that marks one of the incident's replies as the root's marks the root: its diagnosis
 * (`answer`) or its n-th "fired again" (`refire-n`), so a retry after a crash between posting it and
 * recording it finds it in the thread instead of posting it twice.
 */
export function replyMarker(incidentKey: string, reply: 'answer' | `refire-${number}`): string {
  return `memdoctor-${reply}-${digestOf(incidentKey)}`;
}

type Message = { ts?: string; blocks?: { block_id?: string }[] };

function marked(messages: readonly Message[] | undefined, marker: string): string | undefined {
  return messages?.find((m) => (m.blocks ?? []).some((b) => b.block_id === marker))?.ts;
}

/** The view with `marker` as its first block's id (every reply view's first block is memdoctor's own). */
function withMarker(view: MessageView, marker: string): MessageView {
  const [first, ...rest] = view.blocks;
  return first ? { ...view, blocks: [{ ...first, block_id: marker }, ...rest] } : view;
}

/** The root message: the alert's title (escaped), its source and route, and where the incident stands. */
export function rootView(alert: RoutedAlert, state: Pick<IncidentState, 'status' | 'refires'>): MessageView {
  const { event } = alert;
  const title = mrkdwn(event.title);
  const resolved = state.status === 'resolved';
  const status = resolved
    ? `:white_check_mark: Resolved${event.endsAt ? ` at ${mrkdwn(event.endsAt)}` : ''}`
    : `:rotating_light: Firing${event.startsAt ? ` since ${mrkdwn(event.startsAt)}` : ''}`;
  const again = state.refires > 0 ? ` (fired again ${state.refires}×)` : '';
  return {
    text: `${resolved ? 'Resolved' : 'Firing'}: ${event.title}`,
    blocks: [
      section(`*${title}*\n${status}${again}`, rootMarker(event.incidentKey)),
      context(
        `From ${SOURCE_NAMES[event.source]} (${mrkdwn(event.kind)}), route ${mrkdwn(alert.route)}. memdoctor fetches and diagnoses it in this thread.`,
      ),
    ],
  };
}

/** The diagnosis of each check fetched, then what could not be fetched and what to type for it. */
export function answerView(deps: Pick<SlackDeps, 'playbooks'>, answer: AlertAnswer): MessageView {
  const blocks: Block[] = [];
  const texts: string[] = [];
  for (const { check, result } of answer.found) {
    const view = diagnosisView(result.report, deps.playbooks);
    const fetched = result.fetched.map((f) => `${requestText(f.path)} at ${f.fetchedAt}`).join(', ');
    const notes = result.notes.length ? ` (${result.notes.join('; ')})` : '';
    blocks.push(
      context(mrkdwn(`Fetched from ${check.connector} for ${check.id}: ${fetched}${notes}`)),
      ...view.blocks,
    );
    texts.push(view.text);
  }
  if (answer.missing.length > 0) {
    const lead =
      answer.found.length === 0
        ? '*Nothing could be fetched for this alert*, so there is no diagnosis yet.'
        : '*Not fetched:*';
    const lines = answer.missing.map(
      (m) =>
        `• ${mrkdwn(m.reason)}\n  Type \`${mrkdwn(m.command)}\` once it can be reached, or paste its output in this thread.`,
    );
    blocks.push(section([lead, ...lines].join('\n')));
    texts.push(
      answer.found.length === 0
        ? 'Nothing could be fetched for this alert.'
        : 'Some checks were not fetched.',
    );
  }
  if (blocks.length === 0) {
    blocks.push(
      section(
        'This alert names nothing to fetch (its route has no checks): paste a log or the job’s output in this thread to diagnose it.',
      ),
    );
    texts.push('Nothing to fetch for this alert.');
  }
  return { text: texts.join(' '), blocks: capBlocks(blocks) };
}

/**
 * The root a crash left posted but unrecorded: the channel's messages since the claim (less the
 * clock skew allowed) searched for its marker, page by page.
 */
async function findRoot(client: WebClient, alert: RoutedAlert, sinceMs: number): Promise<string | undefined> {
  const oldest = ((sinceMs - CLOCK_SKEW_MS) / 1000).toFixed(6);
  return searchPages(rootMarker(alert.event.incidentKey), (cursor) =>
    client.conversations.history({
      channel: alert.channel,
      oldest,
      limit: SEARCH_PAGE,
      ...(cursor ? { cursor } : {}),
    }),
  );
}

/** A reply a crash left posted but unrecorded: the thread searched for its marker, page by page. */
async function findReply(client: WebClient, channel: string, rootTs: string, marker: string) {
  return searchPages(marker, (cursor) =>
    client.conversations.replies({ channel, ts: rootTs, limit: SEARCH_PAGE, ...(cursor ? { cursor } : {}) }),
  );
}

type MessagePage = { messages?: readonly Message[]; response_metadata?: { next_cursor?: string } };

/** The ts of the first message carrying `marker`, read page by page (at most SEARCH_PAGES of them). */
async function searchPages(
  marker: string,
  page: (cursor: string | undefined) => Promise<MessagePage>,
): Promise<string | undefined> {
  let cursor: string | undefined;
  for (let n = 0; n < SEARCH_PAGES; n++) {
    const reply = await page(cursor);
    const found = marked(reply.messages, marker);
    cursor = reply.response_metadata?.next_cursor;
    if (found || !cursor) return found;
  }
  return undefined;
}

/** Posts a message and returns its ts; a reply without one is a failure (retried). */
async function post(client: WebClient, message: Parameters<WebClient['chat']['postMessage']>[0]) {
  const posted = await client.chat.postMessage(message);
  if (!posted.ts) throw new Error(`Slack posted in ${message.channel} without giving the message's ts`);
  return posted.ts;
}

function refiredText(alert: RoutedAlert): string {
  const since = alert.event.startsAt ? ` at ${mrkdwn(alert.event.startsAt)}` : '';
  return `:rotating_light: Fired again${since}, after it was resolved.`;
}

/**
 * The Slack side of an incident's thread: the root in the route's channel, edited when the incident
 * resolves or fires again, the diagnosis and the walkthrough's first step in the thread.
 */
export function slackIncidentThread(
  deps: SlackDeps,
  client: WebClient,
  who: { workspace: string; owner: string },
): IncidentThread {
  return {
    findRoot: (alert, sinceMs) => findRoot(client, alert, sinceMs),
    findAnswer: (alert, rootTs) =>
      findReply(client, alert.channel, rootTs, replyMarker(alert.event.incidentKey, 'answer')),
    postRoot: (alert, state) => post(client, { channel: alert.channel, ...rootView(alert, state) }),
    async updateRoot(alert, state) {
      await client.chat.update({ channel: alert.channel, ts: state.rootTs, ...rootView(alert, state) });
    },
    async postRefired(alert, state) {
      // Searched first: refires are rare, and a crash after this post would otherwise post it again.
      const marker = replyMarker(alert.event.incidentKey, `refire-${state.refires}`);
      if (await findReply(client, alert.channel, state.rootTs, marker)) return;
      const text = refiredText(alert);
      await post(client, {
        channel: alert.channel,
        thread_ts: state.rootTs,
        text,
        blocks: [section(text, marker)],
      });
    },
    postAnswer: (alert, rootTs, answer) =>
      post(client, {
        channel: alert.channel,
        thread_ts: rootTs,
        ...withMarker(answerView(deps, answer), replyMarker(alert.event.incidentKey, 'answer')),
      }),
    startWalkthrough: (alert, rootTs, playbook) => startOnce(deps, client, who, { alert, rootTs, playbook }),
  };
}

/** The walkthrough of `playbook` started in the incident's thread, unless an earlier try started it. */
async function startOnce(
  deps: SlackDeps,
  client: WebClient,
  who: { workspace: string; owner: string },
  at: { alert: RoutedAlert; rootTs: string; playbook: string },
): Promise<void> {
  const thread = { channel: at.alert.channel, ts: at.rootTs };
  const where = { workspace: who.workspace, conversation: at.alert.channel };
  const running = await deps.walkthroughs.findByThread(where, at.rootTs);
  // A try before this one started it and died before recording so: never a second walkthrough.
  if (running) return postStepUnlessPosted(deps, client, running, thread);
  await startInThread(deps, client, {
    workspace: who.workspace,
    thread,
    owner: who.owner,
    playbook: at.playbook,
  });
}

/**
 * The current step of a walkthrough an earlier try started, posted unless that try got as far: its
 * message carries the step's block id (findStepMessage), so a crash right after the post is not a
 * second copy, nor a crash right before it a thread without its step.
 */
async function postStepUnlessPosted(
  deps: SlackDeps,
  client: WebClient,
  record: WalkthroughRecord,
  thread: Thread,
): Promise<void> {
  const view = record.status === 'active' ? deps.walkthroughs.view(record) : undefined;
  if (!view || (await findStepMessage(client, thread, record.id, view.step))) return;
  await postProgress(deps, client, record, thread, 0);
}
