import { once } from 'node:events';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Logger as BoltLogger, LogLevel } from '@slack/bolt';
import { afterEach, describe, expect, it } from 'vitest';
import { AckQueue } from '../../src/slack/ack-first.ts';
import { SlackMetrics } from '../../src/slack/metrics.ts';
import { createHttpReceiver, isSlashCommandForm } from '../../src/slack/receiver.ts';
import { SIGNING_SECRET, waitFor } from './support/harness.ts';
import { slashCommand } from './support/payloads.ts';
import { SlackSender } from './support/signing.ts';

interface ReceivedEvent {
  body: Record<string, unknown>;
  ack: (response?: unknown) => Promise<void>;
}

/** Bolt's logger interface, keeping every warning. */
function recordingLogger(): BoltLogger & { warnings: string[] } {
  const warnings: string[] = [];
  const ignore = () => undefined;
  return {
    warnings,
    debug: ignore,
    info: ignore,
    error: ignore,
    warn: (...msg: unknown[]) => void warnings.push(msg.join(' ')),
    setLevel: ignore,
    getLevel: () => LogLevel.INFO,
    setName: ignore,
  };
}

/** A response the queue can count, standing for another request still being read. */
function unansweredResponse(): ServerResponse {
  const res = { end: () => res, once: () => res };
  return res as unknown as ServerResponse;
}

let server: Server | undefined;
afterEach(async () => {
  server?.close();
  server = undefined;
});

async function serve(options: {
  processEvent: (event: ReceivedEvent) => Promise<void>;
  acks?: AckQueue;
  metrics?: SlackMetrics;
}) {
  const logger = recordingLogger();
  const receiver = createHttpReceiver({
    signingSecret: SIGNING_SECRET,
    port: 0,
    customRoutes: [],
    logger,
    ...(options.acks ? { acks: options.acks } : {}),
    ...(options.metrics ? { metrics: options.metrics } : {}),
  });
  receiver.init({ processEvent: options.processEvent } as unknown as Parameters<typeof receiver.init>[0]);
  server = createServer(receiver.requestListener).listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return { logger, sender: new SlackSender(`http://127.0.0.1:${port}/slack/events`, SIGNING_SECRET) };
}

const COMMAND = slashCommand('java.lang.OutOfMemoryError: Java heap space', {
  user: 'U1',
  channel: 'C1',
  responseUrl: 'http://127.0.0.1:9/response',
});

describe('the receiver acknowledges a signed slash command itself', () => {
  it('answers 200 with no body while the app has not acknowledged it, and still hands it to the app', async () => {
    const events: ReceivedEvent[] = [];
    // The app never acks: Bolt alone would answer 404 after its 3 s timeout.
    const { sender } = await serve({
      processEvent: (event) => {
        events.push(event);
        return new Promise(() => undefined);
      },
    });
    const res = await sender.command(COMMAND);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
    const event = await waitFor(() => events[0]);
    expect(event.body).toMatchObject({ command: '/memdoctor', text: COMMAND.text, user_id: 'U1' });
  });

  it('hands the command to the app only once the other requests read meanwhile are answered', async () => {
    const acks = new AckQueue(60_000, 0);
    const other = unansweredResponse();
    acks.track(other);
    const events: ReceivedEvent[] = [];
    const { sender } = await serve({
      acks,
      processEvent: async (event) => {
        events.push(event);
        await event.ack();
      },
    });
    expect((await sender.command(COMMAND)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(events).toHaveLength(0);
    other.end();
    await waitFor(() => events[0]);
    expect(acks.pending).toBe(0);
  });

  it('warns, without a second answer, when the app would have answered the command otherwise', async () => {
    const { sender, logger } = await serve({
      processEvent: async () => {
        throw new Error('listener exploded');
      },
    });
    const res = await sender.command(COMMAND);
    expect(res.status).toBe(200);
    await waitFor(() => logger.warnings.find((w) => w.includes('acknowledged slash command with 500')));
  });

  it("leaves interactivity to the app, whose ack carries the view's response_action", async () => {
    const { sender } = await serve({
      processEvent: async (event) => {
        await event.ack({ response_action: 'errors', errors: { paste: 'empty' } });
      },
    });
    const res = await sender.interaction({ type: 'view_submission', view: { id: 'V1' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ response_action: 'errors', errors: { paste: 'empty' } });
  });

  it('times every answered POST, refusals included', async () => {
    const metrics = new SlackMetrics();
    const { sender } = await serve({ metrics, processEvent: async (event) => event.ack() });
    await sender.command(COMMAND);
    expect((await sender.command(COMMAND, { secret: 'another-secret' })).status).toBe(401);
    const count = async () =>
      (await metrics.ackSeconds.get()).values.find((v) => v.metricName?.endsWith('_count'));
    await waitFor(async () => ((await count())?.value === 2 ? true : undefined));
  });
});

describe('isSlashCommandForm', () => {
  const form = { headers: { 'content-type': 'application/x-www-form-urlencoded' } } as never;
  const json = { headers: { 'content-type': 'application/json' } } as never;

  it('knows a command by its own field, not by text that mentions one', () => {
    expect(isSlashCommandForm(form, new URLSearchParams(COMMAND).toString())).toBe(true);
    expect(isSlashCommandForm(form, 'command=%2Fmemdoctor&text=x')).toBe(true);
    const pasted = new URLSearchParams({ payload: '{"x":"&command=/memdoctor"}' }).toString();
    expect(isSlashCommandForm(form, pasted)).toBe(false);
    expect(isSlashCommandForm(json, 'command=%2Fmemdoctor')).toBe(false);
  });
});
