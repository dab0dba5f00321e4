import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { MemoryCaseStore } from '../../src/cases/store/memory.ts';
import { RedisCaseStore } from '../../src/cases/store/redis.ts';
import type { CaseStore } from '../../src/cases/store/types.ts';
import { loadPlaybooks, PLAYBOOKS_DIR } from '../../src/playbooks/load.ts';
import { InflightBytes } from '../../src/slack/inflight.ts';
import { deletePrefix, randomPrefix, TEST_REDIS_URL } from '../support/redis.ts';
import { JOBMANAGER, NODEMANAGER, ROOMY, withCases } from './support/cases.ts';
import { threadReplies } from './support/clicks.ts';
import { FakeSlack } from './support/fake-slack.ts';
import {
  BOT_TOKEN,
  diagnoseInChannel,
  type Harness,
  harnessPerTest,
  startHarness,
  waitFor,
} from './support/harness.ts';
import { eventEnvelope, fileShareEvent } from './support/payloads.ts';

const USER = 'UALICE01';

const harness = harnessPerTest(() => withCases());

function shareEvent(h: Harness, channel: string, thread: string, files: Record<string, unknown>[]) {
  return eventEnvelope(
    fileShareEvent({ user: USER, channel, threadTs: thread, parentUserId: h.fake.botUserId, files }),
  );
}

/** Every file of the thread is done: one started the case, each other one edited its answer. */
async function settled(h: Harness, edits: number) {
  await waitFor(() => h.logs.lines.some((l) => l.msg === 'case started'));
  await waitFor(() => h.logs.lines.filter((l) => l.msg === 'case answer updated').length >= edits);
}

function editedBlocks(h: Harness): string {
  const last = h.fake.callsTo('chat.update').at(-1);
  return JSON.stringify(JSON.parse(last?.args.blocks ?? '[]'));
}

describe('files dropped together in a thread form one case', () => {
  it('one message with two files: one answer, edited to cite both, each file downloaded once', async () => {
    const h = harness();
    const root = await diagnoseInChannel(h, 'nothing to see here', USER, 'CRACE01');
    const files = [
      h.fake.addFile('F951', 'jobmanager.log', JOBMANAGER),
      h.fake.addFile('F952', 'nodemanager.log', NODEMANAGER),
    ];
    await h.sender.event(shareEvent(h, 'CRACE01', root.ts, files));
    await settled(h, 1);
    const replies = threadReplies(h, 'CRACE01', root.ts);
    expect(replies).toHaveLength(1);
    expect(h.fake.callsTo('chat.update')).toHaveLength(1);
    expect(h.fake.callsTo('chat.update')[0]?.args.ts).toBe(replies[0]?.ts);
    expect(editedBlocks(h)).toContain('read together: jobmanager.log, nodemanager.log');
    expect(editedBlocks(h)).toContain('nodemanager.log:1:');
    expect([h.fake.downloadsOf('F951'), h.fake.downloadsOf('F952')]).toEqual([1, 1]);
  });

  it('two messages sent at once in one thread: one answer (edited), not two', async () => {
    const h = harness();
    const root = await diagnoseInChannel(h, 'nothing to see here', USER, 'CRACE02');
    const jobmanager = h.fake.addFile('F953', 'jobmanager.log', JOBMANAGER);
    const nodemanager = h.fake.addFile('F954', 'nodemanager.log', NODEMANAGER);
    await Promise.all([
      h.sender.event(shareEvent(h, 'CRACE02', root.ts, [jobmanager])),
      h.sender.event(shareEvent(h, 'CRACE02', root.ts, [nodemanager])),
    ]);
    await settled(h, 1);
    const replies = threadReplies(h, 'CRACE02', root.ts);
    expect(replies).toHaveLength(1);
    expect(h.fake.callsTo('chat.update')).toHaveLength(1);
    expect(h.fake.callsTo('chat.update')[0]?.args.ts).toBe(replies[0]?.ts);
    // Either file may arrive first; the edited answer cites both.
    expect(editedBlocks(h)).toMatch(
      /read together: (jobmanager\.log, nodemanager\.log|nodemanager\.log, jobmanager\.log)/,
    );
    expect([h.fake.downloadsOf('F953'), h.fake.downloadsOf('F954')]).toEqual([1, 1]);
  });

  it('the first file of a thread is downloaded once for its answer and its case', async () => {
    const h = harness();
    const root = await diagnoseInChannel(h, 'nothing to see here', USER, 'CRACE03');
    await h.sender.event(
      shareEvent(h, 'CRACE03', root.ts, [h.fake.addFile('F955', 'nodemanager.log', NODEMANAGER)]),
    );
    await waitFor(() => h.logs.lines.some((l) => l.msg === 'case started'));
    const stored = await h.deps.cases?.store.get({
      workspace: 'T1',
      conversation: 'CRACE03',
      thread: root.ts,
    });
    expect(stored?.inputs.map((i) => [i.name, i.bytes])).toEqual([['nodemanager.log', NODEMANAGER.length]]);
    expect(h.fake.downloadsOf('F955')).toBe(1);
  });
});

