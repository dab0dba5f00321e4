import { parseText } from '../engine/parsers/parse-text.ts';
import {
  asMemdoctorError,
  type MemdoctorError,
  WalkthroughConflictError,
  WalkthroughInvalidEventError,
} from '../errors.ts';
import { answerStep, type Effect, type ParseFn } from './answer.ts';
import type { WalkthroughEvent } from './events.ts';
import { answerText } from './known.ts';
import { enter, stepById } from './prefill.ts';
import type { Procedure } from './procedure-schema.ts';
import type { Conversation, Finding, WalkthroughRecord } from './record.ts';
import { stepKind } from './steps/registry.ts';

/** Who acts, when, and how pastes are parsed (tests inject a parser; the default is parseText). */
export interface TransitionContext {
  actor: string;
  /** ISO timestamp of the event. */
  at: string;
  parse?: ParseFn;
}

/** A transition's result: the next record, or why the event was refused (the record is unchanged). */
export type TransitionResult = { ok: true; record: WalkthroughRecord } | { ok: false; error: MemdoctorError };

/** What a new walkthrough starts from. */
export interface NewWalkthrough extends Conversation {
  id: string;
  thread?: string;
  playbook: { id: string; version: string; title: string };
  procedure: Procedure;
  facts?: Finding[];
  values?: Record<string, string>;
  owner: string;
  at: string;
}

/** A record before its `start` event: version 0, no current step. */
export function createRecord(input: NewWalkthrough): WalkthroughRecord {
  return {
    format: 1,
    id: input.id,
    workspace: input.workspace,
    conversation: input.conversation,
    ...(input.thread ? { thread: input.thread } : {}),
    playbook: input.playbook,
    procedure: input.procedure,
    status: 'active',
    current: null,
    path: [],
    rounds: [],
    facts: input.facts ?? [],
    values: input.values ?? {},
    owner: input.owner,
    participants: [input.owner],
    audit: [],
    archivedAudit: 0,
    createdAt: input.at,
    updatedAt: input.at,
    version: 0,
  };
}

function effectDetail(effect: Effect): string {
  if ('round' in effect) {
    const { tested, leak } = effect.round;
    return `${leak ? 'leak' : 'no leak'} with ${tested.join(', ')}`;
  }
  const { answer, because } = effect.outcome;
  const text = answerText(answer);
  const last = stepKind(answer.kind).roundsOf?.(answer).at(-1);
  const round = last ? `${last.leak ? 'leak' : 'no leak'} with ${last.tested.join(', ')}; found ` : '';
  return `${round}${text}${because ? ` (${because})` : ''}`;
}

function back(record: WalkthroughRecord): { record: WalkthroughRecord; detail: string } {
  if (record.status === 'active' && record.rounds.length > 0)
    return {
      record: { ...record, rounds: record.rounds.slice(0, -1) },
      detail: 'undid the last bisection round',
    };
  const last = record.path.findLastIndex((e) => !e.prefilled);
  const entry = record.path[last];
  if (!entry) throw new WalkthroughInvalidEventError('nothing to go back to: no step has been answered yet.');
  const rounds = stepKind(entry.answer.kind).roundsOf?.(entry.answer).slice(0, -1) ?? [];
  const title = stepById(record, entry.step).title;
  return {
    record: { ...record, status: 'active', current: entry.step, path: record.path.slice(0, last), rounds },
    detail: `back to "${title}"`,
  };
}

function checkStep(record: WalkthroughRecord, event: WalkthroughEvent): void {
  if (!('step' in event) || event.step === undefined || event.step === record.current) return;
  const answered = record.path.findLast((e) => e.step === event.step);
  const what = answered ? `was already answered by ${answered.by}` : 'is not the current step';
  throw new WalkthroughConflictError(
    `that step ${what}; the walkthrough is now at "${record.current}". Answer the current step instead.`,
  );
}

/** The owner changes; the audit trail keeps who passed it to whom. */
function handOver(record: WalkthroughRecord, to: string): { record: WalkthroughRecord; detail: string } {
  if (to === record.owner) throw new WalkthroughInvalidEventError(`${to} already owns this walkthrough.`);
  const participants = record.participants.includes(to) ? record.participants : [...record.participants, to];
  return {
    record: { ...record, owner: to, participants },
    detail: `handed over from ${record.owner} to ${to}`,
  };
}

function step(
  record: WalkthroughRecord,
  event: WalkthroughEvent,
  ctx: TransitionContext,
): { record: WalkthroughRecord; detail: string } {
  if (event.type === 'start') {
    if (record.current !== null || record.version !== 0)
      throw new WalkthroughInvalidEventError('this walkthrough has already started.');
    return { record: enter(record, record.procedure.start, ctx.at), detail: `started ${record.playbook.id}` };
  }
  if (event.type === 'thread')
    return { record: { ...record, thread: event.thread }, detail: `linked to thread ${event.thread}` };
  if (event.type === 'back' && record.status !== 'abandoned') return back(record);
  if (record.status !== 'active' || record.current === null)
    throw new WalkthroughInvalidEventError(
      `this walkthrough is ${record.status === 'active' ? 'not started' : record.status}; start a new one to continue.`,
    );
  if (event.type === 'abort')
    return { record: { ...record, status: 'abandoned' }, detail: event.reason ?? 'abandoned' };
  if (event.type === 'handover') return handOver(record, event.to);
  if (event.type === 'back') throw new WalkthroughInvalidEventError('unreachable');
  checkStep(record, event);
  const current = stepById(record, record.current);
  const effect = answerStep(record, current, event, ctx.parse ?? parseText);
  if ('round' in effect)
    return { record: { ...record, rounds: [...record.rounds, effect.round] }, detail: effectDetail(effect) };
  const entry = { step: current.id, ...effect.outcome, by: ctx.actor, prefilled: false, at: ctx.at };
  const answered = { ...record, path: [...record.path, entry], rounds: [] };
  return { record: enter(answered, effect.outcome.next, ctx.at), detail: effectDetail(effect) };
}

/**
 * The walkthrough state machine: a pure function of the record and one event. An accepted event
 * bumps the version, stamps the time, adds the actor to the participants and to the audit trail.
 * A refused event (wrong kind, unparseable paste, stale step) returns an error; nothing changes.
 */
export function transition(
  record: WalkthroughRecord,
  event: WalkthroughEvent,
  ctx: TransitionContext,
): TransitionResult {
  try {
    const stepAt = record.current ?? undefined;
    const { record: next, detail } = step(record, event, ctx);
    const participants = next.participants.includes(ctx.actor)
      ? next.participants
      : [...next.participants, ctx.actor];
    const auditEntry = {
      at: ctx.at,
      actor: ctx.actor,
      event: event.type,
      ...(stepAt ? { step: stepAt } : {}),
      detail,
    };
    // The entry for the event goes before any prefill entries `enter` appended, in the order things happened.
    const added = next.audit.slice(record.audit.length);
    return {
      ok: true,
      record: {
        ...next,
        participants,
        audit: [...record.audit, auditEntry, ...added],
        updatedAt: ctx.at,
        version: record.version + 1,
      },
    };
  } catch (error) {
    return { ok: false, error: asMemdoctorError(error) };
  }
}
