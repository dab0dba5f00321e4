import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memorySamplesParser } from '../../../src/engine/parsers/memory-samples.ts';
import { parseText } from '../../../src/engine/parsers/parse-text.ts';

const KiB = 1024;
const MiB = 1024 ** 2;
const read = (file: string) =>
  readFileSync(join(import.meta.dirname, 'fixtures/memory-samples', file), 'utf8');
const parse = (text: string) => parseText('memory-samples', text);
/** A typed list of sizes in MB, the edge cases beside the captured series. */
const list = (...mb: number[]) => parse(mb.map((n) => `${n} MB`).join('\n'));

// The captured series (SOURCES.md): one python3 process growing by 8196 KiB a second, RES/RSS in KiB:
// 21744, 29940, ..., 95508 (10 samples). growth = (95508 - 21744) / 21744 = 3.3924; slope 8196 KiB;
// median = (54528 + 62724) / 2 = 58626 KiB; first third (3 samples) and last third both climb 8196 KiB.
const GROWING = {
  samples: 10,
  firstBytes: 21744 * KiB,
  lastBytes: 95508 * KiB,
  peakBytes: 95508 * KiB,
  minBytes: 21744 * KiB,
  medianBytes: 58626 * KiB,
  growthShare: 3.3924,
  slopeBytesPerSample: 8196 * KiB,
  plateau: false,
  verdict: 'leak likely: memory keeps growing without levelling off',
};

describe('memory samples from the real tools', () => {
  it('reads top -b RES (KiB) for the process, from the first row on', () => {
    const out = parse(read('python-top-b-p-growing.txt'));
    expect(out.values).toEqual({ ...GROWING, source: 'top', pid: '15328', bareSamplesAsKiB: 0 });
    // 21744 KiB = 21.2 MiB, 95508 KiB = 93.3 MiB, +339%.
    expect(out.summary).toBe('10 samples of PID 15328: 21.2 MB -> 93.3 MB (+339%), peak 93.3 MB.');
    // Line 8 is the first process row (top's header block is 7 lines).
    expect(out.facts.find((f) => f.kind === 'memory.growing')).toMatchObject({
      line: 8,
      values: { growthShare: 3.3924 },
    });
  });

  it('reads ps -o pid,rss,cmd RSS (KiB) the same way', () => {
    const out = parse(read('python-ps-pid-rss-cmd-growing.txt'));
    expect(out.values).toEqual({ ...GROWING, source: 'ps', pid: '15328', bareSamplesAsKiB: 0 });
    expect(out.facts.find((f) => f.kind === 'memory.growing')?.line).toBe(2);
  });

  it('reads the bare numbers of ps -o rss= as KiB and says so', () => {
    const out = parse(read('python-ps-rss-growing.txt'));
    expect(out.values).toEqual({ ...GROWING, source: 'list', bareSamplesAsKiB: 10 });
    expect(out.summary).toBe(
      '10 samples: 21.2 MB -> 93.3 MB (+339%), peak 93.3 MB. Bare numbers (10) read as KiB, as `ps -o rss=` prints them.',
    );
  });

  // 13596 x3, 79136, 123324, 145404, 210216, 13596 x4: median 13596 KiB, the peak 210216 >= 1.5 x median
  // and the last sample is back below 0.8 x the peak.
  it('calls a spike that came back down a high peak, not a leak', () => {
    const out = parse(read('python-ps-rss-timed-spike.txt'));
    expect(out.values).toMatchObject({
      samples: 11,
      medianBytes: 13596 * KiB,
      peakBytes: 210216 * KiB,
      growthShare: 0,
      verdict: 'high peak, not a leak: memory came back down',
    });
    expect(out.summary).toMatch(/^11 samples: 13.3 MB -> 13.3 MB \(\+0.0%\), peak 205 MB\./);
    expect(out.facts.some((f) => f.kind === 'memory.growing')).toBe(false);
  });

  // 62708, 111864, 161020, then 210176 x8: the first third climbs 49156 KiB a sample, the last is flat.
  it('calls growth that levelled off a plateau', () => {
    const out = parse(read('python-ps-rss-timed-plateau.txt'));
    expect(out.values).toMatchObject({
      samples: 11,
      plateau: true,
      // (210176 - 62708) / 62708 = 2.35166
      growthShare: 2.3517,
      verdict: 'grew then levelled off: a high steady state, not a leak',
    });
  });
});

