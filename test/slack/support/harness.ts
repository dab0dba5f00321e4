import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { App } from '@slack/bolt';
import { afterEach, beforeEach, expect } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { type EventDedupe, MemoryEventDedupe } from '../../../src/dedupe/event-dedupe.ts';
import type { Playbook } from '../../../src/engine/playbook/schema.ts';
import { createLogger } from '../../../src/log.ts';
import { loadPlaybooks } from '../../../src/playbooks/load.ts';
import { createSlackApp } from '../../../src/slack/app.ts';
import type { SlackDeps, SlackSettings } from '../../../src/slack/deps.ts';
import { OncallPolicy } from '../../../src/slack/oncall.ts';
import type { OutcomeStore } from '../../../src/stats/outcomes.ts';
import type { WalkthroughService } from '../../../src/walkthrough/index.ts';
import { PATIENCE_MS } from '../../support/patience.ts';
import { FakeSlack } from './fake-slack.ts';
import { slashCommand } from './payloads.ts';
import { SlackSender } from './signing.ts';
import { testWalkthroughs } from './walkthroughs.ts';

export const BOT_TOKEN = 'xoxb-1111-2222-testtokenvalue';
export const SIGNING_SECRET = 'test-signing-secret-8f742231b10e';
export const PLAYBOOKS_DIR = fileURLToPath(new URL('../fixtures/playbooks', import.meta.url));

/** Log lines captured as parsed JSON, plus the raw text (to search for secrets). */
export class LogSink extends Writable {
  raw = '';
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void): void {
    this.raw += chunk.toString('utf8');
    done();
  }
  get lines(): Record<string, unknown>[] {
    return this.raw
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  }
}

export interface Harness {
  fake: FakeSlack;
  app: App;
  sender: SlackSender;
  url: string;
  logs: LogSink;
  deps: SlackDeps;
  stop(): Promise<void>;
}

export interface HarnessOptions {
  settings?: Partial<SlackSettings>;
  dedupe?: EventDedupe;
  fake?: FakeSlack;
  extend?: (deps: SlackDeps) => SlackDeps;
  walkthroughs?: WalkthroughService;
  /** Socket Mode instead of HTTP: the app token, and a free port for /healthz. */
  socketMode?: { appToken: string; port: number };
  oncallUsers?: string[];
  oncallGroup?: string;
  /** Outcomes kept (and "Did this fix it?" asked) only when given. */
  outcomes?: OutcomeStore;
  /** The playbooks to serve; the test playbooks when not given. */
  playbooks?: Playbook[];
  /** GET /metrics on the app's port, behind this bearer token (MEMDOCTOR_METRICS_TOKEN). */
  metricsToken?: string;
}

/**
 * The test playbooks, with the test procedure attached. It is attached here rather than loaded
 * from procedure.yaml because its paste step uses a test parser that the loader's lint does not know.
 */
export function testPlaybooks(): Playbook[] {
  const procedure = (id: string): unknown =>
    parseYaml(readFileSync(new URL(`../fixtures/procedures/${id}.yaml`, import.meta.url), 'utf8'));
  return loadPlaybooks(PLAYBOOKS_DIR).map((p) => ({ ...p, procedure: procedure(p.id) }));
}

/** The real Bolt app on a random port, talking to a fake Slack on another one. */
export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const fake = options.fake ?? new FakeSlack(BOT_TOKEN);
  if (!options.fake) await fake.start();
  const logs = new LogSink();
  const playbooks = options.playbooks ?? testPlaybooks();
  const log = createLogger('debug', logs);
  const base: SlackDeps = {
    settings: {
      botToken: BOT_TOKEN,
      maxUploadBytes: 1024 * 1024,
      maxExpandedBytes: 8 * 1024 * 1024,
      fileHosts: [new URL(fake.base).host],
      // The fake Slack serves files over plain http on 127.0.0.1.
      allowHttpLoopback: true,
      ...options.settings,
    },
    playbooks,
    dedupe: options.dedupe ?? new MemoryEventDedupe(),
    walkthroughs: options.walkthroughs ?? testWalkthroughs(),
    oncall: new OncallPolicy(options.oncallUsers ?? [], options.oncallGroup),
    log,
    health: async () => ({ ok: true, store: 'memory', playbooks: 2 }),
    ...(options.outcomes ? { outcomes: options.outcomes } : {}),
  };
  const deps = options.extend ? options.extend(base) : base;
  const socket = options.socketMode;
  const app = createSlackApp(deps, {
    botToken: BOT_TOKEN,
    signingSecret: SIGNING_SECRET,
    port: socket?.port ?? 0,
    slackApiUrl: fake.apiUrl,
    clientOptions: { retryConfig: { retries: 0 }, rejectRateLimitedCalls: true },
    ...(socket ? { appToken: socket.appToken } : {}),
    ...(options.metricsToken ? { metricsToken: options.metricsToken } : {}),
  });
  const server = (await app.start(socket?.port ?? 0)) as { address?(): AddressInfo };
  const url = `http://127.0.0.1:${socket?.port ?? server.address?.().port}`;
  // Bolt checks the token with auth.test in the background; let that finish before the test acts.
  await waitFor(() => fake.callsTo('auth.test').length > 0);
  return {
    fake,
    app,
    url,
    logs,
    deps,
    sender: new SlackSender(`${url}/slack/events`, SIGNING_SECRET),
    async stop() {
      await app.stop();
      if (!options.fake) await fake.stop();
    },
  };
}

/** Polls until `check` returns a value (the listeners work after the ack), failing after `ms`. */
export async function waitFor<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  ms = PATIENCE_MS,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error('waitFor: condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A port nothing listens on right now (for servers whose port cannot be read back). */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  return port;
}

/**
 * One harness per test (what each listener test needs): started before each, stopped after, and the
 * fake Slack must have refused no call. Returns a getter for the current one.
 */
export function harnessPerTest(options: HarnessOptions | (() => HarnessOptions) = {}): () => Harness {
  let current: Harness | undefined;
  beforeEach(async () => {
    // A function gives each test fresh state (an outcome store of its own, say).
    current = await startHarness(typeof options === 'function' ? options() : options);
  });
  afterEach(async () => {
    const h = current;
    current = undefined;
    await h?.stop();
    expect(h?.fake.rejections).toEqual([]);
  });
  return () => {
    if (!current) throw new Error('harnessPerTest: no harness outside a test');
    return current;
  };
}

/** Posts `/memdoctor <text>` as `user` in `channel` and resolves to the bot's first top-level message there. */
export async function diagnoseInChannel(h: Harness, text: string, user: string, channel: string) {
  await h.sender.command(slashCommand(text, { user, channel, responseUrl: h.fake.responseUrl }));
  return waitFor(() => h.fake.messages.find((m) => m.channel === channel && !m.thread_ts));
}
