/**
 * The diagnosis use case: the one floor between the engine and the surfaces. The CLI, the console
 * and Slack parse their input into a DiagnosisRequest and render the DiagnosisResult; nothing else.
 */

export type { CaseDiagnosis, CaseLimits, CaseReport } from '../engine/case/index.ts';
export { formatCite } from '../engine/case/index.ts';
export { type CaseRequest, diagnoseCase } from './case.ts';
export { routeCaseInput } from './case-heap-dump.ts';
export {
  type DiagnosisContext,
  type DiagnosisInput,
  type DiagnosisRequest,
  type DiagnosisResult,
  diagnose,
  type HeapDumpRead,
} from './diagnose.ts';
export {
  checkCaseHeapDumps,
  checkHeapDumpUpload,
  diagnoseHeapDumpUpload,
  type HeapDumpJob,
  type HeapDumpOffload,
  heapDumpDownloadLimit,
  isHeapDumpRefusal,
  namedLikeHeapDump,
} from './heap-dump-file.ts';
export { failureNote } from './notes.ts';
export type { SuggestionAssist } from './suggest.ts';
export { knownFacts, walkthroughStart } from './walkthrough-start.ts';
