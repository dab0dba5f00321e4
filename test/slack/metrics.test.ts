import type { Cluster, Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { buildSlackService, type SlackService } from '../../src/serve.ts';
import { SlackMetrics } from '../../src/slack/metrics.ts';
import { CLUSTER_NODES, CLUSTER_SKIPPED, clusterPrefix } from '../support/cluster.ts';
import { randomPrefix } from '../support/redis.ts';
import { TcpProxy } from '../support/tcp-proxy.ts';
import { click, threadReplies } from './support/clicks.ts';
import { FakeSlack } from './support/fake-slack.ts';
import {
  BOT_TOKEN,
  freePort,
  type Harness,
  SIGNING_SECRET,
  startHarness,
  waitFor,
} from './support/harness.ts';
import { slashCommand } from './support/payloads.ts';

const HEAP_OOM = 'java.lang.OutOfMemoryError: Java heap space\n';

let h: Harness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});

const TOKEN = 'scrape-token-5d0c1b7a9e';

async function scrape(harness: Harness): Promise<string> {
  const res = await fetch(new URL('/metrics', harness.url), {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text();
}

/** One sample's value from Prometheus text, e.g. value(text, 'memdoctor_diagnoses_total{playbook="x"}'). */
function value(text: string, sample: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${sample} `));
  return line === undefined ? undefined : Number(line.slice(sample.length + 1));
}

describe('GET /metrics', () => {
  it('counts diagnoses by playbook, times them and the acknowledgements, and shows the queue depth', async () => {
    let depth = 3;
    const metrics = new SlackMetrics(() => depth);
    const harness = await startHarness({ metricsToken: TOKEN, extend: (deps) => ({ ...deps, metrics }) });
    h = harness;
    const before = await scrape(harness);
    expect(value(before, 'memdoctor_diagnoses_total{playbook="test-heap-oom"}')).toBeUndefined();
    expect(value(before, 'memdoctor_diagnosis_queue_depth')).toBe(3);

    for (const text of [HEAP_OOM, HEAP_OOM, 'all quiet\n']) {
      const res = await harness.sender.command(
        slashCommand(text, { user: 'U1', channel: 'C1', responseUrl: harness.fake.responseUrl }),
      );
      expect(res.status).toBe(200);
    }
    await waitFor(() => (harness.fake.callsTo('chat.postMessage').length === 3 ? true : undefined));
    depth = 0;
    const after = await scrape(harness);
    expect(value(after, 'memdoctor_diagnoses_total{playbook="test-heap-oom"}')).toBe(2);
    expect(value(after, 'memdoctor_diagnoses_total{playbook="none"}')).toBe(1);
    expect(value(after, 'memdoctor_diagnosis_duration_seconds_count')).toBe(3);
    expect(value(after, 'memdoctor_ack_latency_seconds_count')).toBe(3);
    expect(value(after, 'memdoctor_diagnosis_queue_depth')).toBe(0);
    expect(after).toContain('# TYPE memdoctor_walkthrough_starts_total counter');
    expect(after).toContain('# TYPE memdoctor_redis_errors_total counter');
    expect(after).toContain('# TYPE memdoctor_refusals_total counter');
    // Node's and the process's own metrics keep their usual names; memdoctor's carry its prefix.
    expect(after).toMatch(/^process_resident_memory_bytes \d+/m);
    expect(after).toMatch(/^nodejs_eventloop_lag_seconds /m);
    expect(after).not.toMatch(/^memdoctor_(process|nodejs)_/m);
  });

  it('counts walkthrough starts by playbook and transitions by event', async () => {
    const metrics = new SlackMetrics();
    const harness = await startHarness({ metricsToken: TOKEN, extend: (deps) => ({ ...deps, metrics }) });
    h = harness;
    const before = await scrape(harness);
    expect(value(before, 'memdoctor_walkthrough_starts_total{playbook="test-heap-oom"}')).toBeUndefined();
    await harness.sender.command(
      slashCommand(`Running Spark version 3.5.1\n${HEAP_OOM}`, {
        user: 'U1',
        channel: 'C1',
        responseUrl: harness.fake.responseUrl,
      }),
    );
    const root = await waitFor(() => harness.fake.messages.find((m) => m.channel === 'C1' && !m.thread_ts));
    await click(harness, root, 'Start walkthrough', 'U1');
    const step1 = await waitFor(() => threadReplies(harness, 'C1', root.ts)[0]);
    const started = await scrape(harness);
    expect(value(started, 'memdoctor_walkthrough_starts_total{playbook="test-heap-oom"}')).toBe(1);
    await click(harness, step1, 'Done', 'U1');
    await waitFor(() => threadReplies(harness, 'C1', root.ts)[1]);
    const after = await scrape(harness);
    const transitions = after
      .split('\n')
      .filter((l) => l.startsWith('memdoctor_walkthrough_transitions_total{'));
    expect(transitions.length).toBeGreaterThan(0);
    const total = transitions.reduce((sum, l) => sum + Number(l.split(' ').at(-1)), 0);
    const beforeClick = started
      .split('\n')
      .filter((l) => l.startsWith('memdoctor_walkthrough_transitions_total{'))
      .reduce((sum, l) => sum + Number(l.split(' ').at(-1)), 0);
    expect(total).toBe(beforeClick + 1);
    expect(value(after, 'memdoctor_walkthrough_starts_total{playbook="test-heap-oom"}')).toBe(1);
    expect(harness.fake.rejections).toEqual([]);
  });

  it('is not served when the app keeps no metrics', async () => {
    h = await startHarness({ metricsToken: TOKEN });
    expect((await fetch(new URL('/metrics', h.url))).status).toBe(404);
  });

  it('is not served on Slack’s port without MEMDOCTOR_METRICS_TOKEN, and with it only to its bearer', async () => {
    const metrics = new SlackMetrics();
    h = await startHarness({ extend: (deps) => ({ ...deps, metrics }) });
    expect((await fetch(new URL('/metrics', h.url))).status).toBe(404);
    await h.stop();
    h = await startHarness({ metricsToken: TOKEN, extend: (deps) => ({ ...deps, metrics }) });
    const url = new URL('/metrics', h.url);
    expect((await fetch(url)).status).toBe(401);
    expect((await fetch(url, { headers: { authorization: `Bearer ${TOKEN}x` } })).status).toBe(401);
    expect((await fetch(url, { headers: { authorization: TOKEN } })).status).toBe(401);
    expect(await scrape(h)).toContain('memdoctor_refusals_total');
  });
});

/** memdoctor_redis_errors_total, summed over its sources. */
async function redisErrors(service: SlackService): Promise<number> {
  const text = (await service.deps.metrics?.registry.metrics()) ?? '';
  return text
    .split('\n')
    .filter((l) => l.startsWith('memdoctor_redis_errors_total{'))
    .reduce((sum, l) => sum + Number(l.split(' ').at(-1)), 0);
}

describe('Redis errors in GET /metrics, from the connection the app opens', () => {
  const log = createLogger('silent');
  let service: SlackService | undefined;
  let proxy: TcpProxy | undefined;
  let fake: FakeSlack | undefined;
  afterEach(async () => {
    await proxy?.restore();
    await service?.abandon();
    await proxy?.close();
    await fake?.stop();
    service = undefined;
    proxy = undefined;
    fake = undefined;
  });

  it('counts the errors of the REDIS_URL connection that walkthroughs, dedupe, outcomes and the model cache share', async () => {
    proxy = await TcpProxy.start(6379);
    fake = new FakeSlack(BOT_TOKEN);
    await fake.start();
    const port = await freePort();
    const metricsPort = await freePort();
    const config = loadConfig({
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: fake.apiUrl,
      MEMDOCTOR_ALLOW_HTTP_LOOPBACK: 'true',
      REDIS_URL: proxy.url,
      MEMDOCTOR_REDIS_PREFIX: randomPrefix(),
      OPENAI_API_KEY: 'sk-test-not-used',
      PORT: String(port),
      MEMDOCTOR_METRICS_PORT: String(metricsPort),
      MEMDOCTOR_ENGINE_THREADS: '1',
    });
    const built = await buildSlackService(config, log);
    service = built;
    await built.app.start(port);
    expect(await redisErrors(built)).toBe(0);
    await proxy.cut();
    // ioredis reconnects to a port that now refuses: each refusal is an error event.
    await waitFor(async () => (await redisErrors(built)) > 0);
    // MEMDOCTOR_METRICS_PORT: metrics on their own loopback listener, not on Slack's port.
    expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(404);
    const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    expect(value(text, 'memdoctor_redis_errors_total{source="connection"}')).toBeGreaterThan(0);
  });

  it.skipIf(!CLUSTER_NODES)(`counts a cluster node's errors too${CLUSTER_SKIPPED}`, async () => {
    const config = loadConfig({
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      REDIS_CLUSTER_NODES: CLUSTER_NODES ?? '',
      MEMDOCTOR_REDIS_PREFIX: clusterPrefix(),
      MEMDOCTOR_ENGINE_THREADS: '1',
    });
    const built = await buildSlackService(config, log);
    service = built;
    const cluster = built.redis as Cluster;
    const node = cluster.nodes('master')[0] as Redis;
    expect(await node.ping()).toBe('PONG');
    expect(await redisErrors(built)).toBe(0);
    node.stream.destroy(new Error('connection reset by the test'));
    await waitFor(async () => (await redisErrors(built)) > 0);
  });
});
