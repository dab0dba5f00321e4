import { afterEach, describe, expect, it } from 'vitest';
import { InflightBusyError, InflightBytes } from '../../src/slack/inflight.ts';
import { SlackMetrics } from '../../src/slack/metrics.ts';
import { PATIENCE_MS } from '../support/patience.ts';
import { type Harness, startHarness, waitFor } from './support/harness.ts';
import { eventEnvelope, fileShareEvent, slashCommand } from './support/payloads.ts';

/*
 * Issue 27, item 5: the bytes of inputs in hand are capped (MEMDOCTOR_MAX_INFLIGHT_BYTES). Past the
 * cap an input waits for room, in arrival order, and is told to try again when none comes in time.
 * The "other input" holding the cap here is held by the test through the same InflightBytes.
 */
const HEAP_OOM = 'Running Spark version 3.5.1\njava.lang.OutOfMemoryError: Java heap space\n';
const CAP = 64 * 1024;

let h: Harness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});

async function appWith(inflight: InflightBytes, metrics = new SlackMetrics()): Promise<Harness> {
  h = await startHarness({ extend: (deps) => ({ ...deps, inflight, metrics }) });
  return h;
}

/** Holds `bytes` of the cap until the returned function is called. */
async function holdOther(inflight: InflightBytes, bytes: number): Promise<() => void> {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  void inflight.hold(bytes, () => released);
  await waitFor(() => inflight.bytesHeld >= bytes || undefined);
  return release;
}

function uploadEvent(harness: Harness, id: string) {
  const file = harness.fake.addFile(id, `${id}.log`, Buffer.from(HEAP_OOM));
  return eventEnvelope(
    fileShareEvent({
      user: 'U1',
      channel: 'C1',
      threadTs: '1700000000.000001',
      parentUserId: harness.fake.botUserId,
      files: [file],
    }),
  );
}

const diagnosed = (harness: Harness) =>
  harness.fake.callsTo('chat.postMessage').filter((c) => (c.args.text ?? '').includes('Test executor heap'));

