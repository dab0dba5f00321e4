import type { AllMiddlewareArgs, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { asMemdoctorError, StoreUnavailableError } from '../../../errors.ts';
import { type CaseWhere, leadGroup, readCaseAnswer } from '../../../usecases/add-to-case.ts';
import type { SlackDeps } from '../../deps.ts';
import { storeDownText } from '../../failures.ts';
import { readWalkSeed, type WalkSeed } from '../../views/walk-seed.ts';
import { cannotStart, startInThread } from '../../walk-start.ts';

type Args = SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & AllMiddlewareArgs;

/** How long a Start click holds its thread against a second one. */
const START_CLAIM_SECONDS = 10;

/** "Start walkthrough" on a diagnosis (or an alternative): the walkthrough runs in that thread. */
export function startWalkthrough(deps: SlackDeps) {
  return async ({ ack, body, action, client }: Args): Promise<void> => {
    await ack();
    const channel = body.channel?.id ?? body.container.channel_id;
    const message = body.message;
    const seed = readWalkSeed(action.value);
    const workspace = body.team?.id ?? body.user.team_id;
    if (!channel || !message || !seed || !workspace) return;
    const user = body.user.id;
    const thread = { channel, ts: message.thread_ts ?? message.ts };
    const tell = (text: string) => client.chat.postEphemeral({ channel, user, thread_ts: thread.ts, text });
    try {
      await startOnce(deps, client, { workspace, thread, user, seed, tell });
    } catch (error) {
      if (!(error instanceof StoreUnavailableError)) throw error;
      deps.log.warn({ channel, code: error.code, err: error.message }, 'walkthrough not started');
      await tell(storeDownText(error, 'no walkthrough was started'));
    }
  };
}

interface StartClick {
  workspace: string;
  thread: { channel: string; ts: string };
  user: string;
  seed: WalkSeed;
  tell: (text: string) => Promise<unknown>;
}

/** Starts the walkthrough unless one runs, or is being started, in the thread. */
async function startOnce(deps: SlackDeps, client: Args['client'], click: StartClick): Promise<void> {
  const { workspace, thread, user, seed } = click;
  // Two quick clicks (or two people) must not start two walkthroughs in one thread: the first
  // claims the thread briefly, long enough for its walkthrough to be stored and found.
  const refusal =
    (await cannotStart(deps, workspace, thread, seed.p)) ??
    ((await deps.dedupe.firstTime(`start:${thread.channel}:${thread.ts}`, START_CLAIM_SECONDS))
      ? undefined
      : 'A walkthrough is already being started in this thread.');
  if (refusal) {
    await click.tell(refusal);
    return;
  }
  const fromCase = await caseKnown(
    deps,
    { workspace, conversation: thread.channel, thread: thread.ts },
    seed.p,
  );
  await startInThread(deps, client, {
    workspace,
    thread,
    owner: user,
    playbook: seed.p,
    diagnosis: fromCase ?? { facts: seed.f, values: seed.v },
  });
}

/**
 * What the thread's case knows, when its answer leads with this playbook: the facts of every input
 * read together (the button carries only what fits in it). A store that cannot say gives undefined.
 */
async function caseKnown(deps: SlackDeps, where: CaseWhere, playbook: string) {
  if (!deps.cases) return undefined;
  const context = { cases: deps.cases.store, limits: deps.cases.limits, playbooks: deps.playbooks };
  try {
    const found = await readCaseAnswer(where, context);
    if (!found || found.record.inputs.length < 2) return undefined;
    return leadGroup(found.report)?.diagnoses[0]?.playbook === playbook ? found.known : undefined;
  } catch (error) {
    deps.log.warn({ channel: where.conversation, err: asMemdoctorError(error).message }, 'case not read');
    return undefined;
  }
}
