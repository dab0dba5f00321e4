import { walkthroughStart } from '../../diagnosis/index.ts';
import { UsageError } from '../../errors.ts';
import { openFile, seekableFile } from '../../file-input.ts';
import { findPlaybook } from '../../playbooks/load.ts';
import { answerStep } from '../../usecases/answer-step.ts';
import { heapDumpStepEvent } from '../../usecases/heap-dump-step.ts';
import { readPasteText } from '../../usecases/parse-dump.ts';
import { startWalkthrough } from '../../usecases/start-walkthrough.ts';
import type { Playbook } from '../../usecases/types.ts';
import {
  answerFromText,
  type Conversation,
  type WalkthroughEvent,
  type WalkthroughRecord,
  type WalkthroughService,
} from '../../walkthrough/index.ts';
import type { McpDeps } from '../deps.ts';
import { answer } from '../results.ts';
import type { SessionDiagnoses, SessionDiagnosis } from '../session.ts';
import { walkthroughState, walkthroughText } from '../walkthrough-view.ts';

/**
 * The console's conversation (src/cli/console/session.ts): walkthroughs an agent starts are listed by
 * the console's `status` and continued by `memdoctor resume <id>`, as the user's own are.
 */
export const LOCAL_CONVERSATION: Conversation = { workspace: 'local', conversation: 'console' };

/** Command output read from a file at a paste step, as the console allows; larger files are logs to diagnose. */
const MAX_OUTPUT_BYTES = 64 * 1024 ** 2;

function state(service: WalkthroughService, record: WalkthroughRecord) {
  return walkthroughState(record, service.view(record), service.storeKind);
}

/** The session's diagnosis a walkthrough starts from: the one asked for, else the last of one input. */
function startingPoint(session: SessionDiagnoses, n: number | undefined): SessionDiagnosis | undefined {
  if (n === undefined) return session.lastResult();
  const kept = session.get(n);
  if (kept?.result) return kept;
  throw new UsageError(
    `no diagnosis ${n} of one input in this session; the resources memdoctor://diagnoses/<n> list them.`,
  );
}

/** The playbook to walk through: the one named, else the top diagnosis the walkthrough starts from. */
function chosenPlaybook(
  playbooks: readonly Playbook[],
  from: SessionDiagnosis | undefined,
  id: string | undefined,
): Playbook {
  if (id !== undefined) return findPlaybook(playbooks, id);
  const top = from?.result?.report.diagnoses[0];
  if (!top)
    throw new UsageError(
      from
        ? `diagnosis ${from.n} recognised no known problem, so it points to no playbook: give playbook (the playbooks tool lists them).`
        : 'nothing diagnosed in this session points to a playbook: call diagnose first, or give playbook (the playbooks tool lists them).',
    );
  return findPlaybook(playbooks, top.playbook);
}

export type StartArgs = { playbook?: string | undefined; diagnosis?: number | undefined };

export async function start(deps: McpDeps, session: SessionDiagnoses, args: StartArgs) {
  const from = startingPoint(session, args.diagnosis);
  const playbooks = await deps.playbooks();
  const playbook = chosenPlaybook(playbooks, from, args.playbook);
  if (playbook.procedure === undefined)
    throw new UsageError(
      `playbook "${playbook.id}" has no step-by-step procedure yet; follow the actions its diagnosis lists.`,
    );
  const service = await deps.walkthroughs();
  const diagnosis = from?.result ? walkthroughStart(from.result, playbook.id) : undefined;
  const record = await startWalkthrough(
    { playbooks, walkthroughs: service },
    { playbook, where: LOCAL_CONVERSATION, owner: deps.actor, ...(diagnosis ? { diagnosis } : {}) },
  );
  const now = state(service, record);
  return answer(walkthroughText(now), now);
}

export type AnswerArgs = {
  id: string;
  answer?: string | undefined;
  path?: string | undefined;
  version?: number | undefined;
};

/** A heap-dump step's answer: the dump at `path`, analysed here under the configured budget. */
async function dumpEvent(deps: McpDeps, path: string, step: string): Promise<WalkthroughEvent> {
  const seekable = seekableFile(path);
  if (!seekable)
    throw new UsageError(`no such file: ${path} (give the path of the .hprof or .hprof.gz file).`);
  const { heapDumpBudget } = await deps.diagnosisContext();
  const options = heapDumpBudget === undefined ? {} : { budgetBytes: heapDumpBudget };
  return heapDumpStepEvent({ source: path, chunks: openFile(path), seekable }, options, step);
}

/** The event the typed answer (or the file's output) makes for the walkthrough's current step. */
async function eventFor(
  deps: McpDeps,
  service: WalkthroughService,
  record: WalkthroughRecord,
  args: AnswerArgs,
) {
  const word = args.answer?.trim().toLowerCase();
  if (word === 'back') return { type: 'back' } as const;
  if (word === 'abort') return { type: 'abort', reason: 'aborted by an agent over MCP' } as const;
  const view = service.view(record);
  if (!view || record.status !== 'active')
    throw new UsageError(
      `walkthrough ${record.id} is ${record.status}: nothing to answer (back undoes the last answer).`,
    );
  if ((args.answer === undefined) === (args.path === undefined))
    throw new UsageError(
      'walkthrough_answer takes answer (typed) or path (a file holding the output), one of the two.',
    );
  if (view.input === 'dump' && args.path !== undefined) return dumpEvent(deps, args.path, view.step);
  if (args.path !== undefined && view.input !== 'output')
    throw new UsageError(`step "${view.title}" does not take command output; answer it with answer.`);
  const text =
    args.path !== undefined
      ? await readPasteText(args.path, openFile(args.path), MAX_OUTPUT_BYTES)
      : (args.answer ?? '');
  const typed = answerFromText(view, text);
  if ('refusal' in typed) throw new UsageError(`step "${view.title}": ${typed.refusal}.`);
  return typed.event as WalkthroughEvent;
}

export async function answerOne(deps: McpDeps, args: AnswerArgs) {
  const service = await deps.walkthroughs();
  const record = await service.get(args.id);
  if (args.version !== undefined && args.version !== record.version)
    throw new UsageError(
      `walkthrough ${record.id} is at version ${record.version}, not ${args.version}: someone answered since. walkthrough_status shows where it is now.`,
    );
  const event = await eventFor(deps, service, record, args);
  const request = { walkthrough: record.id, event, actor: deps.actor, expectedVersion: record.version };
  const result = await answerStep({ walkthroughs: service }, request);
  if (result.kind !== 'answered') throw result.error;
  const now = state(service, result.after);
  const shownBefore = event.type === 'back' ? now.answered.length : record.path.length;
  return answer(walkthroughText(now, shownBefore), now);
}

export async function status(deps: McpDeps, id: string | undefined) {
  const service = await deps.walkthroughs();
  const active = (await service.listActive(LOCAL_CONVERSATION)).map((r) => ({
    id: r.id,
    playbook: r.playbook.id,
    step: service.view(r)?.title ?? '-',
    version: r.version,
  }));
  const list = active.map((a) => `  ${a.id}  ${a.playbook}  at "${a.step}" (v${a.version})`);
  const activeText =
    active.length === 0 ? 'No active walkthroughs.' : `Active walkthroughs:\n${list.join('\n')}`;
  if (id === undefined) return answer(activeText, { active });
  const now = state(service, await service.get(id));
  const transcript = await service.transcript(id);
  return answer(`${walkthroughText(now)}\n\n${transcript}`, { active, walkthrough: now, transcript });
}
