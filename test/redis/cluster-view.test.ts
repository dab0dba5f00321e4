import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type ClusterHealth,
  judgeCluster,
  parseClusterNodes,
  silentOwners,
} from '../../src/redis/cluster-view.ts';

/*
 * Real replies of every node of a 3-master + 3-replica Redis 7.0.15 cluster on loopback, before and
 * while a master is killed and its replica takes over (fixtures/SOURCES.md says how they were taken).
 * A snapshot was kept each time some node's answer changed; a killed node's replies are null.
 */
const reply = z.strictObject({
  address: z.string(),
  info: z.string().nullable(),
  nodes: z.string().nullable(),
});
const capture = z.strictObject({
  redis: z.string(),
  capturedAt: z.string(),
  killed: z.string(),
  before: z.array(reply),
  after: z.array(z.strictObject({ msAfterKill: z.number(), disagree: z.boolean(), replies: z.array(reply) })),
});
type Reply = z.infer<typeof reply>;

function load(name: string): z.infer<typeof capture> {
  return capture.parse(JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures/cluster', name), 'utf8')));
}

/** What the probe hands the judgement: the answers of the nodes that replied. */
function answers(replies: Reply[]): { info: string; nodes: string }[] {
  return replies.flatMap((r) =>
    r.info !== null && r.nodes !== null ? [{ info: r.info, nodes: r.nodes }] : [],
  );
}

const whole: ClusterHealth = { state: 'ok', masters: 3, reachable: 3, slots: 16_384 };
// The killed master held 0-5460: 5,461 slots.
const lost = (state: 'ok' | 'fail'): ClusterHealth => ({ state, masters: 3, reachable: 2, slots: 10_923 });

// Each snapshot, in order: silent master (no flag yet), suspected (fail?), failed (cluster_state:fail),
// the failover spreading, and every master seeing the replica hold the slots.
const timelines: [string, ClusterHealth[]][] = [
  [
    'failover-masters-split.json',
    [...Array(6).fill(lost('ok')), lost('fail'), lost('fail'), lost('fail'), whole],
  ],
  [
    'failover-promoted-first.json',
    [...Array(5).fill(lost('ok')), lost('fail'), lost('fail'), lost('fail'), whole],
  ],
  [
    'failover-spreading.json',
    [...Array(3).fill(lost('ok')), lost('fail'), lost('fail'), lost('fail'), whole],
  ],
  ['failover-replica-lags.json', [...Array(3).fill(lost('ok')), lost('fail'), lost('fail'), whole, whole]],
];

describe('judging a Redis Cluster from its masters’ answers (real replies, Redis 7.0.15)', () => {
  it.each(timelines)(
    '%s: whole before the kill, then not ready until every master sees the takeover',
    (name, expected) => {
      const { before, after } = load(name);
      expect(judgeCluster(answers(before))).toEqual(whole);
      expect(after.map((s) => judgeCluster(answers(s.replies)))).toEqual(expected);
    },
  );

  it('takes the least complete view while masters disagree on who holds the slots', () => {
    const split = load('failover-masters-split.json').after.find((s) => s.msAfterKill === 1604);
    const masters = (split?.replies ?? []).filter((r) => /myself,master/.test(r.nodes ?? ''));
    // One master already sees the replica holding 0-5460; another still the failed master, and says fail.
    const ownerOfSlot0 = masters.map((r) => {
      const line = (r.nodes ?? '').split('\n').find((l) => l.endsWith(' 0-5460'));
      return line?.split(' ')[1];
    });
    expect(new Set(ownerOfSlot0).size).toBe(2);
    expect(masters.map((r) => /cluster_state:(\w+)/.exec(r.info ?? '')?.[1]).sort()).toEqual([
      'fail',
      'ok',
      'ok',
    ]);
    expect(judgeCluster(answers(split?.replies ?? []))).toEqual(lost('fail'));
  });

  it('counts a master only when it answered itself: a live master that times out leaves its slots unserved', () => {
    const { before } = load('failover-masters-split.json');
    const silentMaster = before.findIndex((r) =>
      /myself,master - \S+ \S+ \S+ connected 5461-10922/.test(r.nodes ?? ''),
    );
    expect(silentMaster).toBeGreaterThanOrEqual(0);
    const rest = before.filter((_, i) => i !== silentMaster);
    expect(silentOwners(answers(rest))).toEqual([before[silentMaster]?.address]);
    expect(judgeCluster(answers(rest))).toEqual({
      state: 'ok',
      masters: 3,
      reachable: 2,
      slots: 16_384 - 5462,
    });
  });

  it('names the promoted replica as a silent owner when the client did not ask it (it knew it as no master)', () => {
    const { after } = load('failover-masters-split.json');
    const healed = after.at(-1)?.replies ?? [];
    const promoted = healed.find((r) => /myself,master \S+ \S+ \S+ \S+ connected 0-5460/.test(r.nodes ?? ''));
    expect(promoted?.address).toBe('127.0.0.1:45586');
    expect(silentOwners(answers(healed))).toEqual([]);
    const unasked = healed.filter((r) => r !== promoted);
    expect(silentOwners(answers(unasked))).toEqual(['127.0.0.1:45586']);
    expect(judgeCluster(answers(unasked))).toEqual(lost('ok'));
  });

  it('ignores replicas’ own state: a replica still saying cluster_state:fail does not hold readiness back', () => {
    const lagging = load('failover-replica-lags.json').after.find((s) => s.msAfterKill === 1882);
    const states = (lagging?.replies ?? []).map((r) => /cluster_state:(\w+)/.exec(r.info ?? '')?.[1]);
    expect(states).toContain('fail');
    expect(judgeCluster(answers(lagging?.replies ?? []))).toEqual(whole);
  });

  it('is unknown when no master answered, or only replicas did', () => {
    const { before } = load('failover-masters-split.json');
    expect(judgeCluster([])).toEqual({ state: 'unknown', masters: 0, reachable: 0, slots: 0 });
    const replicas = before.filter((r) => /myself,slave/.test(r.nodes ?? ''));
    expect(replicas).toHaveLength(3);
    expect(judgeCluster(answers(replicas))).toEqual({ state: 'unknown', masters: 0, reachable: 0, slots: 0 });
  });

  it('does not count an answer it cannot read (hand-edited from a real one)', () => {
    const { before } = load('failover-masters-split.json');
    const [first, ...rest] = answers(before);
    const garbled = { info: first?.info ?? '', nodes: `${first?.nodes ?? ''}not a node line\n` };
    expect(parseClusterNodes(garbled.nodes)).toBeUndefined();
    expect(judgeCluster([garbled, ...rest]).reachable).toBe(2);
  });
});
