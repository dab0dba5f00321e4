import { afterEach, describe, expect, it } from 'vitest';
import type { ConnectorsConfig } from '../../../../src/connectors/config.ts';
import { loadPlaybooks, PLAYBOOKS_DIR } from '../../../../src/playbooks/load.ts';
import { kubeFake, kubeTargetFor, MEMHOG } from '../../../connectors/fakes/kube-fake.ts';
import { FLINK_JOB, flinkFake } from '../../../connectors/fakes/systems.ts';
import { targetFor, useFake } from '../../../connectors/support.ts';
import { showAnswersIn } from '../../support/access.ts';
import { type Harness, startHarness, waitFor } from '../../support/harness.ts';
import { slashCommand } from '../../support/payloads.ts';

const USER = 'UALICE01';
const CHANNEL = 'CCHECK01';
const PLAYBOOKS = loadPlaybooks(PLAYBOOKS_DIR);

// Registered first, so its stop runs after the app's (vitest runs after-hooks in reverse).
const flink = useFake(flinkFake);
let h: Harness;
afterEach(async () => {
  await h.stop();
  expect(h.fake.rejections).toEqual([]);
});

async function send(text: string, connectors?: ConnectorsConfig) {
  h = await startHarness({
    extend: (base) => ({
      ...base,
      playbooks: PLAYBOOKS,
      ...(connectors ? { connectors: showAnswersIn(connectors, CHANNEL) } : {}),
    }),
  });
  await h.sender.command(
    slashCommand(text, { user: USER, channel: CHANNEL, responseUrl: h.fake.responseUrl }),
  );
}

describe('/memdoctor check', () => {
  it('check flink <job-id> fetches from the Flink fake and answers in the channel', async () => {
    await send(`check flink ${FLINK_JOB}`, { flink: targetFor(flink.url) });
    const posted = await waitFor(() => h.fake.messages.find((m) => m.channel === CHANNEL));
    expect(flink.fake.seen.map((s) => s.path)).toEqual([
      '/overview',
      '/taskmanagers',
      `/jobs/${FLINK_JOB}`,
      `/jobs/${FLINK_JOB}/exceptions`,
    ]);
    expect(JSON.stringify(posted.blocks)).toContain(`Fetched from flink: GET /overview at`);
    expect(JSON.stringify(posted.blocks)).toContain(`GET /jobs/${FLINK_JOB}/exceptions at`);
    // The job's OutOfMemoryError, fetched from its exception history, is what the answer cites.
    expect(JSON.stringify(posted.blocks)).toContain('java.lang.OutOfMemoryError: Java heap space');
  });

  it('check k8s <namespace>/<pod> reads the pod through the Kubernetes client and posts the diagnosis', async () => {
    const kube = kubeFake();
    const target = kubeTargetFor(await kube.start());
    try {
      await send(`check k8s ${MEMHOG.namespace}/${MEMHOG.name}`, { kubernetes: target });
      const posted = await waitFor(() => h.fake.messages.find((m) => m.channel === CHANNEL));
      const blocks = JSON.stringify(posted.blocks);
      expect(blocks).toContain(
        `Fetched from kubernetes: GET /api/v1/namespaces/${MEMHOG.namespace}/pods/${MEMHOG.name} at`,
      );
      expect(blocks).toContain('/log?container=memhog');
      expect(kube.violations).toEqual([]);
    } finally {
      await kube.stop();
    }
  });

  it('a 503 tells the person the connector message, privately, and posts nothing', async () => {
    flink.fake.override('overview', { status: 503 });
    flink.fake.override('taskmanagers', { status: 503 });
    await send('check flink', { flink: targetFor(flink.url) });
    const told = await waitFor(() => h.fake.responses[0]);
    expect(JSON.stringify(told)).toContain('Flink JobManager did not answer (HTTP 503 for GET /overview)');
    expect(h.fake.messages.filter((m) => m.channel === CHANNEL)).toEqual([]);
  });

  it('unconfigured, it says how to configure connectors and fetches nothing', async () => {
    await send('check flink');
    const told = await waitFor(() => h.fake.responses[0]);
    expect(JSON.stringify(told)).toContain('No connectors are configured: set MEMDOCTOR_CONNECTORS');
    expect(flink.fake.seen).toEqual([]);
  });
});
