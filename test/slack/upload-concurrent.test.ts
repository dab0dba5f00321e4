import { setTimeout as sleep } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryCaseStore } from '../../src/cases/store/memory.ts';
import { EnginePool } from '../../src/setup/engine-pool.ts';
import type { SlackDeps } from '../../src/slack/deps.ts';
import { InflightBytes } from '../../src/slack/inflight.ts';
import { ROOMY } from './support/cases.ts';
import { type Harness, startHarness, testPlaybooks, waitFor } from './support/harness.ts';
import { eventEnvelope, fileShareEvent } from './support/payloads.ts';

/*
 * Issue 35 (upload memory): two large uploads at once with one diagnosis thread. The second waits
 * for the thread with its download's answer in hand and its body not yet read; undici cancels the
 * body of a Response that is garbage-collected unread, so unless the app keeps the body locked the
 * second file was "diagnosed" from 0 bytes. The collection is forced here while it waits, where a
 * real app gets it from the memory pressure of the first upload.
 */

const MiB = 1024 * 1024;
const ORDINARY =
  '24/11/30 10:00:01 INFO TaskSetManager: Finished task 3.0 in stage 7.0 (TID 42) in 1234 ms on host-17 (executor 5) (3/200)\n';
/** What the test playbooks' executor-heap entry finds: it is the file's last line, so only a full read finds it. */
const HEAP_OOM = 'Running Spark version 3.5.1\njava.lang.OutOfMemoryError: Java heap space\n';

/** A log of about `mib` MiB whose OutOfMemoryError comes at its very end. */
function largeLog(mib: number): Buffer {
  return Buffer.from(ORDINARY.repeat(Math.floor((mib * MiB) / ORDINARY.length)) + HEAP_OOM);
}

/** V8's own collector, exposed at run time (vitest's workers are not started with --expose-gc). */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/** Full collections with turns of the event loop between them, so finalizers run. */
async function collectGarbage(): Promise<void> {
  const gc = collector();
  for (let i = 0; i < 3; i++) {
    gc();
    await sleep(20);
  }
}

describe('two large uploads at once with one diagnosis thread', () => {
  let h: Harness | undefined;
  let engines: EnginePool | undefined;
  afterEach(async () => {
    await h?.stop();
    await engines?.close();
    h = undefined;
    engines = undefined;
  });

  const shapes: [string, (deps: SlackDeps) => SlackDeps][] = [
    ['each answered alone', (deps) => deps],
    [
      'each the first file of its thread case',
      (deps) => ({ ...deps, cases: { store: new MemoryCaseStore(), limits: ROOMY } }),
    ],
  ];

  it.each(shapes)('reads both files in full, %s', async (_, shape) => {
    const inflight = new InflightBytes(128 * MiB);
    const pool = new EnginePool({ playbooks: testPlaybooks(), threads: 1 });
    engines = pool;
    const harness = await startHarness({
      settings: { maxUploadBytes: 16 * MiB, maxExpandedBytes: 16 * MiB },
      extend: (deps) => shape({ ...deps, engines: pool, inflight }),
    });
    h = harness;
    const share = (file: Record<string, unknown>, user: string, threadTs: string) =>
      harness.sender.event(
        eventEnvelope(
          fileShareEvent({
            user,
            channel: 'C1',
            threadTs,
            parentUserId: harness.fake.botUserId,
            files: [file],
          }),
        ),
      );
    const [first, second] = [largeLog(2), largeLog(2)];
    // The first upload holds the only thread until released: its download stops after 512 KiB.
    const held = harness.fake.addHeldFile('F1', 'first.log', first, 512 * 1024);
    const waiting = harness.fake.addFile('F2', 'second.log', second);

    expect((await share(held.file, 'U1', '1700000000.000001')).status).toBe(200);
    await waitFor(() => harness.fake.downloadsOf('F1') === 1 || undefined);
    expect((await share(waiting, 'U2', '1700000000.000101')).status).toBe(200);
    // The second is downloaded (its answer in hand) and waits for the thread.
    await waitFor(() => (harness.fake.downloadsOf('F2') === 1 && pool.waiting === 1) || undefined);
    await collectGarbage();
    held.release();

    // Logged once each answer is posted: both are in when both lines are.
    const diagnosed = await waitFor(() => {
      const lines = harness.logs.lines.filter((l) => l.msg === 'file diagnosed');
      return lines.length === 2 ? lines : undefined;
    }, 30_000);
    expect(harness.fake.callsTo('chat.postEphemeral')).toEqual([]);
    const read = Object.fromEntries(diagnosed.map((l) => [l.file, l.bytes]));
    expect(read).toEqual({ F1: first.length, F2: second.length });
    const answers = harness.fake.callsTo('chat.postMessage');
    expect(answers).toHaveLength(2);
    for (const answer of answers) expect(String(answer.args.text)).toContain('Test executor heap');
    await waitFor(() => inflight.bytesHeld === 0 || undefined);
  });
});
