import type { AllMiddlewareArgs, SlackCommandMiddlewareArgs } from '@slack/bolt';
import type { Logger } from 'pino';
import { StoreUnavailableError, UsageError } from '../../../errors.ts';
import { calculateWithChart } from '../../../usecases/calculate.ts';
import type { ChartData } from '../../../usecases/chart-images.ts';
import { check, requestText } from '../../../usecases/connectors.ts';
import { readStats } from '../../../usecases/read-stats.ts';
import { rememberDiagnosis } from '../../../usecases/record-outcome.ts';
import { postCharts } from '../../charts.ts';
import { parseSlashText, type SlashRequest } from '../../command-text.ts';
import type { SlackDeps } from '../../deps.ts';
import { diagnosePaste, diagnosisMessage } from '../../diagnose.ts';
import { explainFailure, storeDownText } from '../../failures.ts';
import { gateOf, slackAsker } from '../../fetch-gate.ts';
import { handOver } from '../../handover.ts';
import { context, type MessageView, mrkdwn, section } from '../../views/blocks.ts';
import { calcView } from '../../views/calc.ts';
import { diagnosisView } from '../../views/diagnosis.ts';
import { helpView, listView, noticeView } from '../../views/help.ts';
import { pasteModal } from '../../views/paste-modal.ts';
import { privateDiagnosis } from '../../views/private.ts';
import { statsView } from '../../views/stats.ts';
import { statusView } from '../../views/step.ts';
import { startWithRoot, walkable } from '../../walk-start.ts';

/** `/memdoctor status` lists at most this many walkthroughs (one permalink lookup each). */
const MAX_STATUS_ITEMS = 20;
/** Said under a private answer whose chart went to the asker's DM (a file cannot be ephemeral). */
const IN_DM = 'Its chart follows in your DM with memdoctor.';

type Args = SlackCommandMiddlewareArgs & AllMiddlewareArgs;

/** One verb's work after the ack; returns what to tell the person privately, if anything. */
type Verb<K extends SlashRequest['kind']> = (
  deps: SlackDeps,
  args: Args,
  request: Extract<SlashRequest, { kind: K }>,
  log: Logger,
) => Promise<MessageView | undefined>;

const diagnose: Verb<'diagnose'> = async (deps, { command, client, respond }, request) => {
  // Told only when the input will wait; a full queue refuses it as busy instead (EngineBusyError).
  // Checked and handed to the pool in one synchronous run, so no other command takes the place between.
  const engines = deps.engines;
  const notice =
    engines?.saturated && !engines.full
      ? respond({ response_type: 'ephemeral', ...noticeView(queuedNotice(engines.waiting)) })
      : undefined;
  const [result] = await Promise.all([
    diagnosePaste(deps, request.text, request.engine, command.team_id),
    notice,
  ]);
  const posted = await client.chat.postMessage({
    channel: command.channel_id,
    ...diagnosisMessage(deps, result, command.user_id),
  });
  const where = { workspace: command.team_id, channel: command.channel_id, user: command.user_id };
  await rememberDiagnosis(deps, { ...where, ts: posted.ts, result });
  if (posted.ts)
    await postCharts(deps, client, [result.chart], { channel: command.channel_id, threadTs: posted.ts });
  return undefined;
};

/** `/memdoctor private <paste>`: the diagnosis only the person sees; its walkthrough runs in their DM. */
const privately: Verb<'private'> = async (deps, { command }, request) => {
  const result = await diagnosePaste(deps, request.text, undefined, command.team_id);
  return privateDiagnosis(diagnosisMessage(deps, result, command.user_id));
};

const modal: Verb<'modal'> = async (_deps, { command, client }, request) => {
  await client.views.open({
    trigger_id: command.trigger_id,
    view: pasteModal({ channel: command.channel_id }, request.engine),
  });
  return undefined;
};

/** Told at once when every diagnosis thread is busy, so a slow answer is not taken for a lost one. */
function queuedNotice(waiting: number): string {
  const ahead = waiting === 0 ? 'other diagnoses are running' : `${waiting} inputs are ahead of yours`;
  return `Queued: ${ahead}. The diagnosis will be posted here when it is done.`;
}

/** Chat has no files to read: a calculator that needs one is for the terminal. */
function noFiles(_path: string, flag: string): string {
  throw new UsageError(
    `--${flag} names a file, which /memdoctor cannot read; run memdoctor calc in a terminal where the file is.`,
  );
}

/**
 * `/memdoctor calc`: the answer is private (ephemeral), and a file cannot be: posting its chart in the
 * channel would show everyone what one person asked. So the answer comes back privately at once, and
 * its chart goes where only that person reads it, their DM with memdoctor, under a copy of the answer.
 * The chart failing leaves the answer as it was; the person is told where to draw it instead.
 */
const calc: Verb<'calc'> = async (deps, { command, client, respond }, request, log) => {
  const answer = calculateWithChart(request.args, noFiles);
  const view = calcView(request.args, answer.text);
  if (!answer.chart) return view;
  await respond({
    response_type: 'ephemeral',
    text: view.text,
    blocks: [...view.blocks, context(IN_DM)],
  });
  if (await chartsInDm(deps, client, command.user_id, view, [answer.chart], log)) return undefined;
  return noticeView(
    `The chart could not be posted. \`memdoctor calc ${request.args.join(' ')} --chart DIR\` in a terminal writes it as files.`,
  );
};

