import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { HeapDumpOffload } from '../../src/diagnosis/index.ts';
import { loadPlaybooks } from '../../src/playbooks/load.ts';
import { EnginePool } from '../../src/setup/engine-pool.ts';
import { HeapPool } from '../../src/setup/heap-pool.ts';
import { corruptedDump, heapDumpFixture } from '../support/heap-dumps.ts';
import { type Harness, startHarness, waitFor } from './support/harness.ts';
import { directMessageEvent } from './support/oncall-payloads.ts';
import { eventEnvelope, fileShareEvent, slashCommand } from './support/payloads.ts';

/*
 * Issue 36: a heap dump uploaded in a thread is streamed to a temporary file, read in the heap
 * thread under the budget, and answered by replacing one "reading" message; the bot keeps
 * answering everyone else meanwhile.
 */

const playbooks = loadPlaybooks();
const MiB = 1024 * 1024;
const USER = 'UDUMP01';
const CHANNEL = 'CHEAP';
const THREAD = '1700000000.000001';

const SPARK_OOM = [
  '24/11/29 10:01:02 INFO SparkContext: Running Spark version 3.5.1',
  '24/11/29 10:05:13 ERROR Executor: Exception in task 3.0 in stage 7.0 (TID 42)',
  'java.lang.OutOfMemoryError: Java heap space',
].join('\n');

/** The temporary files of the dumps read in this process (none must be left). */
const leftovers = () => readdirSync(tmpdir()).filter((f) => f.startsWith('memdoctor-heap-'));

