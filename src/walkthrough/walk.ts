import type { ParseFn } from './answer.ts';
import type { WalkthroughEvent } from './events.ts';
import { stepContext } from './known.ts';
import { createRecord, transition } from './machine.ts';
import { stepById } from './prefill.ts';
import type { Procedure, Step } from './procedure-schema.ts';
import type { Finding, WalkthroughRecord } from './record.ts';
import { stepKind } from './steps/registry.ts';

/**
 * A scripted answer for one step: an event, or the short form (instruction `done`/`skip`/`cant`,
 * a question's answer id, a paste's text, a measurement's number, `skip`), or for a bisection the
 * candidate that really is the culprit (rounds are then answered truthfully).
 */
export type ScriptedAnswer = WalkthroughEvent | string | number | { culprit: string };

/** Options for {@link walkProcedure}: what the diagnosis knew, and the parser for pastes. */
export interface WalkOptions {
  facts?: Finding[];
  values?: Record<string, string>;
  parse?: ParseFn;
}

/** Where a scripted walk ended. */
export interface WalkResult {
  /** The conclusion step reached. */
  conclusion: string;
  /** Every step passed on the way, prefilled ones included, then the conclusion. */
  steps: string[];
  record: WalkthroughRecord;
}

function eventFor(step: Step, answer: ScriptedAnswer, record: WalkthroughRecord): WalkthroughEvent {
  if (typeof answer === 'object' && 'type' in answer) return answer;
  if (typeof answer === 'number') return { type: 'measure', value: answer };
  if (answer === 'skip' || answer === 'done' || answer === 'cant') return { type: answer };
  const event = stepKind(step.kind).scripted?.(step, answer, stepContext(record));
  if (event) return event;
  if (typeof answer === 'object')
    throw new Error(`step "${step.id}" is not a bisection; a culprit does not answer it`);
  throw new Error(`step "${step.id}" (${step.kind}) cannot be answered with "${answer}"`);
}

/**
 * Walks a procedure from its start with a table of answers by step id, through the real state
 * machine, and reports the conclusion reached. For tests that walk every branch of a procedure.
 * Throws when a step needs an answer the table lacks or refuses the one given.
 */
export function walkProcedure(
  procedure: Procedure,
  answers: Readonly<Record<string, ScriptedAnswer>>,
  options: WalkOptions = {},
): WalkResult {
  const at = '2026-01-01T00:00:00.000Z';
  const ctx = { actor: 'tester', at, parse: options.parse };
  let record = createRecord({
    id: 'local-test-walk000',
    workspace: 'local',
    conversation: 'test',
    playbook: { id: 'walk', version: 'test', title: 'walk' },
    procedure,
    facts: options.facts,
    values: options.values,
    owner: 'tester',
    at,
  });
  let event: WalkthroughEvent = { type: 'start' };
  for (let guard = 0; guard < 10_000; guard++) {
    const result = transition(record, event, ctx);
    if (!result.ok) throw new Error(`at step "${record.current}": ${result.error.message}`);
    record = result.record;
    const current = record.current;
    if (current === null) throw new Error('the walkthrough did not start');
    if (record.status === 'done')
      return { conclusion: current, steps: [...record.path.map((e) => e.step), current], record };
    const answer = answers[current];
    if (answer === undefined) throw new Error(`no answer for step "${current}" in the table`);
    event = eventFor(stepById(record, current), answer, record);
  }
  throw new Error('the walk did not end');
}