describe('memory-samples verdict boundaries (typed lists)', () => {
  // (120 - 100) / 100 = 0.2 exactly; both thirds climb 5 MB a sample; every step is up.
  it('calls growth of exactly 20% a leak, and 19% stable', () => {
    expect(list(100, 105, 110, 115, 120).verdict).toMatch(/^leak likely/);
    expect(list(100, 105, 110, 115, 119).verdict).toBe('stable');
  });

  // 10 steps: up, down, up, down, up, down, up, up, up, up = 7 of 10 up (0.7); then one more down.
  it('needs at least 70% of the steps to go up', () => {
    expect(list(100, 110, 105, 115, 110, 120, 115, 125, 130, 135, 140).verdict).toMatch(/^leak likely/);
    expect(list(100, 110, 105, 115, 110, 120, 115, 125, 124, 135, 140).verdict).toBe('stable');
  });

  // Peak 200, last 190 = 0.95 x peak: still climbing at the end (last third +10 a sample).
  it('allows the last sample 5% under the peak', () => {
    expect(list(100, 120, 140, 160, 200, 180, 190).verdict).toMatch(/^leak likely/);
    expect(list(100, 120, 140, 160, 200, 180, 189).verdict).not.toMatch(/^leak likely/);
  });

  // median 100, peak 150 = 1.5 x median; last 100 < 0.8 x 150 = 120, but last 120 is not below it.
  it('calls a peak of exactly 1.5x the median that came down a high peak', () => {
    expect(list(100, 100, 100, 150, 100).verdict).toBe('high peak, not a leak: memory came back down');
    expect(list(100, 100, 100, 149, 100).verdict).toBe('stable');
    expect(list(100, 100, 100, 150, 120).verdict).toBe('stable');
  });

  // First third climbs 10 MB a sample, the last 1 MB = 0.1 x 10: levelled off; 2 MB is still growing.
  it('calls a late slope of a tenth of the early one a plateau', () => {
    const flat = list(100, 110, 120, 130, 131);
    expect([flat.values.plateau, flat.verdict]).toEqual([
      true,
      'grew then levelled off: a high steady state, not a leak',
    ]);
    expect(list(100, 110, 120, 130, 132).values.plateau).toBe(false);
  });

  it('does not call a flat start a plateau, nor a shrinking series growth', () => {
    expect(list(100, 100, 100, 100).values).toMatchObject({ plateau: false, growthShare: 0 });
    expect(list(100, 100, 100, 100).verdict).toBe('stable');
    const down = list(200, 150, 100);
    expect([down.values.growthShare, down.verdict]).toEqual([-0.5, 'stable']);
    expect(down.summary).toBe('3 samples: 200 MB -> 100 MB (-50%), peak 200 MB.');
  });

  it('needs three samples', () => {
    const run = memorySamplesParser.create();
    run.push('100 MB', 1);
    run.push('200 MB', 2);
    expect(() => run.finish()).toThrow(/at least 3 memory samples/);
    expect(list(100, 200, 300).values.samples).toBe(3);
  });

  // Flat steps count as steps up: 0, 0, +, +, +, + is 6 of 6; counted strictly it would be 4 of 6.
  it('counts a flat step as not going down', () => {
    expect(list(100, 100, 100, 150, 200, 250, 300).verdict).toMatch(/^leak likely/);
  });

  // Last third 151, 152, 153 climbs 1 MB a sample, a tenth of the first third's 10: levelled off.
  it('measures the late slope on the last third', () => {
    expect(list(100, 110, 120, 130, 140, 150, 151, 152, 153).values.plateau).toBe(true);
  });

  it('calls a plateau back at its start stable, and a series from zero growth-free', () => {
    expect(list(100, 120, 100, 100).verdict).toBe('stable');
    expect(list(0, 100, 200).values.growthShare).toBe(0);
  });

  it('cites the first sample line, and the sample count for a typed list', () => {
    const out = parse('note\n100 MB\n150 MB\n200 MB\n250 MB\n300 MB');
    expect(out.facts.find((f) => f.kind === 'memory.growing')).toMatchObject({ line: 2, text: '5 samples' });
    expect(out.facts.find((f) => f.kind === 'parsed.memory-samples')?.line).toBe(2);
  });

  it('reads units and timestamps on each line', () => {
    const out = parse('10:00 1.5 GB\n10:01 1536MiB\n10:02 2g\n');
    expect(out.values).toMatchObject({
      firstBytes: 1.5 * 1024 * MiB,
      lastBytes: 2 * 1024 * MiB,
      minBytes: 1.5 * 1024 * MiB,
      bareSamplesAsKiB: 0,
    });
  });
});

