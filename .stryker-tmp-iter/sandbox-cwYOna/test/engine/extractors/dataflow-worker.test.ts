// @ts-nocheck
import { describe, expect, it } from 'vitest';
import { dataflowWorker } from '../../../src/engine/extractors/dataflow-worker.ts';
import { kindsOf } from './run-extractor.ts';

describe('dataflow-worker', () => {
  it.each([
    // Templates t065 (Dataflow job message).
    '      Root cause: The worker lost contact with the service.,',
    // Quoted in googlegenomics/gcp-variant-transforms docs/troubleshooting.md (search index id 2398199992).
    'A work item was attempted 4 times without success. Each time the worker eventually lost contact with the service.',
  ])('a lost worker, which also names Dataflow: %s', (line) => {
    expect(kindsOf(dataflowWorker, line)).toEqual(['dataflow.worker-lost', 'platform.dataflow']);
  });

  it.each([
    'WARN The client lost contact with the service for 30 s, retrying',
    'The job failed because a work item has failed 4 times.',
  ])('finds nothing in %s', (line) => {
    expect(kindsOf(dataflowWorker, line)).toEqual([]);
  });
});
