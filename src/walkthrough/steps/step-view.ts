import type { WalkthroughEvent } from '../events.ts';
import type { MeasurementUnit } from '../measurement-units.ts';

// What a step looks like to a surface: its options, its details, the view, and a typed answer.

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
  /** How it is answered besides its options: a typed value, pasted command output, or a heap dump file. */
  input?: 'value' | 'output' | 'dump';
  /** The step that ends the walkthrough (a conclusion). */
  final?: boolean;
  canBack: boolean;
}

/** Typed text read as an answer: the event (and how the text was read), or why it is not one. */
export type TypedAnswer = { event: WalkthroughEvent; shown?: string } | { refusal: string };

/** What a view says about a parser. */
export interface ParserInfo {
  title: string;
  howToGet: string;
}
