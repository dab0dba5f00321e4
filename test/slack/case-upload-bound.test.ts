import { describe, expect, it } from 'vitest';
import { MemoryCaseStore } from '../../src/cases/store/memory.ts';
import { loadPlaybooks, PLAYBOOKS_DIR } from '../../src/playbooks/load.ts';
import { EnginePool } from '../../src/setup/engine-pool.ts';
import { KEEP_MAX_BYTES } from '../../src/slack/diagnose.ts';
import { InflightBytes } from '../../src/slack/inflight.ts';
import { PATIENCE_MS } from '../support/patience.ts';
import { JOBMANAGER, NODEMANAGER, ROOMY } from './support/cases.ts';
import { threadReplies } from './support/clicks.ts';
import { diagnoseInChannel, type Harness, startHarness, waitFor } from './support/harness.ts';
import { eventEnvelope, fileShareEvent } from './support/payloads.ts';

/*
 * Issue 35, item 8: a thread's case reads a large upload (over KEEP_MAX_BYTES, so downloaded again
 * for its case) as a diagnosis reads it: streamed under MEMDOCTOR_MAX_INFLIGHT_BYTES, waiting for
 * room, keeping its keys and facts but not its lines. The inputs are real (HUDI-9339's NodeManager
 * and JobManager logs, test/fixtures/case/SOURCES.md); the NodeManager log is followed by ordinary
 * Spark lines of the same hour up to 18 MiB, so its facts and keys come first and the case must still join them.
 */

// Spark's log4j layout, written within the minutes of the JobManager log's run: one incident.
const ORDINARY =
  '23/08/01 18:20:01 INFO TaskSetManager: Finished task 3.0 in stage 7.0 (TID 42) in 1234 ms on host-17 (executor 5) (3/200)\n';
const MiB = 1024 * 1024;
const USER = 'UALICE01';

async function upload(h: Harness, channel: string, thread: string, id: string, name: string, bytes: Buffer) {
  const file = h.fake.addFile(id, name, bytes);
  await h.sender.event(
    eventEnvelope(
      fileShareEvent({
        user: USER,
        channel,
        threadTs: thread,
        parentUserId: h.fake.botUserId,
        files: [file],
      }),
    ),
  );
}

/** The NodeManager log, then ordinary lines, to `bytes` in all. */
function largeNodeManagerLog(bytes: number): Buffer {
  const padding = ORDINARY.repeat(Math.ceil((bytes - NODEMANAGER.length) / ORDINARY.length));
  return Buffer.concat([NODEMANAGER, Buffer.from(padding)]);
}

/**
 * The Slack app with the shipped playbooks, one pool thread, a thread case store and the in-flight
 * cap `cap`; `duringCaseReads` gets each count the cap reaches while a case's input is being read.
 */
async function appWith(cap: number) {
  const playbooks = loadPlaybooks(PLAYBOOKS_DIR);
  const pool = new EnginePool({ playbooks, threads: 1 });
  const duringCaseReads: number[] = [];
  let caseReads = 0;
  const inflight = new InflightBytes(cap, PATIENCE_MS, (held) => {
    if (caseReads > 0) duringCaseReads.push(held);
  });
  const readCase = pool.readCase.bind(pool);
  pool.readCase = async (job) => {
    caseReads++;
    try {
      return await readCase(job);
    } finally {
      caseReads--;
    }
  };
  const h = await startHarness({
    playbooks,
    settings: { maxUploadBytes: 32 * MiB, maxExpandedBytes: 32 * MiB },
    extend: (deps) => ({
      ...deps,
      engines: pool,
      inflight,
      cases: { store: new MemoryCaseStore(), limits: ROOMY },
    }),
  });
  const stop = async () => {
    await h.stop();
    await pool.close();
  };
  return { h, inflight, duringCaseReads, stop };
}

/** Waits until the thread's first file started its case (or failed to: the test then fails). */
async function caseStarted(h: Harness) {
  await waitFor(
    () => h.logs.lines.find((l) => l.msg === 'case started' || l.msg === 'case not started'),
    120_000,
  );
  expect(h.logs.lines.filter((l) => l.msg === 'case not started')).toEqual([]);
}

describe('a large upload read into a thread’s case', () => {
  it('is streamed under the in-flight cap, waiting for room, and its facts still join the case', async () => {
    const cap = MiB;
    const big = largeNodeManagerLog(18 * MiB);
    expect(big.length).toBeGreaterThan(KEEP_MAX_BYTES);
    const { h, inflight, duringCaseReads, stop } = await appWith(cap);
    try {
      const root = await diagnoseInChannel(h, 'nothing to see here', USER, 'CBIG01');
      await upload(h, 'CBIG01', root.ts, 'FBIG1', 'nodemanager.log', big);
      await caseStarted(h);
      const answer = await waitFor(() => threadReplies(h, 'CBIG01', root.ts)[0]);
      await upload(h, 'CBIG01', root.ts, 'FBIG2', 'jobmanager.log', JOBMANAGER);
      const update = await waitFor(() => h.fake.callsTo('chat.update')[0], 60_000);
      expect(update.args).toMatchObject({ channel: 'CBIG01', ts: answer.ts });
      const edited = JSON.stringify(JSON.parse(update.args.blocks ?? '[]'));
      // The large file's key and fact lines (its first) are cited beside the second file's.
      expect(edited).toContain('nodemanager.log:1:');
      expect(edited).toMatch(/jobmanager\.log:\d+:/);
      expect(edited).toContain('read together: nodemanager.log, jobmanager.log');
      // Its 18 MiB went through a 1 MiB cap while the case read it: counted, never past the cap.
      expect(duringCaseReads.length).toBeGreaterThan(18);
      expect(Math.max(...duringCaseReads)).toBeLessThanOrEqual(cap);
      expect(inflight.peakBytes).toBeLessThanOrEqual(cap);
      await waitFor(() => inflight.bytesHeld === 0 || undefined);
    } finally {
      await stop();
    }
  }, 180_000);

  it('is not copied for its case when Slack announces it larger than KEEP_MAX_BYTES', async () => {
    // Room for a kept copy (16 MiB in the lower half of the cap): only the announced size says no.
    const { h, inflight, stop } = await appWith(128 * MiB);
    try {
      const root = await diagnoseInChannel(h, 'nothing to see here', USER, 'CBIG02');
      await upload(h, 'CBIG02', root.ts, 'FBIG3', 'nodemanager.log', largeNodeManagerLog(18 * MiB));
      await caseStarted(h);
      // The download and the case's second one held a few pieces at a time, never a 16 MiB copy.
      expect(inflight.peakBytes).toBeLessThan(4 * MiB);
      await waitFor(() => inflight.bytesHeld === 0 || undefined);
    } finally {
      await stop();
    }
  }, 180_000);
});
