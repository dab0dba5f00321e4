import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { configuredFetching } from '../../src/setup/connectors.ts';
import { deletePrefix, randomPrefix, TEST_REDIS_URL } from '../support/redis.ts';

/** The Slack app's gate (src/serve.ts): its caps in the app's Redis when it has one, else in the process. */
describe('configuredFetching', () => {
  const prefix = randomPrefix();
  const redis = [new Redis(TEST_REDIS_URL), new Redis(TEST_REDIS_URL)] as const;
  afterAll(async () => {
    await deletePrefix(redis[0], prefix);
    for (const r of redis) r.disconnect();
  });
  const yaml = join(mkdtempSync(join(tmpdir(), 'fetching-')), 'connectors.yaml');
  writeFileSync(yaml, 'flink: { url: "http://127.0.0.1:9" }\n');
  const config = loadConfig({
    MEMDOCTOR_CONNECTORS: yaml,
    MEMDOCTOR_FETCHES_PER_USER: '1',
    MEMDOCTOR_REDIS_PREFIX: prefix,
  });
  const log = createLogger('silent');
  const asker = { surface: 'slack', workspace: 'T1', user: 'UALICE', channel: 'C1' } as const;
  const wanted = { connector: 'flink', kind: 'check' } as const;

  it('with Redis, two replicas’ gates share MEMDOCTOR_FETCHES_PER_USER', async () => {
    const [a, b] = redis.map((r) => configuredFetching(config, log, r).fetchGate);
    await a?.admit(wanted, asker);
    await expect(b?.admit(wanted, asker)).rejects.toThrow('You already have 1 fetch running');
  });

  it('without, each process counts its own', async () => {
    const [a, b] = [configuredFetching(config, log).fetchGate, configuredFetching(config, log).fetchGate];
    await a?.admit(wanted, asker);
    await expect(a?.admit(wanted, asker)).rejects.toThrow('You already have 1 fetch running');
    expect((await b?.admit(wanted, asker))?.audience).toBe('asker');
  });
});
