// @ts-nocheck
import type { AllMiddlewareArgs, SlackCommandMiddlewareArgs } from '@slack/bolt';
import type { Logger } from 'pino';
import { runCliVerb } from '../../cli-bridge.ts';
import { parseSlashText, type SlashRequest } from '../../command-text.ts';
import type { SlackDeps } from '../../deps.ts';
import { diagnosePaste } from '../../diagnose.ts';
import { explainFailure } from '../../failures.ts';
import type { MessageView } from '../../views/blocks.ts';
import { calcView } from '../../views/calc.ts';
import { diagnosisView } from '../../views/diagnosis.ts';
import { helpView, listView, noticeView } from '../../views/help.ts';
import { pasteModal } from '../../views/paste-modal.ts';
import { statusView, walkRootView } from '../../views/step.ts';
import { playbookRefusal, startInThread } from '../../walk-start.ts';

/** `/memdoctor status` lists at most this many walkthroughs (one permalink lookup each). */
const MAX_STATUS_ITEMS = 20;

type Args = SlackCommandMiddlewareArgs & AllMiddlewareArgs;

/** One verb's work after the ack; returns what to tell the person privately, if anything. */
type Verb<K extends SlashRequest['kind']> = (
  deps: SlackDeps,
  args: Args,
  request: Extract<SlashRequest, { kind: K }>,
  log: Logger,
) => Promise<MessageView | undefined>;

const diagnose: Verb<'diagnose'> = async (deps, { command, client }, request) => {
  const { report, known, suggestion } = await diagnosePaste(
    deps,
    request.text,
    request.engine,
    command.team_id,
  );
  const view = diagnosisView(report, deps.playbooks, command.user_id, known, {
    ...(suggestion ? { suggestion } : {}),
    explain: deps.assist !== undefined,
  });
  await client.chat.postMessage({ channel: command.channel_id, ...view });
  return undefined;
};

const modal: Verb<'modal'> = async (_deps, { command, client }, request) => {
  await client.views.open({
    trigger_id: command.trigger_id,
    view: pasteModal({ channel: command.channel_id }, request.engine),
  });
  return undefined;
};

const calc: Verb<'calc'> = async (_deps, _args, request) =>
  calcView(request.args, await runCliVerb('calc', request.args));

const walk: Verb<'walk'> = async (deps, { command, client }, request) => {
  const refusal = playbookRefusal(deps, request.playbook);
  const playbook = deps.playbooks.find((p) => p.id === request.playbook);
  if (refusal || !playbook) return noticeView(refusal ?? `There is no playbook "${request.playbook}".`);
  const root = await client.chat.postMessage({
    channel: command.channel_id,
    ...walkRootView(playbook, command.user_id),
  });
  if (!root.ts) return noticeView('Slack did not return the message it posted; try again.');
  await startInThread(deps, client, {
    workspace: command.team_id,
    thread: { channel: command.channel_id, ts: root.ts },
    owner: command.user_id,
    playbook: playbook.id,
  });
  return undefined;
};

const status: Verb<'status'> = async (deps, { command, client }) => {
  const active = await deps.walkthroughs.listActive({
    workspace: command.team_id,
    conversation: command.channel_id,
  });
  const items = await Promise.all(
    active.slice(0, MAX_STATUS_ITEMS).map(async (r) => {
      const link = r.thread
        ? await client.chat.getPermalink({ channel: command.channel_id, message_ts: r.thread })
        : undefined;
      const step = deps.walkthroughs.view(r)?.title ?? 'not started';
      return {
        title: r.playbook.title,
        step,
        owner: r.owner,
        ...(link?.permalink ? { link: link.permalink } : {}),
      };
    }),
  );
  return statusView(items);
};

/** The literal registry of verbs: adding one is one function and one line here. */
export const SLASH_VERBS: { [K in SlashRequest['kind']]: Verb<K> } = {
  diagnose,
  modal,
  help: async () => helpView(),
  list: async (deps) => listView(deps.playbooks),
  calc,
  walk,
  status,
};

async function run(deps: SlackDeps, args: Args, request: SlashRequest, log: Logger) {
  const verb = SLASH_VERBS[request.kind] as Verb<SlashRequest['kind']>;
  return verb(deps, args, request, log);
}

/** `/memdoctor ...`: ack at once (Slack allows 3 s), then do the work and answer. */
export function memdoctorCommand(deps: SlackDeps) {
  return async (args: Args): Promise<void> => {
    await args.ack();
    const { command, respond } = args;
    const request = parseSlashText(command.text);
    const log = deps.log.child({ teamId: command.team_id, channel: command.channel_id, verb: request.kind });
    try {
      const reply = await run(deps, args, request, log);
      if (reply) await respond({ response_type: 'ephemeral', ...reply });
    } catch (error) {
      const failure = explainFailure(error);
      log.warn({ code: failure.code, err: failure.message }, 'slash command failed');
      await respond({ response_type: 'ephemeral', ...noticeView(failure.message) });
    }
  };
}
