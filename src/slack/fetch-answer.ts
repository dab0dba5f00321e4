import type { WebClient } from '@slack/web-api';
import { fetchStep } from '../usecases/fetch-step.ts';
import { settleAnswer } from './answer-flow.ts';
import type { SlackDeps } from './deps.ts';
import { gateOf, slackAsker } from './fetch-gate.ts';
import { type Block, mrkdwn } from './views/blocks.ts';

/** A fetch asked for in Slack: by a click on "Fetch from ...", or by the form that asked for ids. */
export interface FetchAsked {
  walkthrough: string;
  /** The version the person saw the step at. */
  version: number;
  user: string;
  /** The Slack workspace (team id) the person asked in. */
  workspace: string;
  thread: { channel: string; ts: string };
  /** Ids the person typed, for those the walkthrough does not know. */
  ids?: Readonly<Record<string, string>>;
  /** The step's message when the click came from it; otherwise it is looked up in the thread. */
  message?: { ts: string; blocks: Block[] };
}

/**
 * Answers the step from its connector through the fetch-step use case and settles it as a pasted
 * answer is (the step's message marked, the next step posted). A fault is told to the person only;
 * the step still takes a paste.
 */
export async function answerByFetch(deps: SlackDeps, client: WebClient, asked: FetchAsked): Promise<void> {
  if (!deps.connectors) return;
  const { channel, ts } = asked.thread;
  const tell = async (text: string) => {
    await client.chat.postEphemeral({ channel, user: asked.user, thread_ts: ts, text });
  };
  const asker = slackAsker(deps, client, { workspace: asked.workspace, user: asked.user, channel });
  const result = await fetchStep(
    { ...deps, connectors: deps.connectors, gate: gateOf(deps) },
    {
      walkthrough: asked.walkthrough,
      actor: asked.user,
      asker,
      expectedVersion: asked.version,
      ...(asked.ids ? { ids: asked.ids } : {}),
      mayAnswer: (owner) => deps.oncall.mayAnswer(client, asked.user, owner),
    },
  );
  // Connector messages quote the ids typed in the form: escaped, they cannot mention or link.
  if (result.kind === 'not-fetched')
    return tell(mrkdwn(`${result.error.message} The step can still be answered by hand.`));
  const paths = (result.fetched ?? []).map((f) => f.from.path).join(', ');
  await settleAnswer(
    deps,
    client,
    {
      walkthrough: asked.walkthrough,
      event: { type: 'paste', text: paths || 'fetched' },
      user: asked.user,
      thread: asked.thread,
      ...(asked.message ? { message: asked.message } : {}),
      tell,
    },
    result,
  );
}
