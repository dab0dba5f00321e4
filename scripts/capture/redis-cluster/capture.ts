/**
 * Captures what the nodes of a real Redis Cluster answer to CLUSTER INFO and CLUSTER NODES while a
 * master is killed and its replica takes over: the fixtures of test/redis/cluster-view.test.ts.
 *
 *   npx tsx scripts/capture/redis-cluster/capture.ts [out-dir] [runs]
 *
 * Each run starts its own 3-master + 3-replica cluster on free loopback ports (cluster-node-timeout
 * 500 ms, as test/slack/cluster-failover.test.ts), snapshots every node, kills the master holding
 * slot 0 by PID and snapshots every node as fast as it can until they all agree the replica holds
 * its slots and report cluster_state:ok, and 1 s more. A snapshot is written when some node's answer
 * differs from the previous one in state, owner of slot 0 or its flags; `disagree` marks those
 * where the nodes that answered do not see the same thing.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { type RedisCluster, startRedisCluster } from '../../../test/support/redis-servers.ts';

interface NodeReply {
  address: string;
  info: string | null;
  nodes: string | null;
}

interface Snapshot {
  msAfterKill: number;
  disagree: boolean;
  replies: NodeReply[];
}

/** One connection per node, kept for the whole run (a socket per command would fill TIME-WAIT). */
function clients(ports: number[]): Redis[] {
  return ports.map((port) => {
    const redis = new Redis({
      host: '127.0.0.1',
      port,
      commandTimeout: 300,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    redis.on('error', () => undefined);
    return redis;
  });
}

async function snapshot(nodes: Redis[]): Promise<NodeReply[]> {
  return Promise.all(
    nodes.map(async (node) => {
      const [info, view] = await Promise.all([
        node.cluster('INFO').then(String, () => null),
        node.cluster('NODES').then(String, () => null),
      ]);
      return { address: `127.0.0.1:${node.options.port}`, info, nodes: view };
    }),
  );
}

/** What one node says: its cluster_state, and who holds slot 0 with which flags. */
function gist(reply: NodeReply): string | undefined {
  if (reply.info === null || reply.nodes === null) return undefined;
  const state = /cluster_state:(\w+)/.exec(reply.info)?.[1];
  const owner = reply.nodes
    .split('\n')
    .map((line) => line.split(' '))
    .find((f) => f.slice(8).some((s) => s === '0' || s.startsWith('0-')));
  return `${state} ${owner?.[1]} ${owner?.[2]}`;
}

function allHealed(replies: NodeReply[], successor: string): boolean {
  const seen = replies.map(gist).filter((g) => g !== undefined);
  return seen.length > 0 && seen.every((g) => g.startsWith(`ok ${successor} `) && !g.includes('fail'));
}

async function failover(
  cluster: RedisCluster,
): Promise<{ before: NodeReply[]; after: Snapshot[]; killed: string }> {
  const nodes = clients(cluster.servers.map((s) => s.port));
  await Promise.all(nodes.map((node) => new Promise((resolve) => node.once('ready', resolve))));
  const before = await snapshot(nodes);
  const victimLine = before[0]?.nodes?.split('\n').find((l) => / (0-\d+)/.test(l) && l.includes('master'));
  const victimId = victimLine?.split(' ')[0];
  const successorLine = before[0]?.nodes?.split('\n').find((l) => l.split(' ')[3] === victimId);
  const successor = successorLine?.split(' ')[1] as string;
  const killed = victimLine?.split(' ')[1]?.split('@')[0] as string;
  const victim = cluster.servers.find((s) => `127.0.0.1:${s.port}` === killed);
  const start = performance.now();
  await victim?.stop();
  const after: Snapshot[] = [];
  let last = '';
  let healedAt: number | undefined;
  while (healedAt === undefined || performance.now() - healedAt < 1000) {
    const replies = await snapshot(nodes);
    const gists = replies.map(gist);
    const key = gists.join('|');
    if (key !== last) {
      const distinct = new Set(gists.filter((g) => g !== undefined));
      after.push({
        msAfterKill: Math.round(performance.now() - start),
        disagree: distinct.size > 1,
        replies,
      });
      last = key;
    }
    if (healedAt === undefined && allHealed(replies, successor)) healedAt = performance.now();
    if (performance.now() - start > 30_000) throw new Error('no failover in 30 s');
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  for (const node of nodes) node.disconnect();
  return { before, after, killed };
}

async function main(): Promise<void> {
  const out = process.argv[2] ?? 'test/redis/fixtures/cluster';
  const runs = Number(process.argv[3] ?? 1);
  const version = spawnSync('redis-server', ['--version'], { encoding: 'utf8' }).stdout.trim();
  mkdirSync(out, { recursive: true });
  for (let run = 1; run <= runs; run++) {
    const cluster = await startRedisCluster({ masters: 3, replicas: 1, nodeTimeoutMs: 500 });
    try {
      const capturedAt = new Date().toISOString();
      const { before, after, killed } = await failover(cluster);
      const file = join(out, `failover-run${run}.json`);
      writeFileSync(
        file,
        `${JSON.stringify({ redis: version, capturedAt, killed, before, after }, null, 2)}\n`,
      );
      const disagreeing = after.filter((s) => s.disagree).length;
      console.log(`${file}: ${after.length} snapshots, ${disagreeing} with nodes disagreeing`);
    } finally {
      await cluster.stop();
    }
  }
}

await main();
