import { afterEach, describe, expect, it } from 'vitest';
import type { ConnectorsConfig } from '../../../../src/connectors/config.ts';
import { loadPlaybooks, PLAYBOOKS_DIR } from '../../../../src/playbooks/load.ts';
import { FETCH_ID_BLOCK_PREFIX, FETCH_ID_INPUT, VIEW } from '../../../../src/slack/ids.ts';
import { GLUE_JOB, GLUE_RUN } from '../../../connectors/fakes/aws-systems.ts';
import { glueTargetFor, useGlueFake } from '../../../connectors/glue-support.ts';
import { showAnswersIn } from '../../support/access.ts';
import { click, threadReplies } from '../../support/clicks.ts';
import { type Harness, startHarness, waitFor } from '../../support/harness.ts';
import { slashCommand, viewSubmission } from '../../support/payloads.ts';

const USER = 'UALICE01';
const CHANNEL = 'CCHECK02';
const PLAYBOOKS = loadPlaybooks(PLAYBOOKS_DIR);

const aws = useGlueFake();
let h: Harness;
afterEach(async () => {
  await h.stop();
  expect(h.fake.rejections).toEqual([]);
});

async function send(text: string, connectors: ConnectorsConfig) {
  h = await startHarness({
    extend: (base) => ({ ...base, playbooks: PLAYBOOKS, connectors: showAnswersIn(connectors, CHANNEL) }),
  });
  await h.sender.command(
    slashCommand(text, { user: USER, channel: CHANNEL, responseUrl: h.fake.responseUrl }),
  );
}

describe('/memdoctor check glue', () => {
  it('takes a job name with spaces, fetches the run, its heap and its error log, and answers in the channel', async () => {
    await send(`check glue ${GLUE_JOB}/${GLUE_RUN}`, { glue: glueTargetFor(aws.url) });
    const posted = await waitFor(() => h.fake.messages.find((m) => m.channel === CHANNEL));
    expect(aws.fake.seen.map((s) => s.target)).toEqual([
      'AWSGlue.GetJobRun',
      'AWSGlue.GetJobRun',
      'GraniteServiceVersion20100801.GetMetricData',
      'Logs_20140328.GetLogEvents',
    ]);
    const text = JSON.stringify(posted.blocks);
    expect(text).toContain(`Fetched from glue: GetJobRun JobName=${GLUE_JOB} RunId=${GLUE_RUN} at`);
    expect(posted.text).toContain('AWS Glue job ran out of memory');
  });

  it('access denied everywhere is told privately with the IAM action, and nothing is posted', async () => {
    const denied = { status: 400, body: { __type: 'AccessDeniedException', Message: 'denied' } };
    for (const target of ['AWSGlue.GetJobRun', 'Logs_20140328.GetLogEvents'])
      aws.fake.override(target, denied);
    await send(`check glue ${GLUE_JOB}/${GLUE_RUN}`, { glue: glueTargetFor(aws.url) });
    const told = await waitFor(() => h.fake.responses[0]);
    expect(JSON.stringify(told)).toContain(
      'AWS Glue refused GetJobRun (AccessDeniedException: denied): the credentials need glue:GetJobRun',
    );
    expect(h.fake.messages.filter((m) => m.channel === CHANNEL)).toEqual([]);
  });
});

describe('what was typed is shown escaped (issue 35 finding 5)', () => {
  it('a job name holding <!channel> and a disguised link neither broadcasts nor links', async () => {
    const typed = '<!channel> <https://evil.example/|click here>';
    await send(`check glue ${typed}/${GLUE_RUN}`, { glue: glueTargetFor(aws.url) });
    const shown = await waitFor(
      () => h.fake.messages.find((m) => m.channel === CHANNEL) ?? h.fake.responses[0],
    );
    const everything = JSON.stringify([
      shown,
      h.fake.messages,
      h.fake.responses,
      h.fake.calls.map((c) => c.args),
    ]);
    expect(everything).toContain('&lt;!channel&gt; &lt;https://evil.example/|click here&gt;');
    expect(everything).not.toContain('<!channel>');
    expect(everything).not.toContain('<https://evil.example');
  });
});

describe('a Glue walkthrough step in Slack', () => {
  it('asks for the job name and run id it lacks, then fetches the heap metrics and answers the measurement', async () => {
    await send('walk glue-heap-oom', { glue: glueTargetFor(aws.url) });
    const root = await waitFor(() => h.fake.messages.find((m) => m.channel === CHANNEL && !m.thread_ts));
    const step = (title: string) =>
      waitFor(() => threadReplies(h, CHANNEL, root.ts).find((m) => m.text?.includes(title)));
    await click(h, await step('Where are you with this failure?'), 'First look at the failure', USER);
    await click(h, await step('Did the driver or an executor run out of heap?'), 'I cannot tell', USER);
    await click(h, await step('Peak driver heap usage'), 'Fetch from AWS Glue…', USER);
    const opened = await waitFor(() => h.fake.callsTo('views.open')[0]);
    const view = JSON.parse(String(opened.args.view)) as { private_metadata: string };
    const field = (id: string, value: string) => ({
      [`${FETCH_ID_BLOCK_PREFIX}${id}`]: { [FETCH_ID_INPUT]: { type: 'plain_text_input', value } },
    });
    await h.sender.interaction(
      viewSubmission({
        user: USER,
        callbackId: VIEW.fetchIds,
        privateMetadata: view.private_metadata,
        values: { ...field('jobName', GLUE_JOB), ...field('runId', GLUE_RUN) },
      }),
    );
    // The run's driver heap peaked at 0.98 of the heap (>= 0.8): the driver is the place to look.
    await step('Does the script pull data back to the driver?');
    expect(aws.fake.seen.map((s) => s.target)).toEqual([
      'AWSGlue.GetJobRun',
      'GraniteServiceVersion20100801.GetMetricData',
    ]);
    const record = await h.deps.walkthroughs.findByThread(
      { workspace: 'T1', conversation: CHANNEL },
      root.ts,
    );
    expect(record?.path.find((e) => e.step === 'driver-heap')?.answer).toMatchObject({
      kind: 'measurement',
      fetched: { connector: 'glue' },
    });
  });
});