describe('the in-flight byte cap', () => {
  it('makes an upload wait while others fill the cap, then diagnoses it', async () => {
    // Room may take as long as a test waits to come: the 300 ms the cap is held here never runs it out.
    const inflight = new InflightBytes(CAP, PATIENCE_MS);
    const app = await appWith(inflight);
    const release = await holdOther(inflight, CAP);
    expect((await app.sender.event(uploadEvent(app, 'F1'))).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(diagnosed(app)).toHaveLength(0);
    release();
    await waitFor(() => diagnosed(app).length === 1 || undefined);
    await waitFor(() => inflight.bytesHeld === 0 || undefined);
  });

  it('tells the person to try again when no room comes in time, and counts the refusal', async () => {
    const inflight = new InflightBytes(CAP, 200);
    const metrics = new SlackMetrics();
    const app = await appWith(inflight, metrics);
    const release = await holdOther(inflight, CAP - 10);
    await app.sender.command(
      slashCommand(HEAP_OOM, { user: 'U2', channel: 'C2', responseUrl: app.fake.responseUrl }),
    );
    const told = await waitFor(() => app.fake.responses.find((r) => JSON.stringify(r).includes('Try again')));
    expect(JSON.stringify(told)).toMatch(/memdoctor is busy: it holds 1 MiB of other inputs/);
    expect(diagnosed(app)).toHaveLength(0);
    expect(await metrics.registry.metrics()).toContain('memdoctor_refusals_total{reason="memory"} 1');
    release();
    await app.sender.command(
      slashCommand(HEAP_OOM, { user: 'U2', channel: 'C2', responseUrl: app.fake.responseUrl }),
    );
    await waitFor(() => diagnosed(app).length === 1 || undefined);
  });
});

describe('InflightBytes', () => {
  it('lets in what fits while a larger input waits, and the larger one once room is made', async () => {
    const inflight = new InflightBytes(100, 5000);
    const release = await holdOther(inflight, 60);
    const order: string[] = [];
    const large = inflight.hold(50, async () => order.push('large'));
    await inflight.hold(10, async () => order.push('small'));
    expect(order).toEqual(['small']);
    release();
    await large;
    expect(order).toEqual(['small', 'large']);
    expect(inflight.bytesHeld).toBe(0);
  });
});

async function* chunksOf(...sizes: number[]): AsyncGenerator<Uint8Array> {
  for (const size of sizes) yield new Uint8Array(size);
}

describe('InflightBytes.stream', () => {
  it('counts each chunk from when it is in hand until it is released', async () => {
    const inflight = new InflightBytes(100, 5000);
    const share = inflight.stream();
    const seen: number[] = [];
    for await (const chunk of share.count(chunksOf(30, 20))) {
      seen.push(inflight.bytesHeld);
      share.release(chunk.length);
    }
    expect(seen).toEqual([30, 20]);
    expect(inflight.bytesHeld).toBe(0);
    share.close();
    expect(inflight.bytesHeld).toBe(0);
  });

  it('never counts past the cap: a stream waits for room like any input, in pieces no larger than the cap', async () => {
    const changes: number[] = [];
    const inflight = new InflightBytes(100, 5000, (held) => changes.push(held));
    const reading = inflight.stream();
    // One chunk larger than the cap is counted piece by piece, each released once read.
    const pieces: number[] = [];
    for await (const piece of reading.count(chunksOf(250))) {
      pieces.push(piece.length);
      reading.release(piece.length);
    }
    expect(pieces).toEqual([100, 100, 50]);
    const release = await holdOther(inflight, 100);
    const chunks = reading.count(chunksOf(30));
    let admitted = false;
    const next = chunks.next().then(() => {
      admitted = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(admitted).toBe(false);
    expect(inflight.bytesHeld).toBe(100);
    release();
    await next;
    expect(inflight.bytesHeld).toBe(30);
    reading.close();
    expect(inflight.bytesHeld).toBe(0);
    expect(Math.max(...changes)).toBe(100);
    expect(inflight.peakBytes).toBe(100);
  });

  it('feeds the app gauges: the bytes held now and the most held at once', async () => {
    const metrics = new SlackMetrics();
    const inflight = new InflightBytes(100, 5000, (held) => metrics.inflightChanged(held));
    await inflight.hold(70, async () => {
      expect(await metrics.registry.metrics()).toContain('memdoctor_inflight_bytes 70');
    });
    const text = await metrics.registry.metrics();
    expect(text).toContain('memdoctor_inflight_bytes 0');
    expect(text).toContain('memdoctor_inflight_bytes_peak 70');
  });

  it('refuses at once an input larger than the cap: it could never fit', async () => {
    const inflight = new InflightBytes(100, 5000);
    await expect(inflight.hold(101, async () => 'ran')).rejects.toThrow(/larger than the limit of 100 bytes/);
  });

  it('keeps a copy beside a stream only when it fits now, and never ahead of a waiting input', async () => {
    const inflight = new InflightBytes(100, 5000);
    const share = inflight.stream();
    expect(share.tryTake(60)).toBe(true);
    expect(share.tryTake(50)).toBe(false);
    const waiting = inflight.hold(50, async () => 'ran');
    expect(share.tryTake(10)).toBe(false);
    share.close();
    expect(await waiting).toBe('ran');
    expect(inflight.bytesHeld).toBe(0);
  });

  it('on close, releases what the stream held and refuses its chunk still waiting for room', async () => {
    const inflight = new InflightBytes(100, 5000);
    const release = await holdOther(inflight, 95);
    const share = inflight.stream();
    const next = share.count(chunksOf(10)).next();
    await new Promise((resolve) => setTimeout(resolve, 20));
    share.close();
    await expect(next).rejects.toBeInstanceOf(InflightBusyError);
    release();
    await waitFor(() => inflight.bytesHeld === 0 || undefined);
  });
});
