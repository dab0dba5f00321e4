import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { HeapDumpOffload } from '../../src/diagnosis/index.ts';
import { loadPlaybooks, PLAYBOOKS_DIR } from '../../src/playbooks/load.ts';
import { HeapPool } from '../../src/setup/heap-pool.ts';
import { MemoryWalkthroughStore, WalkthroughService } from '../../src/walkthrough/index.ts';
import { heapDumpFixture } from '../support/heap-dumps.ts';
import { click, startWalk, threadReplies } from './support/clicks.ts';
import { type Harness, startHarness, waitFor } from './support/harness.ts';
import { eventEnvelope, fileShareEvent } from './support/payloads.ts';

/*
 * Issue 36: a heap dump uploaded in a thread whose walkthrough waits at a heap-dump step answers
 * that step, read in the heap thread like any uploaded dump, and only when its uploader may answer.
 */

const playbooks = loadPlaybooks(PLAYBOOKS_DIR);
const OWNER = 'UOWNER01';
const STRANGER = 'USTRANGE1';
const CHANNEL = 'CDUMPSTEP';
const DUMP_STEP_TITLE = 'What holds the heap?';

/** The temporary files of the dumps read in this test's own temporary directory (none must be left). */
const leftovers = () => readdirSync(tmpdir()).filter((f) => f.startsWith('memdoctor-heap-'));

