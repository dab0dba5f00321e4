import type { z } from 'zod';
import type { ParsedOutput } from '../../engine/parsers/types.ts';
import type { WalkthroughEvent } from '../events.ts';
import type { Finding, Round } from './step-schemas.ts';
import type { ParserInfo, StepDetails, StepOption, StepView, TypedAnswer } from './step-view.ts';

// What a step kind (./<kind>.ts) is: what it tells the machine, the views and the lint, and the
// context it is given. Nothing here knows any one kind.

/** What every step is, whatever its kind. */
export interface BaseStep {
  id: string;
  kind: string;
  title: string;
  text: string;
}

/** What every stored answer is: tagged with its step's kind. */
export interface BaseAnswer {
  kind: string;
}

/** Parses pasted output with a named parser; throws ParseFailedError saying what to run. */
export type ParseFn = (parserId: string, text: string) => ParsedOutput;

/** The events that answer a step (the others move the walkthrough itself). */
export type AnswerEvent = Exclude<
  WalkthroughEvent,
  { type: 'start' | 'back' | 'abort' | 'thread' | 'handover' }
>;

/** An answer for a step, where it leads, and why. */
export interface Outcome<A extends BaseAnswer = BaseAnswer> {
  answer: A;
  next: string;
  because?: string;
}

/** What an answer does: finish the step (an outcome), or add a round and stay (a bisection). */
export type Effect<A extends BaseAnswer = BaseAnswer> = { outcome: Outcome<A> } | { round: Round };

/** What a kind sees of the walkthrough it is in. */
export interface StepContext {
  /** Every value known so far: the diagnosis' values and the answers (see knownValues). */
  values: Readonly<Record<string, string>>;
  /** The diagnosis' facts plus those parsed from pastes so far. */
  facts: readonly Finding[];
  /** Rounds of the step in progress. */
  rounds: readonly Round[];
  /** The lines an earlier step's answer gave (a paste's pasted lines). */
  linesOf(stepId: string): string[];
  /** Whether a later step takes this step's lines (a bisection's candidates). */
  linesWanted(stepId: string): boolean;
}

/** One way out of a step. */
export interface StepEdge {
  /** The field that names the target, e.g. `answers[1].next`. */
  field: string;
  target: string;
  /** The answer, branch or outcome that takes it: `done`, an answer id, `branch 0`, `otherwise`. */
  label: string;
  /** Values an answer along it makes known to the steps after it (`<step-id>`, `<step-id>.shown`). */
  learns: string[];
}

/** One thing wrong with a procedure, with the field it is at (e.g. `steps[3].answers[1].next`). */
export interface ProcedureProblem {
  path: string;
  message: string;
}

/** What a kind's lint may ask about the rest of the procedure. */
export interface LintContext {
  parsers: ReadonlySet<string>;
  /** Whether the step with this id gives lines to later steps (a paste step). */
  givesLines(stepId: string): boolean;
}

/**
 * One step kind, in one file: its schema, how it is answered, what it shows, how it is checked.
 * Registered with one line in ./registry.ts. Methods are called only with steps and answers of
 * this kind.
 */
export interface StepKind<S extends BaseStep = BaseStep, A extends BaseAnswer = BaseAnswer> {
  /** The step as procedure.yaml writes it: a strict object with `kind: z.literal('<kind>')`. */
  readonly schema: z.ZodType<S>;
  /** What an answered step keeps in the record: a strict object with the same `kind` (none for a step never answered). */
  readonly answerSchema?: z.ZodType<A>;
  /** What a person does at such a step, for refusals: "give a number". */
  readonly expects: string;
  /** How it is answered besides its options: a typed value or pasted output (see readText). */
  readonly input?: 'value' | 'output' | 'dump';
  /** Reaching it ends the walkthrough. */
  readonly final?: boolean;
  /** Every way out, in the order a reader meets them. */
  edges(step: S): StepEdge[];
  /** Texts with `{{placeholders}}` besides title and text. */
  templates?(step: S): string[];
  /** What its schema cannot see; `at` is the step's path, e.g. `steps[3]`. */
  lint?(step: S, at: string, procedure: LintContext): ProcedureProblem[];
  /** What an answer event does; refuses other events with wrongEvent. Pastes are read with `parse`. */
  answer(step: S, event: AnswerEvent, ctx: StepContext, parse: ParseFn): Effect<A>;
  /** An answer known without asking (from the diagnosis or earlier answers). */
  prefill?(step: S, ctx: StepContext): Outcome<A> | undefined;
  /** The choices, as buttons or numbers. */
  options(step: S, ctx: StepContext): StepOption[];
  /** What its view shows besides title, text and options. */
  details?(step: S, ctx: StepContext, parsers: Readonly<Record<string, ParserInfo>>): StepDetails;
  /** The answer as one short string: what `{{step-id}}` shows and the transcript prints. */
  answerText(answer: A): string;
  /** What `{{step-id}}` stands for in branches and prefill when not answerText (a bare number). */
  valueText?(answer: A): string;
  /** Values the answer makes known as `<step-id>.<key>` (a paste's parsed values). */
  values?(answer: A): Record<string, string>;
  /** Facts the answer adds (a paste's parsed facts). */
  facts?(answer: A): Finding[];
  /** The rounds an answer that ended a step of rounds carries (a bisection's), for `back`. */
  roundsOf?(answer: A): Round[];
  /** The lines the answer gives to later steps (a paste's lines). */
  lines?(answer: A): string[] | undefined;
  /** The step whose lines it takes (a bisection's `from_step`). */
  linesFrom?(step: S): string | undefined;
  /** Transcript lines under the answer. */
  transcript?(answer: A): string[];
  /** Typed text as this step's answer (kinds with an `input`). */
  readText?(view: StepView, text: string): TypedAnswer;
  /** A scripted answer's short form as an event (walkProcedure), or undefined when it does not take it. */
  scripted?(step: S, answer: string | { culprit: string }, ctx: StepContext): WalkthroughEvent | undefined;
}

/**
 * Declares a kind: first its schemas, which give the types of its steps and answers, then what it
 * does with them: `defineStepKind({ schema, answerSchema })({ expects, edges, answer, ... })`.
 */
export function defineStepKind<S extends BaseStep, A extends BaseAnswer>(schemas: {
  schema: z.ZodType<S>;
  answerSchema?: z.ZodType<A>;
}): (behaviour: Omit<StepKind<S, A>, 'schema' | 'answerSchema'>) => StepKind<S, A> {
  return (behaviour) => ({ ...schemas, ...behaviour });
}
