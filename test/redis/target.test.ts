import { describe, expect, it } from 'vitest';
import { loadConfig, loadConfigLeniently, redisTarget } from '../../src/config.ts';
import { ErrorCode, MemdoctorError } from '../../src/errors.ts';
import { describeTarget } from '../../src/redis/target.ts';

function configError(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof MemdoctorError && error.code === ErrorCode.ConfigInvalid) return error.message;
    throw error;
  }
  throw new Error('expected a configuration error');
}

describe('REDIS_CLUSTER_NODES', () => {
  it('takes host:port seeds', () => {
    const config = loadConfig({ REDIS_CLUSTER_NODES: ' 10.0.0.5:7000, redis-b.internal:7001 ,[::1]:7002' });
    expect(redisTarget(config)).toEqual({
      kind: 'cluster',
      seeds: {
        nodes: [
          { host: '10.0.0.5', port: 7000 },
          { host: 'redis-b.internal', port: 7001 },
          { host: '::1', port: 7002 },
        ],
        tls: false,
      },
    });
  });

  it('takes the password and TLS from rediss:// seeds, as REDIS_URL does', () => {
    const config = loadConfig({
      REDIS_CLUSTER_NODES: 'rediss://app:s%40cret@a.example:6380,rediss://app:s%40cret@b.example',
    });
    const target = redisTarget(config);
    expect(target).toEqual({
      kind: 'cluster',
      seeds: {
        nodes: [
          { host: 'a.example', port: 6380 },
          { host: 'b.example', port: 6379 },
        ],
        username: 'app',
        password: 's@cret',
        tls: true,
      },
    });
    expect(target && describeTarget(target)).toBe(
      'REDIS_CLUSTER_NODES=rediss://app:***@a.example:6380,rediss://app:***@b.example:6379',
    );
  });

  it.each([
    ['10.0.0.5', '"10.0.0.5" is not host:port (such as 10.0.0.5:6379)'],
    ['10.0.0.5:99999', '"10.0.0.5:99999" is not host:port'],
    ['http://a:1', '"http://a:1" must start with redis:// or rediss:// (TLS)'],
    ['redis://a:1/2', '"redis://a:1/2" names database 2, but a Redis Cluster has only database 0'],
    [' , ', 'name at least one node, as host:port,host:port'],
    [
      'rediss://:one@a:1,rediss://:two@b:2',
      'every node must use the same scheme and credentials (b:2 differs from a:1): write them all as host:port or all as rediss://:password@host:port',
    ],
  ])('refuses %j, saying what is wrong', (value, message) => {
    const text = configError({ REDIS_CLUSTER_NODES: value });
    expect(text).toContain(message);
    expect(text).toContain('→ at REDIS_CLUSTER_NODES');
    expect(text).not.toMatch(/:one@|:two@/);
  });

  it('is refused together with REDIS_URL, naming both', () => {
    const both = { REDIS_URL: 'redis://127.0.0.1:6379', REDIS_CLUSTER_NODES: '127.0.0.1:7000' };
    expect(configError(both)).toContain(
      'set either REDIS_URL (one Redis server) or REDIS_CLUSTER_NODES (a Redis Cluster), not both; unset one of them',
    );
    // Commands that run without Redis drop the bad setting and keep the other.
    const { config, problem } = loadConfigLeniently(both);
    expect(problem?.message).toContain('REDIS_CLUSTER_NODES');
    expect(redisTarget(config)).toEqual({ kind: 'server', url: 'redis://127.0.0.1:6379' });
  });

  it('names one server with REDIS_URL, and memory with neither', () => {
    expect(redisTarget(loadConfig({ REDIS_URL: 'redis://h:1' }))).toEqual({
      kind: 'server',
      url: 'redis://h:1',
    });
    expect(redisTarget(loadConfig({}))).toBeUndefined();
    expect(describeTarget({ kind: 'server', url: 'redis://:pw@h:1/0' })).toBe('REDIS_URL=redis://:***@h:1/0');
  });
});
