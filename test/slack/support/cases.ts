import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryCaseStore } from '../../../src/cases/store/memory.ts';
import type { CaseStore } from '../../../src/cases/store/types.ts';
import { loadPlaybooks, PLAYBOOKS_DIR } from '../../../src/playbooks/load.ts';
import { MemoryWalkthroughStore, WalkthroughService } from '../../../src/walkthrough/index.ts';
import type { HarnessOptions } from './harness.ts';

// Real inputs: test/fixtures/case/SOURCES.md (HUDI-9339's JobManager and NodeManager logs).
export const CASES = join(import.meta.dirname, '..', '..', 'fixtures', 'case');
export const JOBMANAGER = readFileSync(join(CASES, 'hudi-9339', 'jobmanager.log'));
export const NODEMANAGER = readFileSync(join(CASES, 'hudi-9339', 'nodemanager.log'));

/** A case's limits roomy enough that no test input meets them. */
export const ROOMY = { maxInputs: 8, maxBytes: 1 << 26 };

/** The Slack app with the shipped playbooks and procedures, and thread cases kept in `store`. */
export function withCases(store: CaseStore = new MemoryCaseStore()): HarnessOptions {
  return {
    playbooks: loadPlaybooks(PLAYBOOKS_DIR),
    walkthroughs: new WalkthroughService({ store: new MemoryWalkthroughStore() }),
    extend: (deps) => ({ ...deps, cases: { store, limits: ROOMY } }),
  };
}
