/** A case: several inputs read into one fact set, joined by the keys they name (issue 25). */
export type { CaseGroupReport, CaseReport, ContainerChoice } from './case-report.ts';
export { reportCase } from './case-report.ts';
export type { CaseDiagnosis, CaseEvidence } from './diagnose-case.ts';
export { formatCite } from './diagnose-case.ts';
export { type CaseLimits, DEFAULT_CASE_LIMITS, type LeftOut, readCase } from './read-case.ts';
