import { afterEach, describe, expect, it } from 'vitest';
import type { ConnectorsConfig } from '../../../../src/connectors/config.ts';
import { loadPlaybooks, PLAYBOOKS_DIR } from '../../../../src/playbooks/load.ts';
import { GLUE_JOB, GLUE_RUN } from '../../../connectors/fakes/aws-systems.ts';
import { glueTargetFor, useGlueFake } from '../../../connectors/glue-support.ts';
import { type Harness, startHarness, waitFor } from '../../support/harness.ts';
import { slashCommand } from '../../support/payloads.ts';

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
  h = await startHarness({ extend: (base) => ({ ...base, playbooks: PLAYBOOKS, connectors }) });
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