/**
 * A store whose next `get` answers "no case yet" once armed: what a replica reads when another one
 * answers the thread while this one diagnoses its file.
 */
function laggingStore(store: CaseStore) {
  let lag = false;
  const lagging: CaseStore = {
    kind: store.kind,
    get: async (where) => {
      if (!lag) return store.get(where);
      lag = false;
      return undefined;
    },
    add: (where, addition, version) => store.add(where, addition, version),
    claimAnswer: (where, owner, seconds) => store.claimAnswer(where, owner, seconds),
    close: () => store.close(),
  };
  return { store: lagging, arm: () => (lag = true) };
}

describe('a thread answered by another replica meanwhile', () => {
  it('adds the file to that case and edits its answer instead of answering alone', async () => {
    const lagging = laggingStore(new MemoryCaseStore());
    const h = await startHarness({
      playbooks: loadPlaybooks(PLAYBOOKS_DIR),
      extend: (deps) => ({
        ...deps,
        cases: { store: lagging.store, limits: ROOMY },
      }),
    });
    try {
      const root = await diagnoseInChannel(h, 'nothing to see here', USER, 'CRACE04');
      const first = h.fake.addFile('F956', 'jobmanager.log', JOBMANAGER);
      await h.sender.event(shareEvent(h, 'CRACE04', root.ts, [first]));
      await waitFor(() => h.logs.lines.some((l) => l.msg === 'case started'));
      lagging.arm();
      await h.sender.event(
        shareEvent(h, 'CRACE04', root.ts, [h.fake.addFile('F957', 'nodemanager.log', NODEMANAGER)]),
      );
      await settled(h, 1);
      const replies = threadReplies(h, 'CRACE04', root.ts);
      expect(replies).toHaveLength(1);
      expect(h.fake.callsTo('chat.update')[0]?.args.ts).toBe(replies[0]?.ts);
      expect(editedBlocks(h)).toContain('read together: jobmanager.log, nodemanager.log');
      expect(h.fake.rejections).toEqual([]);
    } finally {
      await h.stop();
    }
  });
});

describe('two replicas each reading a first file of one thread at once', () => {
  it('post one answer between them: the replica that claimed it answers, the other edits it', async () => {
    const prefix = randomPrefix();
    const connections = [new Redis(TEST_REDIS_URL), new Redis(TEST_REDIS_URL)];
    const fake = new FakeSlack(BOT_TOKEN);
    await fake.start();
    const replicas: Harness[] = [];
    try {
      for (const redis of connections)
        replicas.push(await startHarness({ ...withCases(new RedisCaseStore(redis, { prefix })), fake }));
      const [a, b] = replicas as [Harness, Harness];
      const root = await diagnoseInChannel(a, 'nothing to see here', USER, 'CRACE06');
      await Promise.all([
        a.sender.event(
          shareEvent(a, 'CRACE06', root.ts, [fake.addFile('F961', 'jobmanager.log', JOBMANAGER)]),
        ),
        b.sender.event(
          shareEvent(b, 'CRACE06', root.ts, [fake.addFile('F962', 'nodemanager.log', NODEMANAGER)]),
        ),
      ]);
      const logs = () => [...a.logs.lines, ...b.logs.lines];
      await waitFor(() => logs().some((l) => l.msg === 'case started'));
      await waitFor(() => logs().some((l) => l.msg === 'case answer updated'));
      const replies = threadReplies(a, 'CRACE06', root.ts);
      expect(replies).toHaveLength(1);
      expect(fake.callsTo('chat.update')).toHaveLength(1);
      expect(fake.callsTo('chat.update')[0]?.args.ts).toBe(replies[0]?.ts);
      expect(editedBlocks(a)).toMatch(
        /read together: (jobmanager\.log, nodemanager\.log|nodemanager\.log, jobmanager\.log)/,
      );
      expect(fake.rejections).toEqual([]);
    } finally {
      for (const r of replicas) await r.stop();
      await fake.stop();
      await deletePrefix(connections[0] as Redis, prefix);
      for (const c of connections) c.disconnect();
    }
  });
});

