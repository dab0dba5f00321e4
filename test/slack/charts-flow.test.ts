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
