import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { ErrorCode, StoreProblem, StoreUnavailableError } from '../../src/errors.ts';
import { storeProblem, storeUnavailable } from '../../src/redis/failure.ts';
import type { RedisTarget } from '../../src/redis/target.ts';
import { CLUSTER_NODES, CLUSTER_SKIPPED } from '../support/cluster.ts';

const server: RedisTarget = { kind: 'server', url: 'redis://:secret@10.0.0.5:6379' };
const cluster: RedisTarget = {
  kind: 'cluster',
  seeds: { nodes: [{ host: '10.0.0.5', port: 7000 }], password: 'secret', tls: true },
};

describe('what a failed Redis call means', () => {
  // Replies as Redis (src/cluster.c, src/server.c) and ioredis (Cluster, Redis) word them.
  it.each([
    ['CLUSTERDOWN The cluster is down', 'cluster', StoreProblem.ClusterDown],
    ['CLUSTERDOWN Hash slot not served', 'cluster', StoreProblem.ClusterDown],
    [
      'Too many Cluster redirections. Last error: ReplyError: CLUSTERDOWN The cluster is down',
      'cluster',
      StoreProblem.ClusterDown,
    ],
    ['TRYAGAIN Multiple keys request during rehashing of slot', 'cluster', StoreProblem.ClusterMoving],
    [
      'Too many Cluster redirections. Last error: ReplyError: MOVED 3999 127.0.0.1:7002',
      'cluster',
      StoreProblem.ClusterMoving,
    ],
    ['MOVED 3999 127.0.0.1:7002', 'server', StoreProblem.WrongMode],
    ['ASK 3999 127.0.0.1:7002', 'server', StoreProblem.WrongMode],
    ['ERR This instance has cluster support disabled', 'cluster', StoreProblem.WrongMode],
    ['NOAUTH Authentication required.', 'server', StoreProblem.Refused],
    ['WRONGPASS invalid username-password pair or user is disabled.', 'server', StoreProblem.Refused],
    ["OOM command not allowed when used memory > 'maxmemory'.", 'server', StoreProblem.Refused],
    ["READONLY You can't write against a read only replica.", 'server', StoreProblem.Refused],
    ["Stream isn't writeable and enableOfflineQueue options is false", 'server', StoreProblem.Unreachable],
    ["Cluster isn't ready and enableOfflineQueue options is false", 'cluster', StoreProblem.Unreachable],
    [
      'Too many Cluster redirections. Last error: Error: Connection is closed.',
      'cluster',
      StoreProblem.Unreachable,
    ],
    ['connect ECONNREFUSED 127.0.0.1:6379', 'server', StoreProblem.Unreachable],
  ] as const)('%s (%s) -> %s', (reason, kind, problem) => {
    expect(storeProblem(reason, kind)).toBe(problem);
  });

  it('tells the operator what to do, names the setting without its password, and says nothing was lost', () => {
    const error = storeUnavailable(new Error('CLUSTERDOWN The cluster is down'), cluster);
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect(error.message).toBe(
      'Redis is unavailable: CLUSTERDOWN The cluster is down. The Redis Cluster at REDIS_CLUSTER_NODES=rediss://:***@10.0.0.5:7000 does not serve all its hash slots; check it with redis-cli --cluster check <node>. Nothing was lost: a change is stored whole or not at all; once Redis is back, look at the walkthrough (status) before answering again.',
    );
    expect((error as StoreUnavailableError).summary).toBe('the Redis Cluster is down');
    const moved = storeUnavailable(new Error('MOVED 3999 127.0.0.1:7002'), server);
    expect(moved.message).toContain(
      'REDIS_URL=redis://:***@10.0.0.5:6379 is a node of a Redis Cluster: set REDIS_CLUSTER_NODES=host:port,host:port',
    );
    expect(moved.message).not.toContain('secret');
  });

  it("reports keys of two slots in one call as memdoctor's bug, not as Redis being away", () => {
    const error = storeUnavailable(
      new Error("CROSSSLOT Keys in request don't hash to the same slot"),
      cluster,
    );
    expect(error.code).toBe(ErrorCode.Internal);
    expect(error.message).toMatch(/this is a bug in memdoctor/);
  });
});

describe.skipIf(!CLUSTER_NODES)(
  `the replies a real cluster node gives a one-server client${CLUSTER_SKIPPED}`,
  () => {
    it('are MOVED for another node’s slot and CROSSSLOT for keys of two slots', async () => {
      const [node = ''] = (CLUSTER_NODES ?? '').split(',');
      const single = new Redis(`redis://${node}`);
      const replies: string[] = [];
      for (const key of ['a', 'b', 'c', 'd', 'e', 'f'])
        await single.get(key).catch((e: Error) => replies.push(e.message));
      await single.mset('{a}x', '1', '{b}y', '2').catch((e: Error) => replies.push(e.message));
      single.disconnect();
      const moved = replies.filter((r) => r.startsWith('MOVED'));
      expect(moved.length).toBeGreaterThan(0);
      for (const reply of moved) expect(storeProblem(reply, 'server')).toBe(StoreProblem.WrongMode);
      expect(replies.at(-1)).toBe("CROSSSLOT Keys in request don't hash to the same slot");
    });
  },
);