describe('a heap dump uploaded in a Slack thread', () => {
  let pool: HeapPool;
  let h: Harness | undefined;
  beforeAll(() => {
    pool = new HeapPool({ playbooks, budgetBytes: 2 * 1024 ** 3 });
  });
  afterAll(() => pool.close());
  afterEach(async () => {
    const harness = h;
    h = undefined;
    await harness?.stop();
    expect(harness?.fake.rejections).toEqual([]);
  });

  async function app(
    heapDumps: { run?: HeapDumpOffload; budgetBytes?: number; full?: () => boolean },
    options: { maxUploadBytes?: number; engines?: EnginePool } = {},
  ) {
    const { maxUploadBytes = MiB, engines } = options;
    h = await startHarness({
      playbooks,
      settings: { maxUploadBytes },
      extend: (deps) => ({ ...deps, heapDumps, ...(engines ? { engines } : {}) }),
    });
    return h;
  }

  function share(harness: Harness, id: string, name: string, bytes: Buffer) {
    const file = harness.fake.addFile(id, name, bytes);
    const event = fileShareEvent({
      user: USER,
      channel: CHANNEL,
      threadTs: THREAD,
      parentUserId: harness.fake.botUserId,
      files: [file],
    });
    return harness.sender.event(eventEnvelope(event));
  }

  /** The thread's messages from the bot as they stand now (edits applied). */
  const threadMessages = (harness: Harness) => harness.fake.messages.filter((m) => m.thread_ts === THREAD);

  it('posts one "reading" message and replaces it with the diagnosis, the thread named from the dump', async () => {
    const harness = await app({ run: pool.run.bind(pool), budgetBytes: 2 * 1024 ** 3 });
    expect(
      (await share(harness, 'FD1', 'java_pid4242.hprof.gz', heapDumpFixture('local-variable-oom.hprof.gz')))
        .status,
    ).toBe(200);
    const update = await waitFor(() => harness.fake.callsTo('chat.update')[0], 60_000);
    const posts = harness.fake.callsTo('chat.postMessage');
    expect(posts).toHaveLength(1);
    expect(posts[0]?.args.text).toContain('Reading the heap dump java_pid4242.hprof.gz');
    expect(update.args.ts).toBe(threadMessages(harness)[0]?.ts);
    const answer = JSON.stringify(threadMessages(harness)[0]?.blocks);
    expect(answer).toContain('LocalListLeak.bufferBatch');
    expect(answer).toContain('ingest-worker');
    expect(answer).not.toContain('Reading the heap dump');
    expect(harness.fake.callsTo('chat.postEphemeral')).toEqual([]);
    expect(leftovers()).toEqual([]);
  });

  it("answers another person's paste while a dump is being read", async () => {
    let analysing = () => {};
    const started = new Promise<void>((resolve) => (analysing = resolve));
    let finish = () => {};
    const finished = new Promise<void>((resolve) => (finish = resolve));
    // The real heap thread reads the dump; its answer is held back until the paste was answered.
    const run: HeapDumpOffload = async (job) => {
      const reading = pool.run(job);
      analysing();
      const [result] = await Promise.all([reading, finished]);
      return result;
    };
    const harness = await app({ run, budgetBytes: 2 * 1024 ** 3 });
    await share(harness, 'FD2', 'java_pid1.hprof.gz', heapDumpFixture('static-cache-oom.hprof.gz'));
    await started;
    await harness.sender.command(
      slashCommand(SPARK_OOM, { user: 'UOTHER1', channel: 'COTHER', responseUrl: harness.fake.responseUrl }),
    );
    const other = await waitFor(() => harness.fake.messages.find((m) => m.channel === 'COTHER'), 30_000);
    expect(JSON.stringify(other.blocks)).toContain('OutOfMemoryError');
    // The dump's message still says it is being read.
    expect(threadMessages(harness)[0]?.text).toContain('Reading the heap dump');
    finish();
    await waitFor(() => harness.fake.callsTo('chat.update')[0], 60_000);
    expect(JSON.stringify(threadMessages(harness)[0]?.blocks)).toContain('CacheLeak.CACHE');
  });

  it('refuses a dump announced over the budget before downloading it, saying what it needs', async () => {
    // 162 MiB leaves room for a dump of under 1 MiB (160 MiB + 2.5 bytes a byte); the gzip fixture alone is larger.
    const harness = await app({ run: pool.run.bind(pool), budgetBytes: 162 * MiB });
    await share(harness, 'FD3', 'java_pid2.hprof.gz', heapDumpFixture('static-cache-oom.hprof.gz'));
    const told = await waitFor(() => harness.fake.callsTo('chat.postEphemeral')[0]);
    expect(JSON.stringify(told.args)).toMatch(
      /java_pid2\.hprof\.gz: this gzip-compressed heap dump is \d+ MiB compressed .*MEMDOCTOR_HEAP_DUMP_BUDGET/,
    );
    expect(harness.fake.downloadsOf('FD3')).toBe(0);
    expect(harness.fake.callsTo('chat.postMessage')).toEqual([]);
  });

  it('refuses a dump before downloading it while the heap thread has a full queue', async () => {
    const harness = await app({ run: pool.run.bind(pool), budgetBytes: 2 * 1024 ** 3, full: () => true });
    await share(harness, 'FD10', 'java_pid12.hprof.gz', heapDumpFixture('static-cache-oom.hprof.gz'));
    const told = await waitFor(() => harness.fake.callsTo('chat.postEphemeral')[0]);
    expect(JSON.stringify(told.args)).toContain('memdoctor is reading other heap dumps');
    expect(harness.fake.downloadsOf('FD10')).toBe(0);
    expect(harness.fake.callsTo('chat.postMessage')).toEqual([]);
  });

  it('stops a gzip dump whose decompressed size passes the budget, and says so in place of the answer', async () => {
    const harness = await app({ run: pool.run.bind(pool), budgetBytes: 170 * MiB });
    await share(harness, 'FD4', 'java_pid3.hprof.gz', heapDumpFixture('static-cache-oom.hprof.gz'));
    await waitFor(() => harness.fake.callsTo('chat.update')[0], 60_000);
    expect(threadMessages(harness)[0]?.text).toMatch(
      /java_pid3\.hprof\.gz: this heap dump is over \d+ MiB decompressed .*MEMDOCTOR_HEAP_DUMP_BUDGET=1g/,
    );
    expect(leftovers()).toEqual([]);
  });

  it('says where a dump cut short ends', async () => {
    const harness = await app({ run: pool.run.bind(pool), budgetBytes: 2 * 1024 ** 3 });
    await share(harness, 'FD5', 'java_pid5.hprof.gz', heapDumpFixture('truncated-mid.hprof.gz'));
    await waitFor(() => harness.fake.callsTo('chat.update')[0], 60_000);
    expect(JSON.stringify(threadMessages(harness)[0]?.blocks)).toContain(
      'heap dump cut short: read to byte 33496382',
    );
  });

  it('gives the offset of a corrupt record in place of the answer, and keeps no file', async () => {
    const harness = await app({ run: pool.run.bind(pool), budgetBytes: 2 * 1024 ** 3 });
    const { bytes, offset } = corruptedDump();
    await share(harness, 'FD6', 'java_pid6.hprof', bytes);
    await waitFor(() => harness.fake.callsTo('chat.update')[0], 60_000);
    expect(threadMessages(harness)[0]?.text).toContain(
      `java_pid6.hprof: cannot read it: corrupt heap dump at byte ${offset}: expected a heap dump sub-record tag`,
    );
    expect(leftovers()).toEqual([]);
  });

  it('says a file named .hprof that is not a heap dump is not one', async () => {
    const harness = await app({ run: pool.run.bind(pool), budgetBytes: 2 * 1024 ** 3 });
    await share(harness, 'FD7', 'notes.hprof', Buffer.from(SPARK_OOM));
    await waitFor(() => harness.fake.callsTo('chat.update')[0], 60_000);
    expect(threadMessages(harness)[0]?.text).toContain(
      'notes.hprof: cannot read it: it is not a Java heap dump',
    );
  });

  it('reads a dump shared under another name as a dump, not "not a text log"', async () => {
    // The app's diagnosis threads read it as a log first and find it is a dump; then it is
    // downloaded again for the heap thread.
    const engines = new EnginePool({ playbooks, threads: 1 });
    try {
      const harness = await app(
        { run: pool.run.bind(pool), budgetBytes: 2 * 1024 ** 3 },
        { maxUploadBytes: 8 * MiB, engines },
      );
      await share(harness, 'FD8', 'heap.bin', heapDumpFixture('static-cache-oom.hprof.gz'));
      await waitFor(() => harness.fake.callsTo('chat.update')[0], 60_000);
      expect(JSON.stringify(threadMessages(harness)[0]?.blocks)).toContain('CacheLeak.CACHE');
      expect(harness.fake.callsTo('chat.postEphemeral')).toEqual([]);
      expect(harness.fake.downloadsOf('FD8')).toBe(2);
    } finally {
      await engines.close();
    }
  });

  it('diagnoses a dump shared in a DM with the bot (the message path), in the heap thread', async () => {
    const ran: string[] = [];
    const run: HeapDumpOffload = (job) => {
      ran.push(job.source);
      return pool.run(job);
    };
    const harness = await app({ run, budgetBytes: 2 * 1024 ** 3 });
    const file = harness.fake.addFile(
      'FD9',
      'java_pid11.hprof.gz',
      heapDumpFixture('threadlocal-leak.hprof.gz'),
    );
    await harness.sender.event(
      eventEnvelope(directMessageEvent({ user: USER, channel: 'D0HEAP01', text: '', files: [file] })),
    );
    const answer = await waitFor(() => harness.fake.messages.find((m) => m.channel === 'D0HEAP01'), 60_000);
    expect(ran).toEqual(['java_pid11.hprof.gz']);
    // Named from the dump's second read; the lines read in it shown, though no playbook took it yet.
    const blocks = JSON.stringify(answer.blocks);
    expect(blocks).toContain('*Read in the heap dump:*');
    expect(blocks).toContain('via thread \\"pool-worker-0\\"');
    expect(blocks).toContain('(threadLocals.table[14].value.elementData)');
  });
});
