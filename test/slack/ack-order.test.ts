import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryEventDedupe } from '../../src/dedupe/event-dedupe.ts';
import { AckQueue, acknowledgeFirst } from '../../src/slack/ack-first.ts';
import { type Harness, SIGNING_SECRET as SECRET, startHarness, waitFor } from './support/harness.ts';
import { slashCommand } from './support/payloads.ts';
import { slackSignature } from './support/signing.ts';

const HEAP_OOM = 'java.lang.OutOfMemoryError: Java heap space\n';

/** A response that only records whether it was ended. */
function response(): ServerResponse & { ended: boolean } {
  const res = Object.assign(new EventEmitter(), {
    ended: false,
    end() {
      res.ended = true;
      return res;
    },
  });
  return res as unknown as ServerResponse & { ended: boolean };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('AckQueue', () => {
  it('holds work after an ack until every request read so far is answered', async () => {
    const queue = new AckQueue(60_000, 0);
    const [a, b] = [response(), response()];
    queue.track(a);
    queue.track(b);
    let resumed = false;
    void queue.settled().then(() => {
      resumed = true;
    });
    a.end();
    await turn();
    await turn();
    expect(queue.pending).toBe(1);
    expect(resumed).toBe(false);
    b.end();
    await waitFor(() => resumed);
    expect(queue.pending).toBe(0);
  });

  it('holds work while requests keep arriving, even when each was answered', async () => {
    const quiet = new AckQueue(60_000, 60_000);
    const settledAt = { quiet: false, immediate: false };
    const a = response();
    quiet.track(a);
    a.end();
    void quiet.settled().then(() => {
      settledAt.quiet = true;
    });
    const none = new AckQueue(60_000, 0);
    const b = response();
    none.track(b);
    b.end();
    void none.settled().then(() => {
      settledAt.immediate = true;
    });
    await waitFor(() => settledAt.immediate);
    expect(settledAt.quiet).toBe(false);
  });

  it('counts a closed connection as answered, and lets work go on after the deferral limit', async () => {
    const queue = new AckQueue(20, 0);
    const [closed, stuck] = [response(), response()];
    queue.track(closed);
    queue.track(stuck);
    closed.emit('close');
    closed.end();
    expect(queue.pending).toBe(1);
    await queue.settled();
    expect(queue.pending).toBe(1);
  });
});

describe('acknowledgeFirst', () => {
  it('acknowledges a slash command before anything else runs, once, and resumes the listener after', async () => {
    const acks: unknown[] = [];
    const order: string[] = [];
    const app = {
      async processEvent(event: { body: unknown; ack: (r?: unknown) => Promise<void> }) {
        order.push(`processed after ${acks.length} ack(s)`);
        await event.ack();
        order.push('listener resumed');
      },
    };
    acknowledgeFirst(app, { acks: new AckQueue() });
    await app.processEvent({
      body: { command: '/memdoctor', text: 'x' },
      ack: async (r) => {
        acks.push(r);
      },
    });
    expect(order).toEqual(['processed after 1 ack(s)', 'listener resumed']);
    expect(acks).toEqual([undefined]);
  });

  it('leaves an event or a view to acknowledge itself, with its response', async () => {
    const acks: unknown[] = [];
    const app = {
      async processEvent(event: { body: unknown; ack: (r?: unknown) => Promise<void> }) {
        expect(acks).toEqual([]);
        await event.ack({ response_action: 'errors' });
      },
    };
    acknowledgeFirst(app, {});
    await app.processEvent({
      body: { type: 'view_submission' },
      ack: async (r) => {
        acks.push(r);
      },
    });
    expect(acks).toEqual([{ response_action: 'errors' }]);
  });
});

describe('the Slack app acknowledges first', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.stop();
    h = undefined;
  });

  it('answers a slash command while its dedupe claim in the store is still pending', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const memory = new MemoryEventDedupe();
    const dedupe = {
      firstTime: async (claim: string, ttl?: number) => {
        await held;
        return memory.firstTime(claim, ttl);
      },
    };
    const harness = await startHarness({ dedupe });
    h = harness;
    const res = await harness.sender.command(
      slashCommand(HEAP_OOM, { user: 'U1', channel: 'C1', responseUrl: harness.fake.responseUrl }),
    );
    expect(res.status).toBe(200);
    expect(harness.fake.callsTo('chat.postMessage')).toHaveLength(0);
    release();
    await waitFor(() => harness.fake.callsTo('chat.postMessage')[0]);
  });
});

describe('signatures, checked before Bolt parses the body', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.stop();
    h = undefined;
  });

  async function post(harness: Harness, body: string, signature: string, timestamp: number) {
    return fetch(`${harness.url}/slack/events`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-slack-request-timestamp': String(timestamp),
        'x-slack-signature': signature,
      },
      body,
    });
  }

  it('refuses a wrong signature and a stale one with 401, and diagnoses nothing', async () => {
    const harness = await startHarness();
    h = harness;
    const body = new URLSearchParams(
      slashCommand(HEAP_OOM, { user: 'U1', channel: 'C1', responseUrl: harness.fake.responseUrl }),
    ).toString();
    const now = Math.floor(Date.now() / 1000);
    expect((await post(harness, body, slackSignature('another-secret', now, body), now)).status).toBe(401);
    const stale = now - 6 * 60;
    expect((await post(harness, body, slackSignature(SECRET, stale, body), stale)).status).toBe(401);
    expect((await post(harness, body, 'v0=', now)).status).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(harness.fake.callsTo('chat.postMessage')).toHaveLength(0);
    expect(harness.logs.raw).toContain('signature mismatch');
    expect((await post(harness, body, slackSignature(SECRET, now, body), now)).status).toBe(200);
    await waitFor(() => harness.fake.callsTo('chat.postMessage')[0]);
  });

  it("answers Slack's unsigned ssl_check with 200 and passes nothing to the app", async () => {
    const harness = await startHarness();
    h = harness;
    const smuggled = new URLSearchParams({
      ssl_check: '1',
      ...slashCommand(HEAP_OOM, { user: 'U1', channel: 'C1', responseUrl: harness.fake.responseUrl }),
    }).toString();
    const res = await post(harness, smuggled, 'v0=0', Math.floor(Date.now() / 1000));
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(harness.fake.callsTo('chat.postMessage')).toHaveLength(0);
    expect(harness.fake.responses).toHaveLength(0);
  });
});
