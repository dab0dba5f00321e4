import type { Derivation } from './types.ts';

/** The Dataflow job id the launcher logged, so a connector can fetch that job without asking for it. */
export const dataflowJob: Derivation = (book): Record<string, string> => {
  const jobId = book.find('dataflow.job')[0]?.values?.jobId;
  return typeof jobId === 'string' && jobId ? { 'dataflow.job-id': jobId } : {};
};
