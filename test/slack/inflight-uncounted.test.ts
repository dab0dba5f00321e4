import { createReadStream, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryCaseStore } from '../../src/cases/store/memory.ts';
import { DEFAULT_CASE_LIMITS } from '../../src/engine/case/index.ts';
import { loadPlaybooks, PLAYBOOKS_DIR } from '../../src/playbooks/load.ts';
import { EnginePool } from '../../src/setup/engine-pool.ts';
import {
  addInputToCase,
  type DiagnoseDeps,
  diagnosePaste,
  readInputForCase,
} from '../../src/slack/diagnose.ts';
import { InflightBytes } from '../../src/slack/inflight.ts';
import { addToCase, type CaseWhere } from '../../src/usecases/add-to-case.ts';
import { waitFor } from './support/harness.ts';

/*
 * Issue 35, item 8: what the Slack app holds of pastes and uploads in memory is counted under
 * MEMDOCTOR_MAX_INFLIGHT_BYTES on the paths that used to go uncounted: a paste waiting for its
 * thread, a paste joining a case, and a case's input, each chunk until its reader has read it.
 */

const playbooks = loadPlaybooks(PLAYBOOKS_DIR);
// A real NodeManager log (test/fixtures/case/SOURCES.md).
const NODEMANAGER = join(import.meta.dirname, '..', 'fixtures', 'case', 'hudi-9339', 'nodemanager.log');
const PASTE = 'Running Spark version 3.5.1\njava.lang.OutOfMemoryError: Java heap space\n';
const where = (thread: string): CaseWhere => ({ workspace: 'T1', conversation: 'C1', thread });
const pools: EnginePool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

/** The deps a diagnosis and a case use, with an in-flight cap that records every count it reaches. */
function depsWith(capBytes: number, engines?: EnginePool) {
  const counts: number[] = [];
  const inflight = new InflightBytes(capBytes, 2_000, (held) => counts.push(held));
  const deps: DiagnoseDeps & { cases: NonNullable<DiagnoseDeps['cases']> } = {
    settings: { botToken: 'xoxb-test', maxUploadBytes: 1 << 20, maxExpandedBytes: 1 << 24, fileHosts: [] },
    playbooks,
    inflight,
    cases: { store: new MemoryCaseStore(), limits: DEFAULT_CASE_LIMITS },
    ...(engines ? { engines } : {}),
  };
  return { deps, inflight, counts };
}

describe('what used to go uncounted', () => {
  it('a case’s input is given back chunk by chunk as its reader reads it: it keeps no lines', async () => {
    const size = statSync(NODEMANAGER).size;
    let released = 0;
    let pulled = 0;
    // How much had been given back each time the reader asked for a chunk after the first.
    const releasedAtPull: number[] = [];
    async function* chunks() {
      for await (const chunk of createReadStream(NODEMANAGER, { highWaterMark: 64 })) {
        if (pulled++ > 0) releasedAtPull.push(released);
        yield chunk as Buffer;
      }
    }
    const context = { cases: new MemoryCaseStore(), playbooks, limits: DEFAULT_CASE_LIMITS };
    const input = {
      source: 'nodemanager.log',
      chunks: chunks(),
      onRead: (bytes: number) => {
        released += bytes;
      },
    };
    const answer = await addToCase({ where: where('1700000000.000001'), input }, context);
    expect(answer.record.inputs[0]?.keys.first.length).toBeGreaterThan(0);
    // Each chunk but the first was asked for once the one before it was given back.
    expect(releasedAtPull.length).toBeGreaterThan(2);
    expect(releasedAtPull.every((bytes) => bytes > 0)).toBe(true);
    expect(released).toBe(size);
  });

  it('a paste joining a case counts its bytes while the case reads it', async () => {
    const { deps, counts, inflight } = depsWith(1 << 20);
    await addInputToCase(deps, { source: 'paste', text: PASTE }, where('1700000000.000002'));
    expect(Math.max(0, ...counts)).toBe(Buffer.byteLength(PASTE));
    expect(inflight.bytesHeld).toBe(0);
  });

  it('a paste waiting for its thread counts from when it arrives', async () => {
    const engines = new EnginePool({ playbooks, threads: 1 });
    pools.push(engines);
    const { deps, inflight } = depsWith(1 << 20, engines);
    // The one thread is busy reading a stream the test holds open.
    let finish = () => {};
    const open = new Promise<void>((resolve) => {
      finish = resolve;
    });
    async function* held() {
      yield Buffer.from('starting\n');
      await open;
    }
    const busy = readInputForCase(deps, { source: 'held.log', chunks: held() }, where('1700000000.000003'));
    await waitFor(() => engines.saturated || undefined);
    const paste = diagnosePaste(deps, PASTE);
    await waitFor(() => inflight.bytesHeld >= Buffer.byteLength(PASTE) || undefined);
    finish();
    await busy;
    expect((await paste).report.diagnoses.length).toBeGreaterThan(0);
    expect(inflight.bytesHeld).toBe(0);
  });

  it('a waiting paste is let in only while the cap is under half full', async () => {
    const inflight = new InflightBytes(100, 2_000);
    let release = () => {};
    void inflight.hold(60, () => new Promise<void>((resolve) => (release = resolve)));
    let admitted = false;
    const waiting = inflight.hold(
      10,
      async () => {
        admitted = true;
      },
      50,
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(admitted).toBe(false);
    release();
    await waiting;
    expect(admitted).toBe(true);
  });
});
