/** Cases (issue 25): the inputs of one Slack thread or console session, kept as facts, never as text. */
export { type CaseRecord, type CaseWhere, MAX_LEFT_OUT } from './record.ts';
export { MemoryCaseStore } from './store/memory.ts';
export type { CaseAddition, CaseChangeResult, CaseStore } from './store/types.ts';