/** The answer again in the person's DM, its charts in that message's thread; whether one went up. */
async function chartsInDm(
  deps: SlackDeps,
  client: Args['client'],
  user: string,
  view: MessageView,
  charts: readonly ChartData[],
  log: Logger,
): Promise<boolean> {
  try {
    const dm = await client.conversations.open({ users: user });
    const channel = dm.channel?.id;
    if (!channel) return false;
    const root = await client.chat.postMessage({ channel, ...view });
    if (!root.ts) return false;
    return (await postCharts(deps, client, charts, { channel, threadTs: root.ts })) > 0;
  } catch (error) {
    log.warn({ err: explainFailure(error).message }, 'chart not posted');
    return false;
  }
}

const walk: Verb<'walk'> = async (deps, { command, client }, request) => {
  const playbook = walkable(deps, request.playbook);
  if (typeof playbook === 'string') return noticeView(playbook);
  try {
    await startWithRoot(deps, client, {
      workspace: command.team_id,
      channel: command.channel_id,
      owner: command.user_id,
      playbook,
    });
  } catch (error) {
    if (!(error instanceof StoreUnavailableError)) throw error;
    return noticeView(storeDownText(error, 'no walkthrough was started and nothing was left in the channel'));
  }
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

const CHECK_USAGE =
  'usage: /memdoctor check flink [<job-id>] | spark <app-id> | yarn <app-id> | kubernetes <namespace>/<pod> | glue <job-name>/<run-id> | dataflow <job-id>';

/** Where only the asker sees a check's answer, they are told why, so nobody takes it for a bug. */
const ONLY_YOU =
  'Shown only to you: answers fetched here are for the person who asked (connectors.yaml access: showIn lists the channels that may see them).';

/**
 * `/memdoctor check ...`: the check use case lets the asker through (or says why not), fetches and
 * diagnoses; the answer goes to the channel where the access rule shows it there, else only to them.
 */
const checkVerb: Verb<'check'> = async (deps, { command, client, respond }, request, log) => {
  if (!request.system) return noticeView(CHECK_USAGE);
  if (!deps.connectors)
    return noticeView(
      'No connectors are configured: set MEMDOCTOR_CONNECTORS to a connectors.yaml naming the APIs memdoctor may read (docs/connectors.md).',
    );
  const where = { workspace: command.team_id, user: command.user_id, channel: command.channel_id };
  const result = await check(
    {
      system: request.system,
      workspace: command.team_id,
      asker: slackAsker(deps, client, where),
      ...(request.id ? { id: request.id } : {}),
    },
    { connectors: deps.connectors, playbooks: deps.playbooks, gate: gateOf(deps) },
  );
  const view = diagnosisView(result.report, deps.playbooks, command.user_id);
  const fetched = result.fetched.map((f) => `${requestText(f.path)} at ${f.fetchedAt}`).join(', ');
  // The paths and notes hold what was typed (a Glue job name): escaped, they cannot mention or link.
  const note = context(
    mrkdwn(
      `Fetched from ${request.system}: ${fetched}${result.notes.length ? ` (${result.notes.join('; ')})` : ''}`,
    ),
  );
  // For the asker only: its walkthrough runs in their DM, where its fetches are theirs alone too.
  if (result.audience === 'asker') {
    const answer = privateDiagnosis({ text: view.text, blocks: [context(ONLY_YOU), note, ...view.blocks] });
    if (!result.charts?.length) return answer;
    return void (await toAskerWithCharts(deps, { command, client, respond }, answer, result.charts, log));
  }
  const answer = { text: view.text, blocks: [note, ...view.blocks] };
  return void (await postInChannel(deps, client, command.channel_id, answer, result.charts));
};

/** A private answer with charts: at once to the asker, its charts in their DM (a file cannot be ephemeral), as calc's. */
async function toAskerWithCharts(
  deps: SlackDeps,
  { command, client, respond }: Pick<Args, 'command' | 'client' | 'respond'>,
  answer: MessageView,
  charts: readonly ChartData[],
  log: Logger,
): Promise<void> {
  await respond({ response_type: 'ephemeral', ...answer, blocks: [...answer.blocks, context(IN_DM)] });
  await chartsInDm(deps, client, command.user_id, answer, charts, log);
}

/** The check's answer in the channel, then what it fetched drawn (a Dataflow worker's memory, Glue's heap) in its thread. */
async function postInChannel(
  deps: SlackDeps,
  client: Args['client'],
  channel: string,
  answer: MessageView,
  charts: readonly ChartData[] | undefined,
): Promise<void> {
  const posted = await client.chat.postMessage({ channel, text: answer.text, blocks: answer.blocks });
  if (posted.ts && charts?.length) await postCharts(deps, client, charts, { channel, threadTs: posted.ts });
}

/** A reply whose text is already mrkdwn (it mentions people). */
function mentionsView(text: string): MessageView {
  return { text, blocks: [section(text)] };
}

/** The literal registry of verbs: adding one is one function and one line here. */
export const SLASH_VERBS: { [K in SlashRequest['kind']]: Verb<K> } = {
  diagnose,
  modal,
  help: async () => helpView(),
  list: async (deps) => listView(deps.playbooks),
  calc,
  walk,
  status,
  private: privately,
  handover: async (deps, { command, client }, request) =>
    mentionsView(
      await handOver(deps, client, {
        ...request,
        workspace: command.team_id,
        channel: command.channel_id,
        user: command.user_id,
      }),
    ),
  check: checkVerb,
  stats: async (deps, { command }) => statsView(await readStats(deps, command.team_id)),
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
      log.warn({ code: failure.code, err: failure.detail ?? failure.message }, 'slash command failed');
      await respond({ response_type: 'ephemeral', ...noticeView(failure.message) });
    }
  };
}
