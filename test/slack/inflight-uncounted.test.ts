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
import { InflightBytes, InflightTooLargeError } from '../../src/slack/inflight.ts';
import { addToCase, type CaseWhere } from '../../src/usecases/add-to-case.ts';
import { waitFor } from './support/harness.ts';

/*
 * Issue 35, item 8: what the Slack app holds of pastes and uploads in memory is counted under
 * MEMDOCTOR_MAX_INFLIGHT_BYTES on the paths that used to go uncounted: a paste waiting for its
 * thread, a paste joining a case, and a case's input, whose lines its reader keeps until it is read.
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
  it('a case’s input stays counted until its reader is done with the lines, not chunk by chunk', async () => {
    const size = statSync(NODEMANAGER).size;
    let released = 0;
    let releasedWhileReading = -1;
    const context = {
      cases: new MemoryCaseStore(),
      playbooks,
      limits: DEFAULT_CASE_LIMITS,
      readInput: async (job: { source: string; chunks: AsyncIterable<Uint8Array>; maxBytes: number }) => {
        const { readHere } = await import('../../src/usecases/add-to-case.ts');
        const stored = await readHere(job);
        // The lines were read and are still held here: nothing of them may have been given back yet.
        releasedWhileReading = released;
        return stored;
      },
    };
    const input = {
      source: 'nodemanager.log',
      chunks: createReadStream(NODEMANAGER, { highWaterMark: 1024 }),
      onRead: (bytes: number) => {
        released += bytes;
      },
    };
    await addToCase({ where: where('1700000000.000001'), input }, context);
    expect(releasedWhileReading).toBe(0);
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

  it('a case’s file larger than the whole cap is refused at once, naming the setting', async () => {
    const inflight = new InflightBytes(128 * 1024, 60_000);
    const share = inflight.stream({ whole: true });
    async function* big() {
      for (let i = 0; i < 4; i++) yield Buffer.alloc(64 * 1024, 'x');
    }
    const read = async () => {
      for await (const _ of share.count(big()));
    };
    await expect(read()).rejects.toThrow(InflightTooLargeError);
    await expect(read()).rejects.toThrow(/MEMDOCTOR_MAX_INFLIGHT_BYTES/);
    share.close();
    expect(inflight.bytesHeld).toBe(0);
  });
});
