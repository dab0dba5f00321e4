import { WebClient } from '@slack/web-api';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConnectorsConfig } from '../../src/connectors/config.ts';
import { MemoryIncidentQueue } from '../../src/incidents/memory.ts';
import { alertHandler } from '../../src/slack/alert-handler.ts';
import { FLINK_TM_POD, kubeFake, writeKubeconfig } from '../connectors/fakes/kube-fake.ts';
import type { RestFake } from '../connectors/fakes/rest-fake.ts';
import { routedAlert } from '../incidents/alerts.ts';
import { NODEMANAGER, withCases } from './support/cases.ts';
import { buttonsOf, click, threadReplies } from './support/clicks.ts';
import { BOT_TOKEN, harnessPerTest, waitFor } from './support/harness.ts';
import { eventEnvelope, fileShareEvent, TEAM } from './support/payloads.ts';

const CHANNEL = 'C0ALERTS';
let kube: RestFake | undefined;

const harness = harnessPerTest(() => withCases());

/** An OOMKilled TaskManager pod's alert, processed into its thread as the worker does. */
async function postAlertThread(h: ReturnType<typeof harness>) {
  kube = kubeFake();
  const kubeUrl = await kube.start();
  // The worker's dependencies: the app's, with a connector the route's channel may see answers of.
  const deps = {
    ...h.deps,
    connectors: parseConnectorsConfig(
      `kubernetes: { kubeconfig: ${writeKubeconfig(kubeUrl)} }\naccess:\n  kubernetes: { showIn: [${CHANNEL}] }\n`,
      'connectors.yaml',
      () => undefined,
    ),
  };
  const client = new WebClient(BOT_TOKEN, { slackApiUrl: h.fake.apiUrl, retryConfig: { retries: 0 } });
  const queue = new MemoryIncidentQueue();
  const handle = alertHandler(deps, client, { incidents: queue, workspace: TEAM, owner: h.fake.botUserId });
  const alert = {
    ...routedAlert({}, CHANNEL),
    checks: [{ connector: 'kubernetes', id: `${FLINK_TM_POD.namespace}/${FLINK_TM_POD.name}` }],
  };
  await queue.accept(alert);
  const [delivery] = await queue.take('t', 1);
  if (!delivery) throw new Error('nothing queued');
  await handle(delivery);
  const root = h.fake.messages.find((m) => m.channel === CHANNEL && !m.thread_ts);
  const answer = h.fake.messages.find((m) => m.thread_ts === root?.ts);
  if (!root || !answer) throw new Error('no thread posted');
  return { root, answer };
}

describe('an alert’s thread is a case', () => {
  afterEach(async () => {
    expect(kube?.violations).toEqual([]);
    await kube?.stop();
    kube = undefined;
  });

  it('a file posted in the thread later is read with the fetched evidence and the diagnosis is edited', async () => {
    const h = harness();
    const { root, answer } = await postAlertThread(h);
    const file = h.fake.addFile('F990', 'nodemanager.log', NODEMANAGER);
    await h.sender.event(
      eventEnvelope(
        fileShareEvent({
          user: 'UALICE01',
          channel: CHANNEL,
          threadTs: root.ts,
          parentUserId: h.fake.botUserId,
          files: [file],
        }),
      ),
    );
    const update = await waitFor(() => h.fake.callsTo('chat.update').find((c) => c.args.ts === answer.ts));
    expect(update.args.blocks).toContain('nodemanager.log');
    const kept = await h.deps.cases?.store.get({ workspace: TEAM, conversation: CHANNEL, thread: root.ts });
    expect(kept?.inputs.map((i) => i.name)).toContain('nodemanager.log');
    expect(kept?.inputs.length).toBeGreaterThan(1);
  });

  it('its walkthrough, owned by the bot, may be answered by anyone in the channel, with no on-call set', async () => {
    const h = harness();
    const { root } = await postAlertThread(h);
    const step = threadReplies(h, CHANNEL, root.ts).find(
      (m) => buttonsOf(m).length > 0 && m.text?.startsWith('Step 1'),
    );
    if (!step) throw new Error('no first step posted');
    const [first] = buttonsOf(step);
    if (!first) throw new Error('no button');
    await click(h, step, first.button.text.text, 'UALICE01');
    await waitFor(() =>
      h.fake.callsTo('chat.update').find((c) => String(c.args.text).startsWith('Answered by UALICE01')),
    );
    expect(h.fake.callsTo('chat.postEphemeral').map((c) => String(c.args.text))).not.toContainEqual(
      expect.stringMatching(/^Only /),
    );
  });
});
