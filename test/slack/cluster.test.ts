import type { Cluster } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Config, loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { buildDeps, openSlackResources, type SlackResources } from '../../src/serve.ts';
import type { SlackDeps } from '../../src/slack/deps.ts';
import { CLUSTER_NODES, CLUSTER_SKIPPED, clusterPrefix, deleteClusterPrefix } from '../support/cluster.ts';
import { type RedisCluster, startRedisCluster } from '../support/redis-servers.ts';
import { buttonsOf, click, threadReplies } from './support/clicks.ts';
import type { StoredMessage } from './support/fake-slack.ts';
import { BOT_TOKEN, type Harness, SIGNING_SECRET, startHarness, waitFor } from './support/harness.ts';
import { eventEnvelope, slashCommand, threadReply } from './support/payloads.ts';

/**
 * The Slack app configured by REDIS_CLUSTER_NODES, as startSlack builds it (openSlackResources,
 * buildDeps), against a real Redis Cluster: a whole walkthrough, Slack's retries deduplicated,
 * and /healthz reporting the cluster, also when a master is gone.
 */

const OWNER = 'UALICE01';
const CHANNEL = 'CCLUSTER1';

function clusterConfig(nodes: string, prefix: string): Config {
  return loadConfig({
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    REDIS_CLUSTER_NODES: nodes,
    MEMDOCTOR_REDIS_PREFIX: prefix,
  });
}

/** The harness's fake Slack and log, with everything else built from the configuration. */
async function appOn(config: Config): Promise<{ h: Harness; resources: SlackResources }> {
  const resources = await openSlackResources(config, createLogger('silent'));
  const h = await startHarness({
    extend: (base): SlackDeps => ({ ...buildDeps(config, base.log, resources), settings: base.settings }),
  });
  return { h, resources };
}

async function walk(h: Harness, playbook: string): Promise<StoredMessage> {
  await h.sender.command(
    slashCommand(`walk ${playbook}`, { user: OWNER, channel: CHANNEL, responseUrl: h.fake.responseUrl }),
  );
  return waitFor(() => h.fake.messages.find((m) => m.channel === CHANNEL && !m.thread_ts));
}

