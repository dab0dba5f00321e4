import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { diagnose } from '../../src/diagnosis/index.ts';
import { loadPlaybooks } from '../../src/playbooks/load.ts';
import { PIECE_BYTES, WINDOW_BYTES } from '../../src/setup/chunk-stream.ts';
import { EnginePool } from '../../src/setup/engine-pool.ts';
import { type DiagnoseDeps, diagnoseSlackFile } from '../../src/slack/diagnose.ts';
import { InflightBytes } from '../../src/slack/inflight.ts';
import { MemoryOutcomeStore } from '../../src/stats/memory.ts';
import { FakeSlack } from './support/fake-slack.ts';
import { BOT_TOKEN, type Harness, startHarness, testPlaybooks, waitFor } from './support/harness.ts';
import { eventEnvelope, fileShareEvent, TEAM } from './support/payloads.ts';

/*
 * Issue 27, item 5: an upload streams from Slack into the diagnosis thread, a few chunks at a time,
 * and the in-flight cap counts the bytes actually held. The diagnosis must not change: the same
 * file gives the same result as the engine reading it whole, as the app did before.
 */

const ORDINARY =
  '24/11/30 10:00:01 INFO TaskSetManager: Finished task 3.0 in stage 7.0 (TID 42) in 1234 ms on host-17 (executor 5) (3/200)\n';
const MiB = 1024 * 1024;
const playbooks = loadPlaybooks();

/** A real fixture (see its playbook's SOURCES), as shipped. */
function fixture(path: string): Buffer {
  return readFileSync(new URL(`../../playbooks/${path}`, import.meta.url));
}

/** The fixture after about 700 KB of ordinary lines: many chunks, several windows. */
function buried(path: string): Buffer {
  return Buffer.concat([Buffer.from(ORDINARY.repeat(6000)), fixture(path), Buffer.from(ORDINARY.repeat(50))]);
}

/** The fixture after many lines, then half a line: the file ends without its newline. */
function cutMidLine(path: string): Buffer {
  const whole = buried(path);
  return whole.subarray(0, whole.length - Math.floor(ORDINARY.length / 2));
}

/** Name, file name, bytes, and whether the engine finds something in them. */
const CASES: [string, string, () => Buffer, boolean][] = [
  ['a small log in one chunk', 'driver.log', () => fixture('spark-heap-oom/fixtures/broadcast.log'), true],
  [
    'a log of many chunks',
    'executor.log',
    () => buried('spark-executor-overhead-killed/fixtures/corpus-p004.txt'),
    true,
  ],
  [
    'a gzip log',
    'tm.log.gz',
    () => gzipSync(buried('flink-container-oom-killed/fixtures/k8s-oomkilled-rocksdb.log')),
    true,
  ],
  [
    'a log cut mid-line',
    'worker.log',
    () => cutMidLine('beam-python-leak/fixtures/dataflow-oom-killer.log'),
    true,
  ],
  ['an empty file', 'empty.log', () => Buffer.alloc(0), false],
];

describe('an upload streamed into the diagnosis thread', () => {
  const fake = new FakeSlack(BOT_TOKEN);
  let engines: EnginePool;
  beforeAll(async () => {
    await fake.start();
    engines = new EnginePool({ playbooks, threads: 1 });
  });
  afterAll(async () => {
    await engines.close();
    await fake.stop();
  });

  const settings = () => ({
    botToken: BOT_TOKEN,
    maxUploadBytes: 4 * MiB,
    maxExpandedBytes: 8 * MiB,
    fileHosts: [new URL(fake.base).host],
    allowHttpLoopback: true,
  });

  it.each(CASES)('gives the same result as the engine reading %s whole', async (_, name, bytes, finds) => {
    const file = fake.addFile(`F-${name}`, name, bytes());
    const inflight = new InflightBytes(MiB);
    const deps: DiagnoseDeps = { settings: settings(), playbooks, engines, inflight };
    const streamed = await diagnoseSlackFile(deps, file);
    const whole = await diagnose(
      {
        input: {
          source: name,
          chunks: (async function* () {
            yield bytes();
          })(),
        },
        workspace: 'slack',
        limits: { maxBytes: 8 * MiB },
      },
      { playbooks },
    );
    expect(JSON.stringify(streamed)).toBe(JSON.stringify(whole));
    // A comparison of diagnoses, not of two empty reports.
    expect(streamed.report.diagnoses.length > 0).toBe(finds);
    expect(inflight.bytesHeld).toBe(0);
  });
});

