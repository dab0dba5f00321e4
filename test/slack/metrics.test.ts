import { afterEach, describe, expect, it } from 'vitest';
import { SlackMetrics } from '../../src/slack/metrics.ts';
import { type Harness, startHarness, waitFor } from './support/harness.ts';
import { slashCommand } from './support/payloads.ts';

const HEAP_OOM = 'java.lang.OutOfMemoryError: Java heap space\n';

let h: Harness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});

async function scrape(harness: Harness): Promise<string> {
  const res = await fetch(new URL('/metrics', harness.url));
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text();
}

/** One sample's value from Prometheus text, e.g. value(text, 'memdoctor_diagnoses_total{playbook="x"}'). */
function value(text: string, sample: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${sample} `));
  return line === undefined ? undefined : Number(line.slice(sample.length + 1));
}

describe('GET /metrics', () => {
  it('counts diagnoses by playbook, times them and the acknowledgements, and shows the queue depth', async () => {
    let depth = 3;
    const metrics = new SlackMetrics(() => depth);
    const harness = await startHarness({ extend: (deps) => ({ ...deps, metrics }) });
    h = harness;
    const before = await scrape(harness);
    expect(value(before, 'memdoctor_diagnoses_total{playbook="test-heap-oom"}')).toBeUndefined();
    expect(value(before, 'memdoctor_diagnosis_queue_depth')).toBe(3);

    for (const text of [HEAP_OOM, HEAP_OOM, 'all quiet\n']) {
      const res = await harness.sender.command(
        slashCommand(text, { user: 'U1', channel: 'C1', responseUrl: harness.fake.responseUrl }),
      );
      expect(res.status).toBe(200);
    }
    await waitFor(() => (harness.fake.callsTo('chat.postMessage').length === 3 ? true : undefined));
    depth = 0;
    const after = await scrape(harness);
    expect(value(after, 'memdoctor_diagnoses_total{playbook="test-heap-oom"}')).toBe(2);
    expect(value(after, 'memdoctor_diagnoses_total{playbook="none"}')).toBe(1);
    expect(value(after, 'memdoctor_diagnosis_duration_seconds_count')).toBe(3);
    expect(value(after, 'memdoctor_ack_latency_seconds_count')).toBe(3);
    expect(value(after, 'memdoctor_diagnosis_queue_depth')).toBe(0);
    expect(after).toContain('# TYPE memdoctor_walkthrough_starts_total counter');
    expect(after).toContain('# TYPE memdoctor_redis_errors_total counter');
  });

  it('is not served when the app keeps no metrics', async () => {
    h = await startHarness();
    expect((await fetch(new URL('/metrics', h.url))).status).toBe(404);
  });
});