// Real top header and row layout (python-top-b-p-growing.txt), with a second process added as an edge case.
const TOP_HEAD = 'top - 20:04:01 up 10 min,  0 user,  load average: 3.58, 2.14, 1.07';
const TOP_COLS = '  PID USER      PR  NI    VIRT    RES    SHR S  %CPU  %MEM     TIME+ COMMAND';
const row = (pid: number, res: string) =>
  `${pid} root      20   0   24760  ${res}   6656 S   0.0   0.1   0:00.04 python3`;
const snapshots = (rows: string[][]) =>
  rows.map((r) => [TOP_HEAD, '', TOP_COLS, ...r, ''].join('\n')).join('\n');

describe('top -b with several processes', () => {
  it('follows the process with the most samples, wherever it is listed', () => {
    const text = snapshots([
      [row(2, '900000'), row(1, '100')],
      [row(1, '200')],
      [row(2, '900000'), row(1, '300')],
    ]);
    expect(parse(text).values).toMatchObject({ pid: '1', samples: 3, lastBytes: 300 * KiB });
    expect(parse(text).facts.find((f) => f.kind === 'parsed.memory-samples')?.line).toBe(4);
  });

  it('keeps the first of two identical series', () => {
    const text = snapshots([
      [row(1, '100'), row(2, '100')],
      [row(1, '200'), row(2, '200')],
      [row(1, '300'), row(2, '300')],
    ]);
    expect(parse(text).values.pid).toBe('1');
  });

  // top right-aligns the PID column: a short PID has spaces before it.
  it('reads rows with a right-aligned short PID', () => {
    const text = snapshots([
      [`  777${row(0, '100').slice(1)}`],
      [`  777${row(0, '200').slice(1)}`],
      [`  777${row(0, '400').slice(1)}`],
    ]);
    expect(parse(text).values).toMatchObject({ pid: '777', samples: 3, lastBytes: 400 * KiB });
  });

  it('breaks a tie by the larger process', () => {
    const text = snapshots([
      [row(1, '100'), row(2, '5000')],
      [row(1, '200'), row(2, '6000')],
      [row(1, '300'), row(2, '7000')],
    ]);
    expect(parse(text).values).toMatchObject({ pid: '2', firstBytes: 5000 * KiB, lastBytes: 7000 * KiB });
  });

  // top scales RES with a suffix when it is wide (`1.2g`); some locales write the decimal with a comma.
  it('reads scaled RES, also with a decimal comma', () => {
    const text = snapshots([[row(7, '512m')], [row(7, '1.25g')], [row(7, '2,5g')]]);
    expect(parse(text).values).toMatchObject({
      samples: 3,
      firstBytes: 512 * MiB,
      medianBytes: 1.25 * 1024 * MiB,
      lastBytes: 2.5 * 1024 * MiB,
    });
  });

  it('skips rows whose PID or RES is not a number', () => {
    const text = snapshots([[row(7, '100')], [row(7, 'n/a')], [row(7, '200')], [row(7, '300')]]);
    expect(parse(text).values).toMatchObject({ samples: 3, firstBytes: 100 * KiB });
  });
});

describe('memory-samples detection', () => {
  const detect = (text: string) => memorySamplesParser.detect(text.split('\n'));

  it('knows top by its header or its column line', () => {
    expect(detect(TOP_HEAD)).toBe(true);
    expect(detect(TOP_COLS)).toBe(true);
  });

  it('takes ps output only when its header repeats', () => {
    expect(detect('  PID   RSS CMD\n15328 21744 python3')).toBe(false);
    expect(detect('  PID   RSS CMD\n15328 21744 python3\n  PID   RSS CMD\n15328 29940 python3')).toBe(true);
  });

  it('takes a list when at least 80% of at least three lines are sizes', () => {
    expect(detect('1 GB\n2 GB\n3 GB\n4 GB\nnote')).toBe(true);
    expect(detect('1 GB\n2 GB\n3 GB\nnote\nnote')).toBe(false);
    expect(detect('1 GB\n2 GB\n\n')).toBe(false);
    expect(detect('21744\n29940\n38136')).toBe(true);
    // Blank lines are not counted either way.
    expect(detect('1 GB\n2 GB\n3 GB\n\n')).toBe(true);
    // A size inside a sentence is not a sample.
    expect(detect('1 GB used\n2 GB used\n3 GB used')).toBe(false);
  });
});
