import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConnectorsConfig } from '../../../../src/connectors/config.ts';
import { loadPlaybooks, PLAYBOOKS_DIR } from '../../../../src/playbooks/load.ts';
import { DF_JOB, dataflowFake, dataflowTargetFor } from '../../../connectors/fakes/dataflow-fake.ts';
import type { RestFake } from '../../../connectors/fakes/rest-fake.ts';
import { showAnswersIn } from '../../support/access.ts';
import { type Harness, startHarness, waitFor } from '../../support/harness.ts';
import { slashCommand } from '../../support/payloads.ts';

const USER = 'UALICE01';
const CHANNEL = 'CCHECK03';
const PLAYBOOKS = loadPlaybooks(PLAYBOOKS_DIR);
const DENIED = JSON.stringify({
  error: { code: 403, message: 'The caller does not have permission', status: 'PERMISSION_DENIED' },
});

let h: Harness;
let fake: RestFake;
let url: string;
beforeEach(async () => {
  fake = dataflowFake();
  url = await fake.start();
});
afterEach(async () => {
  await h.stop();
  expect(h.fake.rejections).toEqual([]);
  expect(fake.violations).toEqual([]);
  await fake.stop();
});

async function send(text: string, connectors: ConnectorsConfig) {
  h = await startHarness({
    extend: (base) => ({ ...base, playbooks: PLAYBOOKS, connectors: showAnswersIn(connectors, CHANNEL) }),
  });
  await h.sender.command(
    slashCommand(text, { user: USER, channel: CHANNEL, responseUrl: h.fake.responseUrl }),
  );
}

describe('/memdoctor check dataflow', () => {
  it("fetches the job, its error messages, metrics and workers' memory, and answers in the channel", async () => {
    await send(`check dataflow ${DF_JOB}`, { dataflow: dataflowTargetFor(url) });
    const posted = await waitFor(() => h.fake.messages.find((m) => m.channel === CHANNEL));
    expect(fake.seen.map((s) => new URL(s.path, 'http://x').pathname.split('/').pop())).toEqual([
      DF_JOB,
      'messages',
      'messages',
      'metrics',
      DF_JOB,
      ...Array(4).fill('timeSeries'),
    ]);
    const text = JSON.stringify(posted.blocks);
    expect(text).toContain(
      'Fetched from dataflow: jobs.get projects/gcpdiag-dataflow1-aaaa/locations/us-central1/jobs/',
    );
    expect(posted.text).toContain('Beam Python pipeline runs out of memory');
  });

  it("the workers' memory goes into the answer's thread as a PNG with its alt text, after the answer", async () => {
    await send(`check dataflow ${DF_JOB}`, { dataflow: dataflowTargetFor(url) });
    const posted = await waitFor(() => h.fake.messages.find((m) => m.channel === CHANNEL));
    const complete = await waitFor(() => h.fake.callsTo('files.completeUploadExternal')[0]);
    const asked = h.fake.callsTo('files.getUploadURLExternal')[0];
    expect(complete.args.channel_id).toBe(CHANNEL);
    expect(complete.args.thread_ts).toBe(posted.ts);
    const [file] = JSON.parse(complete.args.files ?? '[]') as { id: string; title: string }[];
    expect(file?.title).toBe('Dataflow worker memory (harness on wordcount-05180703-k2qd-harness-7lzw)');
    expect(asked?.args.filename).toBe('memory-samples.png');
    expect(asked?.args.alt_txt).toMatch(
      /^Chart: 13 memory samples against container_limit of 256 MB.*Verdict: worker container reached 94% of its memory limit\./,
    );
    const bytes = h.fake.uploads.get(file?.id ?? '')?.bytes ?? Buffer.alloc(0);
    expect(bytes.subarray(1, 4).toString()).toBe('PNG');
    expect(Number(asked?.args.length)).toBe(bytes.length);
  });

  it('a failed upload leaves the answer as it was posted', async () => {
    await send('help', { dataflow: dataflowTargetFor(url) });
    await waitFor(() => h.fake.responses[0]);
    h.fake.failNext('files.getUploadURLExternal', 'ratelimited');
    await h.sender.command(
      slashCommand(`check dataflow ${DF_JOB}`, {
        user: USER,
        channel: CHANNEL,
        responseUrl: h.fake.responseUrl,
      }),
    );
    const posted = await waitFor(() => h.fake.messages.find((m) => m.channel === CHANNEL));
    await waitFor(() => h.logs.lines.find((l) => l.msg === 'chart not posted'));
    expect(posted.text).toContain('Beam Python pipeline runs out of memory');
    expect(h.fake.callsTo('files.completeUploadExternal')).toEqual([]);
  });

  it('refused everywhere is told privately with the role to grant, and nothing is posted', async () => {
    for (const route of [
      'dataflow.projects.locations.jobs.get',
      'dataflow.projects.locations.jobs.messages.list',
      'dataflow.projects.locations.jobs.getMetrics',
    ])
      fake.override(route, { status: 403, body: DENIED });
    await send(`check dataflow ${DF_JOB}`, { dataflow: dataflowTargetFor(url) });
    const told = await waitFor(() => h.fake.responses[0]);
    expect(JSON.stringify(told)).toContain('which roles/dataflow.viewer grants');
    expect(h.fake.messages.filter((m) => m.channel === CHANNEL)).toEqual([]);
  });
});

describe('/memdoctor check dataflow for the asker only', () => {
  it("answers privately at once, and the chart goes to the asker's DM under a copy of the answer", async () => {
    h = await startHarness({
      extend: (base) => ({ ...base, playbooks: PLAYBOOKS, connectors: { dataflow: dataflowTargetFor(url) } }),
    });
    await h.sender.command(
      slashCommand(`check dataflow ${DF_JOB}`, {
        user: USER,
        channel: CHANNEL,
        responseUrl: h.fake.responseUrl,
      }),
    );
    const told = await waitFor(() => h.fake.responses[0]);
    expect(told.response_type).toBe('ephemeral');
    expect(JSON.stringify(told.blocks)).toContain('Its chart follows in your DM with memdoctor.');
    const complete = await waitFor(() => h.fake.callsTo('files.completeUploadExternal')[0]);
    const opened = h.fake.callsTo('conversations.open')[0];
    expect(opened?.args.users).toBe(USER);
    expect(complete.args.channel_id).not.toBe(CHANNEL);
    // Nothing of the answer or its chart is in the channel.
    expect(h.fake.messages.filter((m) => m.channel === CHANNEL)).toEqual([]);
  });
});
