import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { drawChart } from '../../src/engine/charts/index.ts';
import { parseText } from '../../src/engine/parsers/parse-text.ts';
import { findPlaybook, loadPlaybooks, PLAYBOOKS_DIR } from '../../src/playbooks/load.ts';
import { walkthroughCharts } from '../../src/walkthrough/charts.ts';
import {
  MemoryWalkthroughStore,
  type WalkthroughRecord,
  WalkthroughRecordSchema,
  WalkthroughService,
  type WalkthroughStore,
} from '../../src/walkthrough/index.ts';
import { RedisWalkthroughStore } from '../../src/walkthrough/store/redis.ts';
import { renderTranscript } from '../../src/walkthrough/transcript.ts';
import { deletePrefix, newRedis, randomPrefix } from '../support/redis.ts';

// Real captures the parsers are tested on (test/engine/parsers/fixtures/SOURCES.md).
const capture = (name: string) =>
  readFileSync(new URL(`../engine/parsers/fixtures/${name}`, import.meta.url), 'utf8');
const GC_LOG = capture('gc-log/jdk17-parallel-leak-oom-128m-xlog-gc-uptime.log');
const SAMPLES = capture('memory-samples/live-ps-climb-14mibs-1s.txt');

const PLAYBOOKS = loadPlaybooks(PLAYBOOKS_DIR);
const where = { workspace: 'T1', conversation: 'C1' };

/** jvm-oom as far as its GC log step, answered with a real log. */
async function gcLogPasted(store: WalkthroughStore): Promise<WalkthroughRecord> {
  const service = new WalkthroughService({ store });
  const started = await service.start({ playbook: findPlaybook(PLAYBOOKS, 'jvm-oom'), where, owner: 'U1' });
  const heap = await service.applyTo(started, { type: 'choose', answer: 'heap', step: 'kind' }, 'U1');
  return service.applyTo(heap, { type: 'paste', text: GC_LOG, step: 'gc-log' }, 'U1');
}

/** The record as a store writes and reads it. */
const reread = (record: WalkthroughRecord) =>
  WalkthroughRecordSchema.parse(JSON.parse(JSON.stringify(record)));

describe("a pasted output's chart in a walkthrough", () => {
  it('is kept with the answer and drawn, under its step, as the diagnosis of the same log draws it', async () => {
    const record = reread(await gcLogPasted(new MemoryWalkthroughStore()));
    const [chart] = walkthroughCharts(record);
    expect(chart?.step).toBe('gc-log');
    expect(chart?.file).toBe('gc-log-gc-heap.png');
    expect(chart?.atAnswer).toBe(true);
    const diagnosed = drawChart(parseText('gc-log', GC_LOG).chart ?? expect.fail('no chart'));
    expect(drawChart(chart?.data ?? expect.fail('no chart')).svg).toBe(diagnosed.svg);
  });

  it('is referred to in the transcript, under the step it draws, by file name and alt text', async () => {
    const record = await gcLogPasted(new MemoryWalkthroughStore());
    const markdown = renderTranscript(record);
    const alt = drawChart(parseText('gc-log', GC_LOG).chart ?? expect.fail('no chart')).alt;
    const lines = markdown.split('\n');
    const at = lines.findIndex((l) => l.includes('](gc-log-gc-heap.png)'));
    expect(lines[at]).toBe(`   - ![${alt}](gc-log-gc-heap.png)`);
    expect(lines.slice(0, at).findLast((l) => /^\d+\. /.test(l))).toContain(
      'How full is the heap after collections?',
    );
  });

  it('a record written before charts were kept still loads, and draws no picture for its paste', async () => {
    const record = await gcLogPasted(new MemoryWalkthroughStore());
    const old = JSON.parse(JSON.stringify(record)) as { path: { answer: Record<string, unknown> }[] };
    for (const entry of old.path) delete entry.answer.chart;
    const loaded = WalkthroughRecordSchema.parse(old);
    expect(walkthroughCharts(loaded)).toEqual([]);
    expect(renderTranscript(loaded)).not.toContain('![');
  });

  it('a stored chart over its bounds is refused when read back, naming the field', async () => {
    const record = await gcLogPasted(new MemoryWalkthroughStore());
    const stored = JSON.parse(JSON.stringify(record)) as {
      path: { answer: { chart?: { after: unknown[] } } }[];
    };
    const chart = stored.path[1]?.answer.chart ?? expect.fail('no chart kept');
    chart.after = Array.from({ length: 401 }, (_, t) => ({ t, bytes: 1 }));
    const read = WalkthroughRecordSchema.safeParse(stored);
    expect(read.success).toBe(false);
    expect(read.error?.issues[0]?.path.join('.')).toBe('path.1.answer.chart.after');
  });

  it('memory samples pasted at a Beam step: their chart under <step>-memory-samples.png', async () => {
    const service = new WalkthroughService({ store: new MemoryWalkthroughStore() });
    const playbook = findPlaybook(PLAYBOOKS, 'beam-python-leak');
    const started = await service.start({ playbook, where, owner: 'U1' });
    const other = await service.applyTo(started, { type: 'choose', answer: 'other' }, 'U1');
    const record = await service.applyTo(other, { type: 'paste', text: SAMPLES, step: 'samples' }, 'U1');
    const [chart] = walkthroughCharts(reread(record));
    expect(chart?.file).toBe('samples-memory-samples.png');
    expect(drawChart(chart?.data ?? expect.fail('no chart')).alt).toMatch(/Fitted rate \+14\.\d MB\/s/);
  });
});

describe('kept in Redis', () => {
  const redis = newRedis();
  const prefix = randomPrefix();
  afterAll(async () => {
    await deletePrefix(redis, prefix);
    await redis.quit();
  });

  it('the chart comes back from the store and is drawn the same', async () => {
    const store = new RedisWalkthroughStore(redis, { prefix });
    const written = await gcLogPasted(store);
    const read = await new WalkthroughService({ store }).get(written.id);
    const [chart] = walkthroughCharts(read);
    expect(chart?.file).toBe('gc-log-gc-heap.png');
    const [before] = walkthroughCharts(written);
    expect(drawChart(chart?.data ?? expect.fail('no chart')).svg).toBe(
      drawChart(before?.data ?? expect.fail('no chart')).svg,
    );
  });
});
