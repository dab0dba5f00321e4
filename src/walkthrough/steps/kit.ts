import { z } from 'zod';
import { type Fact, FactBook } from '../../engine/facts.ts';
import { factsFor } from '../../engine/match.ts';
import type { ParsedOutput } from '../../engine/parsers/types.ts';
import type { FactRef } from '../../engine/playbook/schema.ts';
import { fill, placeholders } from '../../engine/templates.ts';
import { WalkthroughInvalidEventError } from '../../errors.ts';
import type { WalkthroughEvent } from '../events.ts';
import type { MeasurementUnit } from '../measurement-units.ts';

// What every step kind (./<kind>.ts) is built from: the fields all steps share, what a kind tells the
// machine, the views and the lint, and the context it is given. Nothing here knows any one kind.

export const stepId = z.string().regex(/^[a-z][a-z0-9-]*$/, 'a step id is lower-case words joined by "-"');

/** The fields every step has; a kind's schema spreads them and adds `kind: z.literal(...)`. */
export const baseStep = {
  id: stepId,
  title: z.string().min(1).max(150),
  text: z.string().min(1),
};

const FactValueSchema = z.union([z.string(), z.number(), z.boolean()]);

/** A fact without its source line: what a walkthrough keeps from the diagnosis and from pastes. */
export const FindingSchema = z.strictObject({
  kind: z.string().min(1),
  values: z.record(z.string(), FactValueSchema).optional(),
});
export type Finding = z.infer<typeof FindingSchema>;

/** Values a parsed paste reports, by key. */
export const ParsedValuesSchema = z.record(z.string(), FactValueSchema);

/** One round of a step that takes several answers (a bisection): what was tried, and what showed. */
export const RoundSchema = z.strictObject({ tested: z.array(z.string()).min(1), leak: z.boolean() });
export type Round = z.infer<typeof RoundSchema>;

/** A comparison on a number or value: the answer of a measurement, or a value a parser found. */
export const ConditionSchema = z.strictObject({
  /** Which value: `value` (the measurement itself) or a key of the parsed output's values. */
  value: z.string().min(1).default('value'),
  op: z.enum(['lt', 'lte', 'gt', 'gte', 'eq', 'neq']),
  to: z.union([z.number(), z.string(), z.boolean()]),
});
export type Condition = z.infer<typeof ConditionSchema>;

/** Go to `next` when every condition holds. Branches are tried in order. */
export const BranchSchema = z.strictObject({
  when: z.array(ConditionSchema).min(1),
  next: stepId,
  /** Shown to the user with the branch taken, e.g. "Heap stays above 80%: the heap is too small." */
  because: z.string().min(1).optional(),
});
export type Branch = z.infer<typeof BranchSchema>;

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

/** A button or numbered choice: what it says and the event it sends. */
export interface StepOption {
  label: string;
  event: WalkthroughEvent;
}

/** Where a bisection stands: round number (1-based), what is still suspected, what to run next. */
export interface BisectionState {
  round: number;
  remaining: string[];
  testWith: string[];
  holdBack: string[];
}

/** What a view shows beyond title, text and options; each kind fills the fields it has. */
export interface StepDetails {
  /** How to type the answer, e.g. "a percentage from 0 to 100 (85 or 85%)". */
  hint?: string;
  /** The step's own bounds where narrower than its unit's, e.g. "from 0% to 80%". */
  bounds?: string;
  unit?: MeasurementUnit;
  min?: number;
  max?: number;
  parser?: { id: string; title: string; howToGet: string };
  bisection?: BisectionState & { symptom: string; total: number };
  fix?: string[];
  verify?: string[];
}

/**
 * The current step as a chat message or console prompt shows it: texts with `{{placeholders}}`
 * filled, the choices as events, and what its kind needs. Pure; Slack and the console both use it.
 */
export interface StepView extends StepDetails {
  walkthrough: string;
  version: number;
  status: 'active' | 'done' | 'abandoned';
  step: string;
  kind: string;
  /** 1-based count of steps shown so far, including this one. */
  number: number;
  title: string;
  text: string;
  /** Choices (and skip, where allowed); empty once the walkthrough is over. */
  options: StepOption[];
  /** How it is answered besides its options: a typed value, or pasted command output. */
  input?: 'value' | 'output';
  /** The step that ends the walkthrough (a conclusion). */
  final?: boolean;
  canBack: boolean;
}

/** Typed text read as an answer: the event (and how the text was read), or why it is not one. */
export type TypedAnswer = { event: WalkthroughEvent; shown?: string } | { refusal: string };

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
  readonly input?: 'value' | 'output';
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

/** What a view says about a parser. */
export interface ParserInfo {
  title: string;
  howToGet: string;
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

/** The refusal for an event a step does not take. */
export function wrongEvent(
  step: BaseStep,
  expects: string,
  event: AnswerEvent,
): WalkthroughInvalidEventError {
  return new WalkthroughInvalidEventError(
    `step "${step.title}" is a ${step.kind} step: ${expects} (got "${event.type}").`,
  );
}

/** Where skipping leads; a step without `on_skip` cannot be skipped. */
export function skipTo(step: BaseStep & { on_skip?: string }, expects: string): string {
  if (step.on_skip) return step.on_skip;
  throw new WalkthroughInvalidEventError(`step "${step.title}" cannot be skipped: ${expects}.`);
}

/** An edge for an optional field: none when the field is unset. */
export function edgeIf(
  field: string,
  target: string | undefined,
  label: string,
  learns: string[],
): StepEdge[] {
  return target === undefined ? [] : [{ field, target, label, learns }];
}

/**
 * Fills `{{name}}` from what is known; a name with no value yet shows as `<name unknown>` so the
 * sentence still reads and the gap is visible.
 */
export function fillKnown(template: string, values: Readonly<Record<string, string>>): string {
  const complete: Record<string, string> = { ...values };
  for (const name of placeholders(template)) complete[name] ??= `<${name} unknown>`;
  return fill(template, complete) ?? template;
}

/** Facts meeting a playbook fact reference (`kind`, `prefix.*`, with `where`), as the engine matches them. */
export function matchingFacts(facts: readonly Finding[], ref: FactRef): Fact[] {
  const book = new FactBook();
  for (const f of facts) book.add({ kind: f.kind, values: f.values, line: 0, text: '' });
  return factsFor(book, ref);
}

/** A fact reference as a person reads it: `oom.java-heap` or `config (key=spark.driver.memory)`. */
export function refText(ref: FactRef): string {
  if (typeof ref === 'string') return ref;
  const where = Object.entries(ref.where ?? {}).map(([k, v]) => `${k}=${v}`);
  return where.length > 0 ? `${ref.fact} (${where.join(', ')})` : ref.fact;
}
