import { readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { diagnoseText } from '../../src/engine/index.ts';
import { EngineBusyError, EngineTimeoutError } from '../../src/errors.ts';
import { loadPlaybooks } from '../../src/playbooks/load.ts';
import { EnginePool } from '../../src/setup/engine-pool.ts';
import { DIAGNOSIS_NICE } from '../../src/setup/engine-worker.ts';
import { workerFile } from '../../src/setup/worker-file.ts';
import { SlackMetrics } from '../../src/slack/metrics.ts';
import { type Harness, startHarness, waitFor } from './support/harness.ts';
import { eventEnvelope, fileShareEvent, slashCommand } from './support/payloads.ts';

const HEAP_OOM = 'java.lang.OutOfMemoryError: Java heap space\n';
const ORDINARY =
  '24/11/30 10:00:01 INFO TaskSetManager: Finished task 3.0 in stage 7.0 (TID 42) in 1234 ms on host-17 (executor 5) (3/200)\n';
/**
 * About 3.5 MB of ordinary lines with one failure at the end: a quarter of a second of engine time
 * on a quiet machine, many times a request's round trip, so it holds the thread while a test acts.
 * The thread runs at nice 10, so on a loaded machine it takes many times that (7 MB took a minute
 * for two inputs at load average 20).
 */
const SLOW_PASTE = ORDINARY.repeat(Math.floor(3_500_000 / ORDINARY.length)) + HEAP_OOM;

const playbooks = loadPlaybooks();
const pools: EnginePool[] = [];
function pool(options: Partial<ConstructorParameters<typeof EnginePool>[0]> = {}): EnginePool {
  const created = new EnginePool({ playbooks, threads: 1, ...options });
  pools.push(created);
  return created;
}

let h: Harness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

describe('the engine pool', () => {
  it('gives the same result as the engine in-line, for text and for gzip bytes', async () => {
    const text = `${ORDINARY.repeat(60)}${HEAP_OOM}`;
    const inline = await diagnoseText('x.log', text, playbooks, {});
    const engines = pool();
    expect(await engines.run({ source: 'x.log', text })).toEqual(inline);
    const gzip = gzipSync(text);
    const chunks = (async function* () {
      yield gzip;
    })();
    expect(JSON.stringify(await engines.run({ source: 'x.log', chunks }))).toBe(JSON.stringify(inline));
  });

  it('brings an input error back as the same message', async () => {
    const engines = pool();
    await expect(engines.run({ source: 'big', text: HEAP_OOM.repeat(100), maxBytes: 64 })).rejects.toThrow(
      /big/,
    );
  });

  it('refuses an input as busy when the queue is full', async () => {
    const engines = pool({ maxQueue: 1 });
    const running = engines.run({ source: 'a', text: SLOW_PASTE });
    await waitFor(() => engines.saturated || undefined);
    const queued = engines.run({ source: 'b', text: SLOW_PASTE });
    await waitFor(() => engines.waiting === 1 || undefined);
    await expect(engines.run({ source: 'c', text: HEAP_OOM })).rejects.toBeInstanceOf(EngineBusyError);
    // The two slow inputs only fill the thread and the queue. Waiting for them took a minute on a
    // loaded machine (the thread runs at nice 10); closing the pool after the test stops them.
    running.catch(() => undefined);
    queued.catch(() => undefined);
  });

  it('with no queue at all, still runs an input on a free thread', async () => {
    const engines = pool({ maxQueue: 0 });
    expect(engines.full).toBe(false);
    const result = await engines.run({ source: 'x.log', text: HEAP_OOM });
    expect(result.report.diagnoses[0]?.playbook).toBe('jvm-oom');
  });

  it('runs its threads at a lower priority than the event loop (nice 10)', async () => {
    const niceOf = (tid: string) => {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
    };
    // Only the threads this pool starts: those of pools other tests closed may linger (at nice 10)
    // for as long as a busy machine takes to end them, so they are left out rather than waited for.
    const before = new Set(readdirSync('/proc/self/task'));
    const engines = pool();
    await engines.run({ source: 'x.log', text: HEAP_OOM });
    const started = readdirSync('/proc/self/task').filter((tid) => !before.has(tid));
    expect(started.map(niceOf).filter((n) => n === DIAGNOSIS_NICE)).toHaveLength(1);
    expect(niceOf(String(process.pid))).toBe(0);
  });

  it('hears a thread that dies holding no task, and counts it', async () => {
    const died: string[] = [];
    // A thread whose file cannot be loaded dies as it starts, before any input is given to it.
    const worker = workerFile('no-such-engine-worker');
    // Unheard, piscina's 'error' event would be thrown by Node and fail this run as an unhandled error.
    const engines = pool({ worker, onThreadError: (error) => died.push(error.message) });
    await waitFor(() => engines.threadErrors === 1 || undefined);
    expect(died).toHaveLength(1);
    expect(died[0]).toMatch(/no-such-engine-worker/);
  });

  it('stops a file that never sends its first bytes when its budget runs out, and frees its thread', async () => {
    // The file holds the only thread from when it is taken (its bytes are read then, not before:
    // issue 35, item 8), so a download that never starts is stopped by the budget, not waited on.
    const engines = pool({ budgetMs: 3000 });
    // Warm, so that the paste's budget is not spent starting the thread on a busy machine.
    await waitFor(() => engines.run({ source: 'warm', text: HEAP_OOM }).catch(() => undefined), 30_000);
    async function* neverStarts(): AsyncGenerator<Uint8Array> {
      await new Promise(() => {});
      yield Buffer.from(HEAP_OOM);
    }
    const file = engines.run({ source: 'file.log', chunks: neverStarts() });
    const paste = engines.run({ source: 'paste', text: HEAP_OOM });
    await expect(file).rejects.toBeInstanceOf(EngineTimeoutError);
    expect((await paste).report.diagnoses[0]?.playbook).toBe('jvm-oom');
  }, 40_000);

  it('tells onRead of every byte the thread has read', async () => {
    const engines = pool();
    const text = Buffer.from(ORDINARY.repeat(2_000) + HEAP_OOM);
    const read: number[] = [];
    async function* chunks(): AsyncGenerator<Uint8Array> {
      for (let at = 0; at < text.length; at += 10_000) yield text.subarray(at, at + 10_000);
    }
    await engines.run({ source: 'x.log', chunks: chunks(), onRead: (bytes) => read.push(bytes) });
    await waitFor(() => read.reduce((a, b) => a + b, 0) === text.length || undefined);
  });

  it('stops a file the engine refuses part way, and cancels its download', async () => {
    const engines = pool();
    let cancelled = false;
    async function* endless(): AsyncGenerator<Uint8Array> {
      try {
        for (;;) yield Buffer.from(ORDINARY.repeat(100));
      } finally {
        cancelled = true;
      }
    }
    await expect(
      engines.run({ source: 'endless.log', chunks: endless(), maxBytes: 1_000_000 }),
    ).rejects.toThrow(/endless\.log: larger than the limit/);
    await waitFor(() => cancelled || undefined);
  });

  it('stops a file past its time budget, and cancels its download', async () => {
    const engines = pool({ budgetMs: 1500 });
    // Warm, so that the budget runs out in the thread, reading, not while the thread starts (which
    // may itself take longer than the budget on a busy machine: then the run is tried again).
    const warm = () => engines.run({ source: 'warm', text: HEAP_OOM }).catch(() => undefined);
    await waitFor(warm, 30_000);
    let cancelled = false;
    async function* trickle(): AsyncGenerator<Uint8Array> {
      try {
        for (;;) {
          yield Buffer.from(ORDINARY);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      } finally {
        cancelled = true;
      }
    }
    await expect(engines.run({ source: 'slow', chunks: trickle() })).rejects.toBeInstanceOf(
      EngineTimeoutError,
    );
    await waitFor(() => cancelled || undefined);
  }, 40_000);

  it('stops an input past its time budget', async () => {
    const engines = pool({ budgetMs: 50 });
    await expect(engines.run({ source: 'slow', text: SLOW_PASTE })).rejects.toBeInstanceOf(
      EngineTimeoutError,
    );
  });
});

/** The app with this pool, an upload to diagnose just sent (its diagnosis is the slow one). */
async function harnessDiagnosingAnUpload(engines: ReturnType<typeof pool>, metrics?: SlackMetrics) {
  const harness = await startHarness({
    extend: (deps) => ({ ...deps, engines, ...(metrics ? { metrics } : {}) }),
  });
  h = harness;
  // Slack refuses large slash commands, so the slow input is an upload (gzip, under the download limit).
  const file = harness.fake.addFile('F1', 'big.log.gz', gzipSync(SLOW_PASTE));
  const event = fileShareEvent({
    user: 'U1',
    channel: 'C1',
    threadTs: '1700000000.000001',
    parentUserId: harness.fake.botUserId,
    files: [file],
  });
  expect((await harness.sender.event(eventEnvelope(event))).status).toBe(200);
  return harness;
}

describe('the Slack app with the pool', () => {
  it('acknowledges a command while an upload is being diagnosed, and says the new one is queued', async () => {
    const engines = pool();
    const harness = await harnessDiagnosingAnUpload(engines);
    await waitFor(() => engines.saturated || undefined);
    const quick = await harness.sender.command(
      slashCommand(HEAP_OOM, { user: 'U2', channel: 'C1', responseUrl: harness.fake.responseUrl }),
    );
    expect(quick.status).toBe(200);
    // Both answered while the slow diagnosis still holds the only thread: the event loop was free.
    expect(engines.saturated).toBe(true);
    expect(harness.fake.callsTo('chat.postMessage')).toHaveLength(0);
    const notice = await waitFor(() => harness.fake.responses[0]);
    expect(JSON.stringify(notice)).toMatch(/Queued: other diagnoses are running/);
    await waitFor(() => (harness.fake.callsTo('chat.postMessage').length === 2 ? true : undefined));
  });

  it('tells the person memdoctor is busy, not that it is queued, when the queue is full', async () => {
    const engines = pool({ maxQueue: 0 });
    const metrics = new SlackMetrics();
    const harness = await harnessDiagnosingAnUpload(engines, metrics);
    await waitFor(() => engines.full || undefined);
    const refused = await harness.sender.command(
      slashCommand(HEAP_OOM, { user: 'U2', channel: 'C1', responseUrl: harness.fake.responseUrl }),
    );
    expect(refused.status).toBe(200);
    const answer = JSON.stringify(await waitFor(() => harness.fake.responses[0]));
    expect(answer).toMatch(/memdoctor is busy: 0 inputs are already waiting/);
    expect(answer).not.toMatch(/Queued/);
    await waitFor(() => (harness.fake.callsTo('chat.postMessage').length === 1 ? true : undefined));
    expect(harness.fake.responses).toHaveLength(1);
    // Issue 27, item 6: the refusal is counted by its reason.
    const text = await metrics.registry.metrics();
    expect(text).toContain('memdoctor_refusals_total{reason="busy"} 1');
  });
});
