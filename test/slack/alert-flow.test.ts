import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseConnectorsConfig } from '../../src/connectors/config.ts';
import type { RoutedAlert } from '../../src/incidents/types.ts';
import { replyMarker, rootMarker, slackIncidentThread } from '../../src/slack/alert-thread.ts';
import { gateOf } from '../../src/slack/fetch-gate.ts';
import { diagnoseAlert, processAlert } from '../../src/usecases/alerts.ts';
import { FLINK_TM_POD, kubeFake, writeKubeconfig } from '../connectors/fakes/kube-fake.ts';
import type { RestFake } from '../connectors/fakes/rest-fake.ts';
import { routedAlert } from '../incidents/alerts.ts';
import { alertRig, textOf, the } from './support/alert-rig.ts';
import type { FakeSlack, StoredMessage } from './support/fake-slack.ts';

const CHANNEL = 'C0ALERTS';
const POD = `${FLINK_TM_POD.namespace}/${FLINK_TM_POD.name}`;
/** The field the Kubernetes connector cites from the pod it fetched (test/cli/check.test.ts). */
const OOM_FIELD = 'containerStatuses[flink-main-container].state.terminated.reason = OOMKilled';

function podAlert(overrides: Parameters<typeof routedAlert>[0] = {}): RoutedAlert {
  const alert = routedAlert({ title: 'KubePodOOMKilled <flink> & taskmanager', ...overrides }, CHANNEL);
  return { ...alert, checks: [{ connector: 'kubernetes', id: POD }] };
}