const HEAP_OOM = 'Running Spark version 3.5.1\njava.lang.OutOfMemoryError: Java heap space\n';

describe('the Slack app streaming uploads', () => {
  let h: Harness | undefined;
  const pools: EnginePool[] = [];
  afterEach(async () => {
    await h?.stop();
    h = undefined;
    await Promise.all(pools.splice(0).map((p) => p.close()));
  });

  /** The largest chunk a download gave: what an upload may hold besides its window. */
  const largest = { chunk: 0 };

  /** fetch, noting the size of every chunk of a download's body. */
  const observingFetch: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (!response.body) return response;
    const noted = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        largest.chunk = Math.max(largest.chunk, chunk.length);
        controller.enqueue(chunk);
      },
    });
    return new Response(response.body.pipeThrough(noted), response);
  };

  async function app(inflight: InflightBytes, outcomes = new MemoryOutcomeStore()): Promise<Harness> {
    // The harness's test playbooks, in the threads too.
    const engines = new EnginePool({ playbooks: testPlaybooks(), threads: 1 });
    pools.push(engines);
    h = await startHarness({
      outcomes,
      extend: (deps) => ({ ...deps, engines, inflight, fetch: observingFetch }),
    });
    return h;
  }

  function share(harness: Harness, file: Record<string, unknown>) {
    return harness.sender.event(
      eventEnvelope(
        fileShareEvent({
          user: 'U1',
          channel: 'C1',
          threadTs: '1700000000.000001',
          parentUserId: harness.fake.botUserId,
          files: [file],
        }),
      ),
    );
  }

  it('tells the uploader when the download breaks off midway, and keeps nothing of it', async () => {
    const inflight = new InflightBytes(MiB);
    const outcomes = new MemoryOutcomeStore();
    const harness = await app(inflight, outcomes);
    const bytes = Buffer.from(ORDINARY.repeat(5000) + HEAP_OOM);
    const file = harness.fake.addBrokenFile('F1', 'executor.log', bytes, 300_000);
    expect((await share(harness, file)).status).toBe(200);
    const told = await waitFor(() => harness.fake.callsTo('chat.postEphemeral')[0], 20_000);
    expect(JSON.stringify(told.args)).toMatch(
      /executor\.log: could not download it from Slack: the download broke off after \d+ bytes/,
    );
    expect(harness.fake.callsTo('chat.postMessage')).toEqual([]);
    expect(await outcomes.rows(TEAM)).toEqual([]);
    expect(await outcomes.recent(TEAM)).toEqual([]);
    expect(inflight.bytesHeld).toBe(0);
  });

  it('counts the bytes an upload holds, not its size: a file larger than the room left streams through', async () => {
    const inflight = new InflightBytes(MiB, 2000);
    const harness = await app(inflight);
    // Another input holds 600 KiB of the 1 MiB cap; the upload is 900 KB.
    let release = () => {};
    void inflight.hold(600 * 1024, () => new Promise<void>((resolve) => (release = resolve)));
    const most = { held: 0 };
    const sampler = setInterval(() => {
      most.held = Math.max(most.held, inflight.bytesHeld);
    }, 1);
    const file = harness.fake.addFile('F2', 'executor.log', Buffer.from(ORDINARY.repeat(7500) + HEAP_OOM));
    expect(file.size).toBeGreaterThan(900_000);
    await share(harness, file);
    const posted = await waitFor(() => harness.fake.callsTo('chat.postMessage')[0], 20_000);
    clearInterval(sampler);
    release();
    expect(posted.args.text).toContain('Test executor heap');
    expect(harness.fake.callsTo('chat.postEphemeral')).toEqual([]);
    expect(most.held).toBeGreaterThan(600 * 1024);
    // At most its window, the piece that went past it, and the chunk in hand: never the whole file.
    expect(most.held).toBeLessThanOrEqual(600 * 1024 + WINDOW_BYTES + PIECE_BYTES + largest.chunk);
    expect(largest.chunk).toBeLessThan(file.size / 2);
    await waitFor(() => inflight.bytesHeld === 0 || undefined);
  });
});
