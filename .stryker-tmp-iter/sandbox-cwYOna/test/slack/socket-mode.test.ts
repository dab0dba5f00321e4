// @ts-nocheck
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeSlack } from './support/fake-slack.ts';
import { FakeSocketMode } from './support/fake-socket.ts';
import { BOT_TOKEN, freePort, type Harness, startHarness, waitFor } from './support/harness.ts';
import { slashCommand } from './support/payloads.ts';

const APP_TOKEN = 'xapp-1-A1-1234-socketmodetoken';

describe('Socket Mode (SLACK_APP_TOKEN set)', () => {
  const fake = new FakeSlack(BOT_TOKEN);
  const socket = new FakeSocketMode();
  let h: Harness;

  beforeAll(async () => {
    await fake.start();
    await socket.start();
    fake.socketMode = { appToken: APP_TOKEN, url: socket.url };
    h = await startHarness({ fake, socketMode: { appToken: APP_TOKEN, port: await freePort() } });
  });

  afterAll(async () => {
    await h.stop();
    await socket.stop();
    await fake.stop();
  });

  it('connects with the app token through SLACK_API_URL and serves /healthz on PORT', async () => {
    expect(fake.callsTo('apps.connections.open')).toHaveLength(1);
    expect(socket.connected).toBe(true);
    expect((await fetch(`${h.url}/healthz`)).status).toBe(200);
  });

  it('acknowledges a slash command envelope and then answers through the Web API', async () => {
    const payload = slashCommand('java.lang.OutOfMemoryError: Java heap space', {
      user: 'U1',
      channel: 'CSOCKET',
      responseUrl: fake.responseUrl,
    });
    socket.send({ envelope_id: 'env-1', type: 'slash_commands', payload, accepts_response_payload: true });
    await waitFor(() => socket.acks.find((a) => a.envelope_id === 'env-1'));
    const post = await waitFor(() => fake.callsTo('chat.postMessage')[0]);
    expect(post.args.channel).toBe('CSOCKET');
    expect(post.args.text).toContain('Test executor heap exhausted');
    expect(fake.rejections).toEqual([]);
    expect(h.logs.raw).not.toContain(APP_TOKEN);
  });
});
