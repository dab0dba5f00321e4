/** A case: several inputs read into one fact set, joined by the keys they name (issue 25). */
export type { CaseGroupReport, CaseReport, ContainerChoice } from './case-report.ts';
export { reportCase, reportStoredCase } from './case-report.ts';
export type { CaseDiagnosis, CaseEvidence } from './diagnose-case.ts';
export { formatCite } from './diagnose-case.ts';
export type { InputKeys } from './join.ts';
export type { JoinKey, KeyFamily } from './keys/types.ts';
export {
  type CaseLimits,
  DEFAULT_CASE_LIMITS,
  type LeftOut,
  type RawCaseInput,
  readCase,
  readCaseInput,
  readStoredInput,
} from './read-case.ts';
export type { RefinedBy } from './refine/refined-by.ts';
export {
  caseFindings,
  renamed,
  type StoredInput,
  StoredInputReader,
  storedEvidence,
  storedInput,
} from './stored.ts';
export type { TimeSpan } from './time.ts';
export type { Unmatched } from './unmatched.ts';