describe('a heap dump uploaded at a walkthrough heap-dump step in Slack', () => {
  let pool: HeapPool;
  let h: Harness | undefined;
  /** The dumps the heap thread was given, by name. */
  let ran: string[];
  let ownTmp: string;
  const systemTmp = process.env.TMPDIR;
  beforeAll(() => {
    // Other test files read dumps at the same time: this file's temporary files go to a directory of its own.
    ownTmp = mkdtempSync(join(tmpdir(), 'dump-step-test-'));
    process.env.TMPDIR = ownTmp;
    pool = new HeapPool({ playbooks, budgetBytes: 2 * 1024 ** 3 });
  });
  afterAll(async () => {
    await pool.close();
    if (systemTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = systemTmp;
    rmSync(ownTmp, { recursive: true, force: true });
  });
  afterEach(async () => {
    const harness = h;
    h = undefined;
    await harness?.stop();
    expect(harness?.fake.rejections).toEqual([]);
  });

  async function app(budgetBytes = 2 * 1024 ** 3): Promise<Harness> {
    ran = [];
    const run: HeapDumpOffload = (job) => {
      ran.push(job.source);
      return pool.run(job);
    };
    h = await startHarness({
      playbooks,
      walkthroughs: new WalkthroughService({ store: new MemoryWalkthroughStore() }),
      extend: (deps) => ({ ...deps, heapDumps: { run, budgetBytes } }),
    });
    return h;
  }

  /** jvm-oom walked by its owner to the dump step: the thread's root and the step's message. */
  async function atDumpStep(harness: Harness) {
    const root = await startWalk(harness, 'jvm-oom', { user: OWNER, channel: CHANNEL });
    const first = await waitFor(() => threadReplies(harness, CHANNEL, root.ts)[0]);
    await click(harness, first, 'The heap, and a heap dump of it is at hand', OWNER);
    const step = await waitFor(() => threadReplies(harness, CHANNEL, root.ts)[1]);
    expect(step.text).toContain(DUMP_STEP_TITLE);
    return { root, step };
  }

  function upload(
    harness: Harness,
    root: { ts: string },
    who: string,
    file: { id: string; name: string },
    bytes: Buffer,
  ) {
    const shared = harness.fake.addFile(file.id, file.name, bytes);
    const event = fileShareEvent({
      user: who,
      channel: CHANNEL,
      threadTs: root.ts,
      parentUserId: harness.fake.botUserId,
      files: [shared],
    });
    return harness.sender.event(eventEnvelope(event));
  }

  const conclusionIn = (harness: Harness, root: { ts: string }) =>
    waitFor(
      () => threadReplies(harness, CHANNEL, root.ts).find((m) => m.text?.includes('A leak held by')),
      60_000,
    );

  it('says in the step to upload the dump, and the uploaded dump takes the leak branch citing CacheLeak.CACHE', async () => {
    const harness = await app();
    const { root, step } = await atDumpStep(harness);
    expect(JSON.stringify(step.blocks)).toContain(
      'Upload the heap dump (.hprof, or .hprof.gz) in this thread',
    );
    await upload(
      harness,
      root,
      OWNER,
      { id: 'FSTEP1', name: 'java_pid7.hprof.gz' },
      heapDumpFixture('static-cache-oom.hprof.gz'),
    );
    const conclusion = await conclusionIn(harness, root);
    expect(conclusion.text).toContain('A leak held by java.util.HashMap');
    expect(ran).toEqual(['java_pid7.hprof.gz']);
    // The "reading" message became what was read, naming the root that keeps the leak.
    const read = threadReplies(harness, CHANNEL, root.ts).find((m) => m.text?.includes('Read the heap dump'));
    expect(read?.text).toContain('CacheLeak.CACHE');
    expect(
      harness.fake.callsTo('chat.update').some((c) => String(c.args.text).includes('CacheLeak.CACHE')),
    ).toBe(true);
    // The step's message shows the answer, and nothing was refused.
    const marked = threadReplies(harness, CHANNEL, root.ts).find((m) => m.ts === step.ts);
    expect(JSON.stringify(marked?.blocks)).toContain('java_pid7.hprof.gz');
    expect(harness.fake.callsTo('chat.postEphemeral')).toEqual([]);
    expect(leftovers()).toEqual([]);
  });

  it("refuses a stranger's dump without downloading it, and the step still waits for the owner's", async () => {
    const harness = await app();
    const { root } = await atDumpStep(harness);
    await upload(
      harness,
      root,
      STRANGER,
      { id: 'FSTEP2', name: 'java_pid8.hprof.gz' },
      heapDumpFixture('static-cache-oom.hprof.gz'),
    );
    const told = await waitFor(() => harness.fake.callsTo('chat.postEphemeral')[0]);
    expect(told.args.user).toBe(STRANGER);
    expect(JSON.stringify(told.args)).toContain(`Only <@${OWNER}>, who started this walkthrough`);
    expect(harness.fake.downloadsOf('FSTEP2')).toBe(0);
    expect(ran).toEqual([]);
    expect(threadReplies(harness, CHANNEL, root.ts)).toHaveLength(2);
    await upload(
      harness,
      root,
      OWNER,
      { id: 'FSTEP3', name: 'java_pid8.hprof.gz' },
      heapDumpFixture('static-cache-oom.hprof.gz'),
    );
    expect((await conclusionIn(harness, root)).text).toContain('java.util.HashMap');
  });

  it('leaves the step waiting when the file is not a heap dump, telling the uploader why', async () => {
    const harness = await app();
    const { root } = await atDumpStep(harness);
    const log = Buffer.from(
      'java.lang.OutOfMemoryError: Java heap space\n\tat CacheLeak.main(CacheLeak.java:12)\n',
    );
    await upload(harness, root, OWNER, { id: 'FSTEP4', name: 'executor.log' }, log);
    const told = await waitFor(() => harness.fake.callsTo('chat.postEphemeral')[0], 60_000);
    expect(told.args.user).toBe(OWNER);
    const text = JSON.stringify(told.args);
    expect(text).toContain('executor.log: cannot read it: it is not a Java heap dump');
    expect(text).toContain('The step still waits for a heap dump.');
    // The "reading" message is gone; only the walkthrough's two messages remain.
    expect(threadReplies(harness, CHANNEL, root.ts).map((m) => m.text)).not.toContainEqual(
      expect.stringContaining('Reading the heap dump'),
    );
    expect(threadReplies(harness, CHANNEL, root.ts)).toHaveLength(2);
    expect(leftovers()).toEqual([]);
    await upload(
      harness,
      root,
      OWNER,
      { id: 'FSTEP5', name: 'java_pid9.hprof.gz' },
      heapDumpFixture('static-cache-oom.hprof.gz'),
    );
    expect((await conclusionIn(harness, root)).text).toContain('java.util.HashMap');
  });

  it('answers the step with a dump cut short, and says where it ends', async () => {
    const harness = await app();
    const { root, step } = await atDumpStep(harness);
    await upload(
      harness,
      root,
      OWNER,
      { id: 'FSTEP6', name: 'java_pid10.hprof.gz' },
      heapDumpFixture('truncated-mid.hprof.gz'),
    );
    const read = await waitFor(
      () => threadReplies(harness, CHANNEL, root.ts).find((m) => m.text?.includes('Read the heap dump')),
      60_000,
    );
    expect(read.text).toContain('the dump is cut short at byte 33496382');
    // The walkthrough moved on past the dump step.
    await waitFor(
      () =>
        threadReplies(harness, CHANNEL, root.ts).find(
          (m) => m.ts !== step.ts && m.ts !== read.ts && m.ts > step.ts,
        ),
      60_000,
    );
    expect(harness.fake.callsTo('chat.postEphemeral')).toEqual([]);
  });

  it('refuses a dump announced over the budget before downloading it, and the step still waits', async () => {
    // 162 MiB leaves room for a dump of under 1 MiB; the gzip fixture alone is larger (heap-dump-upload.test.ts).
    const harness = await app(162 * 1024 ** 2);
    const { root } = await atDumpStep(harness);
    await upload(
      harness,
      root,
      OWNER,
      { id: 'FSTEP7', name: 'java_pid11.hprof.gz' },
      heapDumpFixture('static-cache-oom.hprof.gz'),
    );
    const told = await waitFor(() => harness.fake.callsTo('chat.postEphemeral')[0]);
    expect(told.args.user).toBe(OWNER);
    expect(JSON.stringify(told.args)).toMatch(
      /java_pid11\.hprof\.gz: .*MEMDOCTOR_HEAP_DUMP_BUDGET.*The step still waits for a heap dump\./,
    );
    expect(harness.fake.downloadsOf('FSTEP7')).toBe(0);
    expect(ran).toEqual([]);
    expect(threadReplies(harness, CHANNEL, root.ts)).toHaveLength(2);
  });
});
