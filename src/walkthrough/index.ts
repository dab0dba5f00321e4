/**
 * The walkthrough module's public API: what the Slack layer and the console use. Everything else
 * under src/walkthrough is internal.
 */

export type { ParseFn } from './answer.ts';
export { chartsAnsweredSince, type WalkthroughChart, walkthroughCharts } from './charts.ts';
export { type WalkthroughEvent, WalkthroughEventSchema } from './events.ts';
export { answerText } from './known.ts';
export { checkProcedure, lintProcedure, type ProcedureCheck, type ProcedureProblem } from './lint.ts';
export {
  createRecord,
  type NewWalkthrough,
  type TransitionContext,
  type TransitionResult,
  transition,
} from './machine.ts';
export {
  formatMeasurement,
  MEASUREMENT_UNITS,
  type MeasurementUnit,
  parseMeasurement,
  type Reading,
  rangeText,
  readMeasurement,
  UNIT_HINT,
  UNIT_RANGE,
} from './measurement-units.ts';
export type { Procedure, Step } from './procedure-schema.ts';
export { ProcedureSchema } from './procedure-schema.ts';
export {
  type AuditEntry,
  type Conversation,
  parseWalkthroughId,
  type WalkthroughRecord,
  WalkthroughRecordSchema,
  type WalkthroughStatus,
} from './record.ts';
export {
  type DiagnosisFacts,
  procedureOf,
  type StartWalkthrough,
  WalkthroughService,
  type WalkthroughServiceOptions,
} from './service.ts';
export { STEP_KINDS, type StepKindName } from './steps/registry.ts';
export { fromKey } from './steps/step-rules.ts';
export { type MemoryStoreOptions, MemoryWalkthroughStore } from './store/memory.ts';
export { openStore, type StoreSettings } from './store/open.ts';
export type { RedisStoreOptions } from './store/redis.ts';
export { DEFAULT_TTL_SECONDS, type WalkthroughStore } from './store/types.ts';
export { renderTranscript } from './transcript.ts';
export { answerFromText, optionByWord, readTyped, type TypedAnswer } from './typed.ts';
export { fillKnown, type StepOption, type StepView, viewOf } from './view.ts';
export { type ScriptedAnswer, type WalkOptions, type WalkResult, walkProcedure } from './walk.ts';
