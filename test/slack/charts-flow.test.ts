import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness, waitFor } from './support/harness.ts';
import { eventEnvelope, fileShareEvent, slashCommand } from './support/payloads.ts';

const FIXTURES = new URL('../engine/parsers/fixtures/', import.meta.url);
const GC_LOG = readFileSync(new URL('gc-log/jdk17-parallel-leak-oom-128m-xlog-gc-uptime.log', FIXTURES));
const PS_SAMPLES = readFileSync(new URL('memory-samples/live-ps-climb-14mibs-1s.txt', FIXTURES), 'utf8');
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const USER = 'UALICE01';
const CHANNEL = 'CINCIDENT';
const THREAD = '1700000000.000001';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.stop();
  // Every call, the upload's three included, in the shape Slack's API publishes.
  expect(h.fake.rejections).toEqual([]);
});

function shareGcLog() {
  const file = h.fake.addFile('F200', 'gc.log', GC_LOG);
  const event = fileShareEvent({
    user: USER,
    channel: CHANNEL,
    threadTs: THREAD,
    parentUserId: h.fake.botUserId,
    files: [file],
  });
  return h.sender.event(eventEnvelope(event));
}

/** The chart that went up: what it was asked for with, what was shared where, and its bytes. */
async function uploadedChart() {
  const complete = await waitFor(() => h.fake.callsTo('files.completeUploadExternal')[0]);
  const asked = h.fake.callsTo('files.getUploadURLExternal')[0];
  const [file] = JSON.parse(complete.args.files ?? '[]') as { id: string; title: string }[];
  const upload = h.fake.uploads.get(file?.id ?? '');
  return { complete, asked, file, bytes: upload?.bytes ?? Buffer.alloc(0) };
}

describe('charts in the diagnosis thread', () => {
  it('a GC log shared in a thread: the answer, then the heap chart as a PNG with its alt text', async () => {
    await shareGcLog();
    const answer = await waitFor(() => h.fake.callsTo('chat.postMessage')[0]);
    expect(answer.args.thread_ts).toBe(THREAD);
    const { complete, asked, file, bytes } = await uploadedChart();
    expect(complete.args.channel_id).toBe(CHANNEL);
    expect(complete.args.thread_ts).toBe(THREAD);
    expect(file?.title).toBe('Heap after each garbage collection');
    expect(asked?.args.filename).toBe('gc-heap.png');
    expect(asked?.args.alt_txt).toMatch(/^Chart: heap in use after each GC .*leak likely/);
    expect(Number(asked?.args.length)).toBe(bytes.length);
    expect(bytes.subarray(0, 8)).toEqual(PNG);
    // The answer went out before the picture was asked for.
    expect(h.fake.calls.indexOf(answer)).toBeLessThan(h.fake.calls.indexOf(asked as typeof answer));
  });

  it('ps samples pasted with /memdoctor: the chart goes into the answer’s thread', async () => {
    await h.sender.command(
      slashCommand(PS_SAMPLES, { user: USER, channel: CHANNEL, responseUrl: h.fake.responseUrl }),
    );
    const root = await waitFor(() => h.fake.callsTo('chat.postMessage')[0]);
    const { complete, asked, file } = await uploadedChart();
    expect(complete.args.thread_ts).toBe(root.result.ts);
    expect(file?.title).toContain('over time');
    expect(asked?.args.alt_txt).toMatch(/Fitted rate \+14\.\d MB\/s/);
  });

  it('a failed upload leaves the answer as it was and is only logged', async () => {
    h.fake.failNext('files.getUploadURLExternal', 'ratelimited');
    await shareGcLog();
    const answer = await waitFor(() => h.fake.callsTo('chat.postMessage')[0]);
    expect(answer.args.text).toBeTruthy();
    await waitFor(() => h.logs.lines.find((l) => l.msg === 'chart not posted'));
    expect(h.fake.callsTo('files.completeUploadExternal')).toEqual([]);
  });

  it('an input with nothing to draw uploads nothing', async () => {
    await h.sender.command(
      slashCommand('java.lang.OutOfMemoryError: Java heap space', {
        user: USER,
        channel: CHANNEL,
        responseUrl: h.fake.responseUrl,
      }),
    );
    await waitFor(() => h.fake.callsTo('chat.postMessage')[0]);
    expect(h.fake.callsTo('files.getUploadURLExternal')).toEqual([]);
  });
});

describe("a calc answer's chart", () => {
  const calc = (text: string) =>
    h.sender.command(slashCommand(text, { user: USER, channel: CHANNEL, responseUrl: h.fake.responseUrl }));

  it('the answer privately at once; its chart in the asker’s DM, under a copy of the answer, never in the channel', async () => {
    await calc('calc beam --machine_type n1-standard-4');
    const reply = await waitFor(() => h.fake.responses[0]);
    expect(reply.response_type).toBe('ephemeral');
    expect(JSON.stringify(reply.blocks)).toContain('per harness thread');
    expect(JSON.stringify(reply.blocks)).toContain('Its chart follows in your DM with memdoctor.');
    const { complete, asked, file, bytes } = await uploadedChart();
    const dm = h.fake.callsTo('conversations.open')[0];
    expect(dm?.args.users).toBe(USER);
    const root = h.fake.callsTo('chat.postMessage')[0];
    expect(root?.args.channel).toBe('DALICE01');
    expect(root?.args.text).toBe('memdoctor calc beam --machine_type n1-standard-4');
    expect(complete.args.channel_id).toBe('DALICE01');
    expect(complete.args.thread_ts).toBe(root?.result.ts);
    expect(file?.title).toContain('n1-standard-4');
    expect(asked?.args.filename).toBe('beam-worker.png');
    expect(asked?.args.alt_txt).toMatch(/^Chart: Beam on Dataflow: .*Limit: machine memory 15 GB/);
    expect(bytes.subarray(0, 8)).toEqual(PNG);
    expect(h.fake.calls.filter((c) => c.args.channel === CHANNEL || c.args.channel_id === CHANNEL)).toEqual(
      [],
    );
    expect(h.fake.responses).toHaveLength(1);
  });

  it('a failed upload: the answer stands, and the person is told where else to draw the chart', async () => {
    h.fake.failNext('files.getUploadURLExternal', 'ratelimited');
    await calc('calc spark --spark.executor.memory 4g');
    const notice = await waitFor(() => h.fake.responses[1]);
    expect(JSON.stringify(h.fake.responses[0]?.blocks)).toContain('container total');
    expect(JSON.stringify(notice.blocks)).toContain('The chart could not be posted.');
    expect(JSON.stringify(notice.blocks)).toContain('--chart DIR');
    expect(h.fake.callsTo('files.completeUploadExternal')).toEqual([]);
    expect(h.logs.lines.find((l) => l.msg === 'chart not posted')).toBeTruthy();
  });

  it('help, which has nothing to draw, is only the private answer', async () => {
    await calc('calc glue help');
    await waitFor(() => h.fake.responses[0]);
    expect(h.fake.callsTo('conversations.open')).toEqual([]);
    expect(h.fake.callsTo('files.getUploadURLExternal')).toEqual([]);
  });
});