describe.skipIf(!CLUSTER_NODES)(`the Slack app on a Redis Cluster${CLUSTER_SKIPPED}`, () => {
  const prefix = clusterPrefix();
  let h: Harness;
  let resources: SlackResources;
  beforeAll(async () => {
    ({ h, resources } = await appOn(clusterConfig(CLUSTER_NODES as string, prefix)));
  });
  afterAll(async () => {
    await h.stop();
    const redis = resources.redis as Cluster;
    await deleteClusterPrefix(redis, prefix);
    await redis.quit();
  });

  it('runs a whole walkthrough: walk, a click, a thread reply retried by Slack, the transcript', async () => {
    const root = await walk(h, 'spark-driver-result-size');
    expect(root.text).toBe("Walkthrough: Spark job stopped by the driver's result-size limit");
    const step1 = await waitFor(() => threadReplies(h, CHANNEL, root.ts)[0]);
    expect(step1.text).toContain('What does the failing action do?');
    await click(h, step1, 'A write, count or similar', OWNER);
    const step2 = await waitFor(() => threadReplies(h, CHANNEL, root.ts)[1]);
    expect(step2.text).toContain('How many tasks sent results?');
    expect(buttonsOf(step1)).toEqual([]);

    const reply = eventEnvelope(
      threadReply({
        user: OWNER,
        channel: CHANNEL,
        threadTs: root.ts,
        parentUserId: h.fake.botUserId,
        text: '20000',
      }),
      'EvClusterRetry1',
    );
    await h.sender.event(reply);
    await h.sender.event(reply, 1);
    const conclusion = await waitFor(() => threadReplies(h, CHANNEL, root.ts)[2]);
    expect(conclusion.text).toContain('Too many tasks report to the driver');
    const transcript = await waitFor(() => threadReplies(h, CHANNEL, root.ts)[3]);
    expect(JSON.stringify(transcript.blocks)).toMatch(/thread[\s\S]*choose[\s\S]*measure/);
    await new Promise((resolve) => setTimeout(resolve, 200));
    // The retried reply moved the walkthrough once: four replies and the feedback question, no more.
    const replies = threadReplies(h, CHANNEL, root.ts);
    expect(replies.map((m) => m.text)).toHaveLength(5);
    expect(replies[4]?.text).toBe('Did this fix it?');
    expect(h.logs.lines.filter((l) => l.msg === 'repeat delivery skipped')).toHaveLength(1);

    const where = { workspace: 'T1', conversation: CHANNEL };
    const stored = await h.deps.walkthroughs.findByThread(where, root.ts);
    expect(stored).toMatchObject({ status: 'done', current: 'fewer-tasks' });
    expect(await h.deps.walkthroughs.listActive(where)).toEqual([]);
    expect(h.logs.lines.filter((l) => Number(l.level) >= 40).map((l) => l.msg)).toEqual([
      // The retry's `X-Slack-Retry-Num` is logged at info; nothing warns.
    ]);
  });

  it('reports the cluster on /healthz', async () => {
    const res = await fetch(`${h.url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      ok: true,
      store: 'redis',
      redis: 'up',
      cluster: { state: 'ok', masters: 3, reachable: 3, slots: 16_384 },
      playbooks: 9,
      slack: 'ok',
    });
  });
});

describe.skipIf(!CLUSTER_NODES)(`a Redis Cluster losing a master${CLUSTER_SKIPPED}`, () => {
  let cluster: RedisCluster;
  let h: Harness;
  let resources: SlackResources;
  beforeAll(async () => {
    // Its own cluster (the run's shared one stays whole), quick to notice a dead node.
    cluster = await startRedisCluster({ nodeTimeoutMs: 500 });
    ({ h, resources } = await appOn(clusterConfig(cluster.nodes.join(','), clusterPrefix())));
  });
  afterEach(() => {
    expect(h.fake.rejections).toEqual([]);
  });
  afterAll(async () => {
    await h?.stop();
    resources?.redis?.disconnect();
    await cluster?.stop();
  });

  it('answers 503 on /healthz and tells a click that the cluster is down, with nothing lost', async () => {
    const root = await walk(h, 'spark-driver-result-size');
    const step1 = await waitFor(() => threadReplies(h, CHANNEL, root.ts)[0]);
    const redis = resources.redis as Cluster;
    // Kill a master that does not hold this channel's walkthrough: its keys stay reachable, and
    // the cluster, missing a third of its slots, refuses them with CLUSTERDOWN.
    const slot = Number(await redis.cluster('KEYSLOT', `x:{T1:${CHANNEL}}`));
    const ranges = await redis.cluster('SLOTS');
    const owner = ranges.find(([from, to]) => slot >= from && slot <= to)?.[2]?.[1];
    const victim = cluster.servers.find((s) => s.port !== owner);
    await victim?.stop();
    const lost = ranges
      .filter((r) => r[2]?.[1] === victim?.port)
      .reduce((sum, [from, to]) => sum + to - from + 1, 0);

    const health = await waitFor(async () => {
      const res = await fetch(`${h.url}/healthz`);
      const body = (await res.json()) as { cluster?: { state: string } };
      return body.cluster?.state === 'fail' ? { status: res.status, body } : undefined;
    });
    expect(health).toEqual({
      status: 503,
      body: {
        ok: false,
        store: 'redis',
        redis: 'down',
        cluster: { state: 'fail', masters: 3, reachable: 2, slots: 16_384 - lost },
        playbooks: 9,
        slack: 'ok',
      },
    });

    await click(h, step1, 'A write, count or similar', OWNER);
    const told = await waitFor(() => h.fake.callsTo('chat.postEphemeral')[0]);
    const logged = h.logs.lines.find((l) => l.msg === 'answer not stored');
    expect(String(logged?.err), JSON.stringify(h.logs.lines.filter((l) => Number(l.level) >= 40))).toMatch(
      /CLUSTERDOWN|cluster_state:fail/,
    );
    expect(told.args.text).toContain(
      'Redis, where memdoctor keeps walkthroughs, is unavailable (the Redis Cluster is down), so your answer was not recorded. Nothing was lost',
    );
    expect(threadReplies(h, CHANNEL, root.ts)).toHaveLength(1);
    expect(String(logged?.err)).toContain('redis-cli --cluster check');
  });
});
