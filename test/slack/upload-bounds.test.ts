import { afterEach, describe, expect, it } from 'vitest';
import { EnginePool } from '../../src/setup/engine-pool.ts';
import { InflightBytes } from '../../src/slack/inflight.ts';
import { PATIENCE_MS } from '../support/patience.ts';
import { type Harness, startHarness, testPlaybooks, waitFor } from './support/harness.ts';
import { eventEnvelope, fileShareEvent } from './support/payloads.ts';

/*
 * Issue 35, item 8: uploads are bounded by MEMDOCTOR_MAX_INFLIGHT_BYTES, and an input's time budget
 * (MEMDOCTOR_ENGINE_TIMEOUT_MS) counts from when its work starts, not from when it joined the queue.
 * Each test runs the real Slack flow: signed file_share events into the app, files downloaded from
 * the fake Slack's file host, the diagnosis in the engine pool's threads, the answer posted back.
 */

const ORDINARY =
  '24/11/30 10:00:01 INFO TaskSetManager: Finished task 3.0 in stage 7.0 (TID 42) in 1234 ms on host-17 (executor 5) (3/200)\n';
const HEAP_OOM = 'Running Spark version 3.5.1\njava.lang.OutOfMemoryError: Java heap space\n';
const KiB = 1024;
const MiB = 1024 * KiB;

let h: Harness | undefined;
const pools: EnginePool[] = [];
afterEach(async () => {
  await h?.stop();
  h = undefined;
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

async function app(inflight: InflightBytes, pool: { threads: number; budgetMs?: number }) {
  const engines = new EnginePool({ playbooks: testPlaybooks(), ...pool });
  pools.push(engines);
  h = await startHarness({
    settings: { maxUploadBytes: 8 * MiB },
    extend: (deps) => ({ ...deps, engines, inflight }),
  });
  return { harness: h, engines };
}

/** A file shared in a thread of its own under the bot's message (a memdoctor thread). */
function share(harness: Harness, n: number, file: Record<string, unknown>) {
  return harness.sender.event(
    eventEnvelope(
      fileShareEvent({
        user: `U${n}`,
        channel: `C${n}`,
        threadTs: `1700000000.00000${n}`,
        parentUserId: harness.fake.botUserId,
        files: [file],
      }),
    ),
  );
}

const diagnosed = (harness: Harness) =>
  harness.fake.callsTo('chat.postMessage').filter((c) => (c.args.text ?? '').includes('Test executor heap'));
const told = (harness: Harness) => harness.fake.callsTo('chat.postEphemeral').map((c) => c.args.blocks ?? '');

describe('uploads under the in-flight cap', () => {
  it('never counts more than MEMDOCTOR_MAX_INFLIGHT_BYTES while several large uploads stream at once', async () => {
    const cap = 128 * KiB;
    // Every change of the count, as the app's gauge (memdoctor_inflight_bytes) hears it.
    const counts: number[] = [];
    const inflight = new InflightBytes(cap, PATIENCE_MS, (held) => counts.push(held));
    const { harness } = await app(inflight, { threads: 2 });
    const bytes = Buffer.from(ORDINARY.repeat(Math.ceil((3 * MiB) / ORDINARY.length)) + HEAP_OOM);
    for (const n of [1, 2, 3, 4])
      expect((await share(harness, n, harness.fake.addFile(`F${n}`, `big-${n}.log`, bytes))).status).toBe(
        200,
      );
    // Under a 128 KiB cap each 64 KiB read waits for the threads (nice 10) to read the last: on a
    // loaded machine that took 49 s, so the wait is long; on a quiet one it is about 6 s.
    await waitFor(() => diagnosed(harness).length === 4 || undefined, 150_000);
    expect(told(harness)).toEqual([]);
    // The uploads were counted (12 MiB streamed through), never past the cap, and all given back.
    expect(counts.length).toBeGreaterThan(4 * 40);
    expect(Math.max(...counts)).toBeLessThanOrEqual(cap);
    expect(inflight.peakBytes).toBeLessThanOrEqual(cap);
    await waitFor(() => inflight.bytesHeld === 0 || undefined);
  }, 180_000);
});

describe('the time budget of an upload that waited for a thread', () => {
  it('starts when its work starts: an upload queued longer than the budget is still diagnosed', async () => {
    const budgetMs = 4000;
    const { harness, engines } = await app(new InflightBytes(MiB, PATIENCE_MS), { threads: 1, budgetMs });
    const bytes = Buffer.from(ORDINARY.repeat(200) + HEAP_OOM);
    // Two uploads whose download Slack finishes only when the test says: each holds the one thread.
    const first = harness.fake.addHeldFile('F1', 'slow-1.log', bytes, 4 * KiB);
    const second = harness.fake.addHeldFile('F2', 'slow-2.log', bytes, 4 * KiB);
    await share(harness, 1, first.file);
    await waitFor(() => engines.saturated || undefined);
    await share(harness, 2, second.file);
    await waitFor(() => engines.waiting === 1 || undefined);
    await share(harness, 3, harness.fake.addFile('F3', 'quick.log', bytes));
    await waitFor(() => engines.waiting === 2 || undefined);
    const queued = Date.now();
    // Each slow upload holds the thread for 60% of the budget; the third waits for both.
    const holdMs = budgetMs * 0.6;
    setTimeout(first.release, holdMs);
    setTimeout(second.release, 2 * holdMs);
    await waitFor(() => diagnosed(harness).length + told(harness).length === 3 || undefined);
    expect(told(harness)).toEqual([]);
    expect(diagnosed(harness)).toHaveLength(3);
    // The third upload did wait longer than the budget before its thread was free.
    expect(Date.now() - queued).toBeGreaterThan(budgetMs);
  });
});