describe('an alert, end to end: Redis intake, worker, fetched evidence, the fake Slack', () => {
  let kube: RestFake;
  let rig: Awaited<ReturnType<typeof alertRig>>;
  let roots: () => StoredMessage[];
  let replies: (root: StoredMessage) => StoredMessage[];
  let fake: FakeSlack;

  beforeEach(async () => {
    kube = kubeFake();
    const kubeconfig = writeKubeconfig(await kube.start());
    rig = await alertRig(
      parseConnectorsConfig(
        `kubernetes: { kubeconfig: ${kubeconfig} }\naccess:\n  kubernetes: { showIn: [${CHANNEL}] }\n`,
        'connectors.yaml',
        () => undefined,
      ),
    );
    ({ roots, replies, fake } = rig);
  });

  afterEach(async () => {
    expect(rig.fake.rejections).toEqual([]);
    expect(kube.violations).toEqual([]);
    await rig.stop();
    await kube.stop();
  });

  const replica = (consumer: string, leaseMs?: number) => rig.replica(consumer, leaseMs);
  const drain = (r: Awaited<ReturnType<typeof replica>>) => rig.drain(r);

  it('opens one thread: the escaped title and source, a diagnosis citing the fetched pod, the walkthrough’s first step', async () => {
    const r = await replica('r1');
    expect(await r.queue.accept(podAlert())).toBe('queued');
    await drain(r);
    const [root, ...others] = roots();
    expect(others).toEqual([]);
    expect(textOf(the(root))).toContain('KubePodOOMKilled &lt;flink&gt; &amp; taskmanager');
    expect(textOf(the(root))).toContain('From Alertmanager');
    expect(root?.blocks[0]?.block_id).toBe(rootMarker(podAlert().event.incidentKey));
    const [answer, step] = replies(the(root));
    expect(textOf(the(answer))).toContain(OOM_FIELD);
    expect(textOf(the(answer))).toContain(`Fetched from kubernetes for ${POD}`);
    expect(step).toBeDefined();
    const walkthrough = await rig.deps.walkthroughs.findByThread(
      { workspace: 'T1', conversation: CHANNEL },
      the(root).ts,
    );
    expect(walkthrough?.playbook.id).toBe('flink-container-oom-killed');
    // The incident is a case: the fetched answers, kept with the diagnosis message as its answer.
    const kept = await rig.deps.cases?.store.get({
      workspace: 'T1',
      conversation: CHANNEL,
      thread: the(root).ts,
    });
    expect(kept?.answerTs).toBe(answer?.ts);
    expect(kept?.inputs.length).toBeGreaterThan(0);
  });

  it('edits the root when the incident resolves, adds to the thread when it fires again, ignores repeats', async () => {
    const r = await replica('r1');
    await r.queue.accept(podAlert({ deliveryId: 'd1' }));
    await drain(r);
    await r.queue.accept(podAlert({ deliveryId: 'd2' })); // Alertmanager's repeat_interval
    await r.queue.accept(
      podAlert({ deliveryId: 'd3', status: 'resolved', endsAt: '2026-12-07T03:20:00.000Z' }),
    );
    await drain(r);
    const [root] = roots();
    expect(textOf(the(root))).toContain('Resolved at 2026-12-07T03:20:00.000Z');
    expect(fake.callsTo('chat.update').map((c) => c.args.ts)).toEqual([root?.ts]);
    const before = replies(the(root)).length;
    await r.queue.accept(podAlert({ deliveryId: 'd4', startsAt: '2026-12-07T05:00:00.000Z' }));
    await drain(r);
    expect(roots()).toHaveLength(1);
    expect(textOf(the(root))).toContain('Firing since 2026-12-07T05:00:00.000Z');
    expect(textOf(the(root))).toContain('fired again 1×');
    const added = replies(the(root)).slice(before);
    expect(added.map(textOf)).toEqual([expect.stringContaining('Fired again at 2026-12-07T05:00:00.000Z')]);
  });

  it('a resolution delivered before its firing: one thread, left resolved, diagnosed once', async () => {
    const r = await replica('r1');
    await r.queue.accept(
      podAlert({ deliveryId: 'late-r', status: 'resolved', endsAt: '2026-12-07T03:20:00.000Z' }),
    );
    await r.queue.accept(podAlert({ deliveryId: 'late-f' }));
    await drain(r);
    const [root, ...others] = roots();
    expect(others).toEqual([]);
    expect(textOf(the(root))).toContain('Resolved');
    expect(replies(the(root)).filter((m) => textOf(m).includes(OOM_FIELD))).toHaveLength(1);
    expect(fake.callsTo('chat.update')).toEqual([]);
  });

  it('the same delivery three times is queued once and posts one thread', async () => {
    const r = await replica('r1');
    const outcomes = await Promise.all([1, 2, 3].map(() => r.queue.accept(podAlert())));
    expect(outcomes.sort()).toEqual(['duplicate', 'duplicate', 'queued']);
    await drain(r);
    expect(roots()).toHaveLength(1);
  });

  it('a replica killed between receipt and post: another finishes once its lease runs out, one thread', async () => {
    const dies = await replica('dies', 300);
    const lives = await replica('lives', 300);
    await dies.queue.accept(podAlert());
    expect(await dies.queue.take('dies', 10)).toHaveLength(1); // taken, then the replica is gone
    await drain(lives);
    expect(roots()).toHaveLength(1);
    expect(replies(the(roots()[0])).some((m) => textOf(m).includes(OOM_FIELD))).toBe(true);
  });

  it('a crash between posting the root and recording it: the retry finds that root, no second thread', async () => {
    const r = await replica('r1');
    const real = slackIncidentThread(rig.deps, rig.client, { workspace: 'T1', owner: 'UBOT0001' });
    const crashing = {
      ...real,
      postRoot: async (...args: Parameters<typeof real.postRoot>) => {
        await real.postRoot(...args);
        throw new Error('the process died here');
      },
    };
    const context = contextOn(r);
    await expect(processAlert(context, crashing, podAlert(), 1)).rejects.toThrow('the process died here');
    expect(roots()).toHaveLength(1);
    await processAlert(context, real, podAlert(), 2);
    expect(roots()).toHaveLength(1);
    expect((await r.queue.incident(podAlert().event.incidentKey))?.rootTs).toBe(roots()[0]?.ts);
    expect(fake.callsTo('conversations.history')).toHaveLength(1);
  });

  /** The real thread, but the process dies right after `method` has posted (before the state records it). */
  function crashingAfter(method: 'postRoot' | 'postAnswer' | 'postRefired' | 'startWalkthrough') {
    const real = slackIncidentThread(rig.deps, rig.client, { workspace: 'T1', owner: 'UBOT0001' });
    const posted = real[method] as (...args: unknown[]) => Promise<unknown>;
    const crashing = {
      ...real,
      [method]: async (...args: unknown[]) => {
        await posted(...args);
        throw new Error('the process died here');
      },
    };
    return { real, crashing };
  }

  /** A context on the fake Slack's clock (its ts are 1700000000.n), diagnosing nothing. */
  function contextOn(r: Awaited<ReturnType<typeof replica>>) {
    return {
      incidents: r.queue,
      workspace: 'T1',
      diagnose: async () => ({ found: [], missing: [] }),
      now: () => 1_700_000_000_000,
    };
  }

  it('a crash after posting the root, then 250 other messages in the channel: the retry pages back to that root', async () => {
    const r = await replica('r1');
    const { real, crashing } = crashingAfter('postRoot');
    await expect(processAlert(contextOn(r), crashing, podAlert(), 1)).rejects.toThrow(
      'the process died here',
    );
    for (let i = 0; i < 250; i++) await rig.client.chat.postMessage({ channel: CHANNEL, text: `other ${i}` });
    await processAlert(contextOn(r), real, podAlert(), 2);
    const ours = roots().filter((m) => m.blocks[0]?.block_id === rootMarker(podAlert().event.incidentKey));
    expect(ours).toHaveLength(1);
    expect((await r.queue.incident(podAlert().event.incidentKey))?.rootTs).toBe(ours[0]?.ts);
    expect(fake.callsTo('conversations.history')).toHaveLength(2);
  });

  it('a crash after posting the diagnosis: the retry finds it in the thread and posts it once', async () => {
    const r = await replica('r1');
    const { real, crashing } = crashingAfter('postAnswer');
    await expect(processAlert(contextOn(r), crashing, podAlert(), 1)).rejects.toThrow(
      'the process died here',
    );
    await processAlert(contextOn(r), real, podAlert(), 2);
    const answers = replies(the(roots()[0])).filter(
      (m) => m.blocks[0]?.block_id === replyMarker(podAlert().event.incidentKey, 'answer'),
    );
    expect(answers).toHaveLength(1);
    expect((await r.queue.incident(podAlert().event.incidentKey))?.answerTs).toBe(answers[0]?.ts);
    expect(fake.callsTo('conversations.replies')).toHaveLength(1);
  });

  /** As contextOn, but diagnosing from the fetched pod as the app does, so a walkthrough starts. */
  function fetchingContextOn(r: Awaited<ReturnType<typeof replica>>) {
    const using = {
      connectors: rig.deps.connectors ?? {},
      gate: gateOf(rig.deps),
      playbooks: rig.deps.playbooks,
    };
    return {
      ...contextOn(r),
      diagnose: (alert: RoutedAlert, attempt: number) =>
        diagnoseAlert(alert, { ...using, workspace: 'T1' }, attempt),
    };
  }

  /** The step messages of the incident's thread, and the walkthrough linked to it. */
  async function stepsOf(root: StoredMessage) {
    const where = { workspace: 'T1', conversation: CHANNEL };
    const walkthrough = await rig.deps.walkthroughs.findByThread(where, root.ts);
    const steps = replies(root).filter((m) =>
      String(m.blocks[0]?.block_id ?? '').startsWith('memdoctor.step:'),
    );
    return { walkthrough, steps };
  }

  it("a crash after posting the walkthrough's first step: the retry finds it, no second walkthrough or step", async () => {
    const r = await replica('r1');
    const { real, crashing } = crashingAfter('startWalkthrough');
    await expect(processAlert(fetchingContextOn(r), crashing, podAlert(), 1)).rejects.toThrow(
      'the process died here',
    );
    await processAlert(fetchingContextOn(r), real, podAlert(), 2);
    const { walkthrough, steps } = await stepsOf(the(roots()[0]));
    expect(steps).toHaveLength(1);
    expect(steps[0]?.blocks[0]?.block_id).toContain(`memdoctor.step:${walkthrough?.id}:`);
    expect(replies(the(roots()[0]))).toHaveLength(2);
    expect((await r.queue.incident(podAlert().event.incidentKey))?.stepPosted).toBe(true);
  });

  it('a crash after storing the walkthrough, before its step was posted: the retry posts that step once', async () => {
    const r = await replica('r1');
    const { real } = crashingAfter('startWalkthrough');
    let stored = '';
    const storedOnly = {
      ...real,
      startWalkthrough: async (alert: RoutedAlert, rootTs: string, playbook: string) => {
        const found = rig.deps.playbooks.find((p) => p.id === playbook);
        if (!found) throw new Error(`no playbook ${playbook}`);
        const where = { workspace: 'T1', conversation: alert.channel };
        stored = (
          await rig.deps.walkthroughs.start({ playbook: found, where, owner: 'UBOT0001', thread: rootTs })
        ).id;
        throw new Error('the process died here');
      },
    };
    await expect(processAlert(fetchingContextOn(r), storedOnly, podAlert(), 1)).rejects.toThrow(
      'the process died here',
    );
    expect((await stepsOf(the(roots()[0]))).steps).toHaveLength(0);
    await processAlert(fetchingContextOn(r), real, podAlert(), 2);
    const { walkthrough, steps } = await stepsOf(the(roots()[0]));
    expect(walkthrough?.id).toBe(stored);
    expect(steps).toHaveLength(1);
    expect(steps[0]?.blocks[0]?.block_id).toContain(`memdoctor.step:${stored}:`);
  });

  it('a crash after posting "fired again": the retry finds it in the thread and posts it once', async () => {
    const r = await replica('r1');
    const { real, crashing } = crashingAfter('postRefired');
    await processAlert(contextOn(r), real, podAlert({ deliveryId: 'd1' }), 1);
    const resolved = podAlert({ deliveryId: 'd2', status: 'resolved', endsAt: '2026-12-07T03:20:00.000Z' });
    await processAlert(contextOn(r), real, resolved, 1);
    const again = podAlert({ deliveryId: 'd3', startsAt: '2026-12-07T05:00:00.000Z' });
    await expect(processAlert(contextOn(r), crashing, again, 1)).rejects.toThrow('the process died here');
    await processAlert(contextOn(r), real, again, 2);
    const fired = replies(the(roots()[0])).filter((m) => textOf(m).includes('Fired again'));
    expect(fired).toHaveLength(1);
    expect(fired[0]?.blocks[0]?.block_id).toBe(replyMarker(podAlert().event.incidentKey, 'refire-1'));
    expect(textOf(the(roots()[0]))).toContain('fired again 1×');
  });

  it('Slack answers 429: the delivery waits at least Retry-After, then posts one thread', async () => {
    const r = await replica('r1');
    fake.rateLimitNext('chat.postMessage', 2);
    await r.queue.accept(podAlert());
    await drain(r);
    expect(r.delays).toHaveLength(1);
    expect(r.delays[0]).toBeGreaterThanOrEqual(2000);
    expect(roots()).toHaveLength(1);
  });
});