/** A case store whose answer claims behave as given: another replica holding them, or Redis refusing. */
function claimingStore(claimAnswer: CaseStore['claimAnswer']): CaseStore {
  const store = new MemoryCaseStore();
  return {
    kind: store.kind,
    get: (where) => store.get(where),
    add: (where, addition, version) => store.add(where, addition, version),
    claimAnswer,
    close: () => store.close(),
  };
}

async function firstFileWith(store: CaseStore, channel: string, fileId: string) {
  const h = await startHarness({
    playbooks: loadPlaybooks(PLAYBOOKS_DIR),
    extend: (deps) => ({ ...deps, cases: { store, limits: ROOMY } }),
  });
  const root = await diagnoseInChannel(h, 'nothing to see here', USER, channel);
  await h.sender.event(
    shareEvent(h, channel, root.ts, [h.fake.addFile(fileId, 'nodemanager.log', NODEMANAGER)]),
  );
  return { h, root };
}

describe('a thread whose first answer cannot be claimed', () => {
  it('is answered anyway when the claim cannot be read (better two answers than none)', async () => {
    const store = claimingStore(async () => {
      throw new Error('connect ECONNREFUSED 127.0.0.1:6379');
    });
    const { h, root } = await firstFileWith(store, 'CRACE08', 'F965');
    try {
      await waitFor(() => h.logs.lines.some((l) => l.msg === 'case started'));
      expect(threadReplies(h, 'CRACE08', root.ts)).toHaveLength(1);
      expect(h.logs.lines.find((l) => l.msg === 'answer claim unavailable')?.err).toContain('ECONNREFUSED');
    } finally {
      await h.stop();
    }
  });

  it('is answered by this replica once the claimant has posted nothing for ten seconds', async () => {
    let claims = 0;
    const store = claimingStore(async () => {
      claims += 1;
      return false;
    });
    const { h, root } = await firstFileWith(store, 'CRACE09', 'F966');
    try {
      const started = Date.now();
      await waitFor(() => h.logs.lines.some((l) => l.msg === 'case started'));
      expect(Date.now() - started).toBeGreaterThanOrEqual(9_000);
      expect(h.logs.lines.some((l) => l.msg === 'claimed answer never posted')).toBe(true);
      expect(threadReplies(h, 'CRACE09', root.ts)).toHaveLength(1);
      expect(claims).toBe(1);
    } finally {
      await h.stop();
    }
  });
});

describe('a first file that cannot be kept for its case', () => {
  it('is downloaded again for the case when the in-flight cap has no room for a copy', async () => {
    const inflight = new InflightBytes(64 * 1024);
    const h = await startHarness({
      playbooks: loadPlaybooks(PLAYBOOKS_DIR),
      extend: (deps) => ({
        ...deps,
        inflight,
        cases: { store: new MemoryCaseStore(), limits: ROOMY },
      }),
    });
    try {
      const root = await diagnoseInChannel(h, 'nothing to see here', USER, 'CRACE05');
      await h.sender.event(
        shareEvent(h, 'CRACE05', root.ts, [h.fake.addFile('F958', 'nodemanager.log', NODEMANAGER)]),
      );
      await waitFor(() => h.logs.lines.some((l) => l.msg === 'case started'));
      expect(threadReplies(h, 'CRACE05', root.ts)).toHaveLength(1);
      expect(h.fake.downloadsOf('F958')).toBe(2);
      expect(inflight.bytesHeld).toBe(0);
    } finally {
      await h.stop();
    }
  });
});
