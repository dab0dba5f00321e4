import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memorySamplesParser } from '../../../src/engine/parsers/memory-samples.ts';
import { parseText } from '../../../src/engine/parsers/parse-text.ts';

const KiB = 1024;
const MiB = 1024 ** 2;
const GiB = 1024 ** 3;
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
  shape: 'climbing',
  quantumBytes: KiB,
  steps: 0,
  plateaus: 0,
  verdict: 'leak likely: memory keeps growing without levelling off',
};

describe('memory samples from the real tools', () => {
  it('reads top -b RES (KiB) for the process, its times and the machine memory', () => {
    const out = parse(read('python-top-b-p-growing.txt'));
    // "MiB Mem :  24105.6 total"; 9 s between the first and last header; 8196 KiB a second.
    // (24105.6 MiB - 95508 KiB) / 8196 KiB/s = 3000.07 s.
    expect(out.values).toEqual({
      ...GROWING,
      source: 'top',
      pid: '15328',
      bareSamplesAsKiB: 0,
      spanSeconds: 9,
      rateBytesPerSecond: 8196 * KiB,
      limitBytes: Math.round(24105.6 * MiB),
      limitFrom: 'machine',
      secondsToLimit: 3000,
    });
    expect(out.summary).toBe(
      "10 samples of PID 15328 over 9 s: 21.2 MB -> 93.3 MB (+339%), peak 93.3 MB. Climbing 8 MB/s; at this rate it reaches the machine's memory (top's Mem total), 23.5 GB, in 50 min.",
    );
    // Line 8 is the first process row (top's header block is 7 lines).
    expect(out.facts.find((f) => f.kind === 'memory.growing')).toMatchObject({
      line: 8,
      values: { growthShare: 3.3924, rateBytesPerSecond: 8196 * KiB },
    });
  });

  it('reads ps -o pid,rss,cmd RSS (KiB) the same way', () => {
    const out = parse(read('python-ps-pid-rss-cmd-growing.txt'));
    expect(out.values).toEqual({ ...GROWING, source: 'ps', pid: '15328', bareSamplesAsKiB: 0 });
    expect(out.facts.find((f) => f.kind === 'memory.growing')?.line).toBe(2);
  });

  it('reads the bare numbers of ps -o rss= as KiB, and says a rate per second needs times', () => {
    const out = parse(read('python-ps-rss-growing.txt'));
    expect(out.values).toEqual({ ...GROWING, source: 'list', bareSamplesAsKiB: 10 });
    expect(out.summary).toBe(
      '10 samples: 21.2 MB -> 93.3 MB (+339%), peak 93.3 MB. Climbing 8 MB/sample (the samples carry no times: add `date +%T` or a line "every 60s" for a rate per second). Bare numbers (10) read as KiB, as `ps -o rss=` prints them.',
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
      shape: 'spike',
      verdict: 'high peak, not a leak: memory came back down',
    });
    expect(out.summary).toMatch(/^11 samples over 10 s: 13.3 MB -> 13.3 MB \(\+0.0%\), peak 205 MB\./);
    expect(out.facts.some((f) => f.kind === 'memory.growing')).toBe(false);
  });

  // 62708, 111864, 161020, then 210176 x8: three 48 MiB steps (samples 2-4), then held.
  it('calls steps that are then held a plateau, naming the steps', () => {
    const out = parse(read('python-ps-rss-timed-plateau.txt'));
    expect(out.values).toMatchObject({
      samples: 11,
      plateau: true,
      shape: 'levelled',
      steps: 3,
      firstStepSample: 2,
      firstStepBytes: (111864 - 62708) * KiB,
      // (210176 - 62708) / 62708 = 2.35166
      growthShare: 2.3517,
      verdict: 'grew then levelled off: a high steady state, not a leak',
    });
    expect(out.summary).toContain('3 steps up (samples 2, 3, 4), then flat at 205 MB for the last 8 samples');
  });
});

// Live runs of scripts/capture/python/matrix.sh (SOURCES.md): leak rate x interval x tool, a step then
// flat, an idle process over 8 s, and a 4.3 GiB process read by top.
describe('memory samples of the capture matrix (rate x interval x tool)', () => {
  const MiBs = (n: number) => n * MiB;
  const climbs = ['14mibs', '2mibs', '0.25mibs'].flatMap((rate) =>
    ['1s', '2s'].flatMap((every) => ['ps', 'status', 'top'].map((tool) => [tool, rate, every] as const)),
  );
  // leak.py keeps RATE MiB a second in ten allocations; the fitted rate is within 15% of it: `date +%T`
  // and top's header have whole seconds, and the sampling loop's own time adds to each sleep.
  it.each(climbs)('%s of a %s leak sampled every %s is a climb at its rate', (tool, rate, every) => {
    const out = parse(read(`live-${tool}-climb-${rate}-${every}.txt`));
    const mibs = Number(rate.replace('mibs', ''));
    expect(out.values).toMatchObject({ samples: 12, shape: 'climbing', steps: 0 });
    const measured = Number(out.values.rateBytesPerSecond);
    expect(Math.abs(measured - MiBs(mibs))).toBeLessThan(MiBs(mibs) * 0.15);
    expect(out.facts.some((f) => f.kind === 'memory.growing')).toBe(true);
  });

  // The case: every sample higher by ~14 MiB, which the old 20% rule called stable on a large
  // process: 4.31 GiB -> 4.43 GiB is +2.8%.
  it('calls a 14 MiB/s climb of a 4.3 GiB process a leak from ps and VmRSS', () => {
    for (const tool of ['ps', 'status']) {
      const out = parse(read(`live-${tool}-climb-14mibs-big-1s.txt`));
      expect(out.values.shape).toBe('climbing');
      expect(Number(out.values.growthShare)).toBeLessThan(0.05);
    }
  });

  it('says top lost the resolution of a 4.3 GiB process, and what to run instead', () => {
    const out = parse(read('live-top-climb-14mibs-big-1s.txt'));
    expect(out.values).toMatchObject({ shape: 'insufficient', missing: 'coarse', quantumBytes: 0.1 * GiB });
    expect(out.verdict).toBe('cannot tell yet: readings too coarse');
    expect(out.summary).toContain(
      'top printed RES scaled, so each reading is only known to 102 MB (resolution lost): sample with `ps -o rss= -p <pid>` (KiB, exact) or VmRSS in /proc/<pid>/status instead.',
    );
    expect(out.facts.some((f) => f.kind === 'memory.growing')).toBe(false);
  });

  // top -e k asks for KiB, but a 1.1 GiB RES does not fit top's column and is scaled anyway.
  it('says top lost the resolution even when asked for KiB with -e k', () => {
    const out = parse(read('live-top-e-k-1100mib.txt'));
    expect(out.values).toMatchObject({
      samples: 3,
      quantumBytes: 0.1 * GiB,
      firstBytes: Math.round(1.1 * GiB),
    });
    expect(out.summary).toContain('(resolution lost): sample with `ps -o rss= -p <pid>` (KiB, exact)');
  });

  it.each(['ps', 'status', 'top'])(
    '%s of flat, one 100 MiB step, then flat is held, not climbing',
    (tool) => {
      const out = parse(read(`live-${tool}-step-100mib-1s.txt`));
      expect(out.values).toMatchObject({ shape: 'levelled', steps: 1, firstStepSample: 4 });
      expect(Number(out.values.firstStepBytes)).toBeGreaterThan(99 * MiB);
      expect(out.verdict).toBe('grew then levelled off: a high steady state, not a leak');
      expect(out.summary).toMatch(
        /One step of 100 MB at sample 4, then flat at 133 MB for the last 1[01] samples/,
      );
    },
  );

  it.each(['ps', 'status', 'top'])('%s of an idle process over 8 s asks for a longer span', (tool) => {
    const out = parse(read(`live-${tool}-idle-8s.txt`));
    expect(out.values).toMatchObject({ shape: 'insufficient', missing: 'short-span' });
    expect(out.verdict).toBe('cannot tell yet: too short a span');
    expect(out.summary).toContain('sample for longer (hours)');
  });
});

/** Sizes in MB with a stated interval: what a person types from a chart. */
const every = (seconds: number, ...mb: number[]) =>
  parse([`every ${seconds}s`, ...mb.map((n) => `${n} MB`)].join('\n'));
const range = (from: number, n: number, by: number) => Array.from({ length: n }, (_, i) => from + i * by);

describe('memory-samples judgement (typed lists)', () => {
  // +1 MB a minute on 1000 MB: +1% in 10 min, far below the old 20% rule, yet every sample higher.
  it('calls a steady climb a leak at any percentage, with its rate and time to the stated limit', () => {
    const out = parse(['every 60s', 'limit 2 GB', ...range(1000, 11, 1).map((n) => `${n} MB`)].join('\n'));
    expect(out.values).toMatchObject({
      shape: 'climbing',
      // Six samples lie within the 5 MB band, but they climb all the way: no plateau.
      plateaus: 0,
      growthShare: 0.01,
      rateBytesPerSecond: Math.round(MiB / 60),
      limitBytes: 2 * GiB,
      limitFrom: 'stated',
      // (2048 - 1010) MiB at 1 MiB a minute = 62280 s.
      secondsToLimit: 62280,
    });
    expect(out.summary).toContain(
      'Climbing 17.1 KB/s; at this rate it reaches the stated limit, 2 GB, in 17.3 h.',
    );
  });

  it('asks for more than 5 samples', () => {
    const out = list(100, 200, 300, 400, 500);
    expect([out.values.shape, out.values.missing, out.verdict]).toEqual([
      'insufficient',
      'few-samples',
      'cannot tell yet: too few samples',
    ]);
    expect(out.summary).toContain(
      '5 samples are too few to tell a climb from a step or a level: paste at least 6',
    );
    expect(list(100, 200, 300, 400, 500, 600).values.shape).toBe('climbing');
  });

  // The case: flat, one jump, then ten equal samples.
  it('calls flat, a jump, then ten equal samples a level, not a climb', () => {
    const out = list(100, 100, 100, ...Array(11).fill(200));
    expect(out.values).toMatchObject({ shape: 'levelled', steps: 1, firstStepSample: 4, plateaus: 2 });
    expect(out.facts.some((f) => f.kind === 'memory.growing')).toBe(false);
  });

  it('cannot tell what follows a step among the last two samples, nor a level held for too few', () => {
    expect(list(...Array(10).fill(100), 200).values).toMatchObject({
      shape: 'insufficient',
      missing: 'unsettled',
    });
    // Climbing, then 3 equal samples of 20: a level needs a quarter of the samples (5).
    const paused = list(...range(100, 17, 10), 260, 260);
    expect(paused.values).toMatchObject({ shape: 'insufficient', missing: 'unsettled' });
    expect(paused.verdict).toBe('cannot tell yet: too soon after the last change');
  });

  // median 100, peak 150 = 1.5 x median; last 100 < 0.8 x 150 = 120, but last 120 is not below it.
  it('calls a peak of 1.5x the median that came back below 80% of it a high peak', () => {
    expect(list(100, 100, 100, 150, 100, 100).verdict).toBe('high peak, not a leak: memory came back down');
    expect(list(100, 100, 100, 149, 100, 100).verdict).not.toMatch(/^high peak/);
    expect(list(100, 100, 100, 150, 120, 120).verdict).not.toMatch(/^high peak/);
  });

  // Early third +100, +80 a sample; late third +6, +4, +3: below a tenth of the early pace.
  it('calls a fill that slowed to a tenth of its early pace levelled', () => {
    expect(list(100, 200, 280, 330, 350, 358, 364, 368, 371).values.shape).toBe('levelled');
  });

  it('calls flat samples over two days stable, and over three minutes too short', () => {
    const noise = [0, 2, -1, 1, 0, -2, 1, 0];
    const flat = (n: number) => Array.from({ length: n }, (_, i) => 1000 + (noise[i % noise.length] ?? 0));
    const days = every(3600, ...flat(48));
    expect([days.values.shape, days.verdict]).toEqual(['flat', 'stable']);
    const minutes = every(20, ...flat(10));
    expect(minutes.values).toMatchObject({ shape: 'insufficient', missing: 'short-span' });
  });

  it('asks for times when flat samples carry none', () => {
    // 1000 MB typed to 1 MB: finer than the 5 MB noise band, so flat is seen, but not for how long.
    const out = list(1000, 1000, 1000, 1000, 1000, 1000);
    expect([out.values.missing, out.verdict]).toEqual(['no-times', 'cannot tell yet: samples without times']);
  });

  it('calls a steady fall falling, not growth', () => {
    const down = list(600, 550, 500, 450, 400, 350);
    expect([down.values.shape, down.values.growthShare]).toEqual(['falling', -0.4167]);
  });

  it('needs three samples to parse at all', () => {
    const run = memorySamplesParser.create();
    run.push('100 MB', 1);
    run.push('200 MB', 2);
    expect(() => run.finish()).toThrow(/at least 3 memory samples \(6 or more to judge a shape\)/);
    expect(list(100, 200, 300).values.samples).toBe(3);
  });

  it('cites the first sample line, and the sample count for a typed list', () => {
    const out = parse('note\n100 MB\n150 MB\n200 MB\n250 MB\n300 MB\n350 MB');
    expect(out.facts.find((f) => f.kind === 'memory.growing')).toMatchObject({ line: 2, text: '6 samples' });
    expect(out.facts.find((f) => f.kind === 'parsed.memory-samples')?.line).toBe(2);
  });

  it('reads units, clock times across midnight, and date +%s seconds', () => {
    const out = parse('23:59:00 1.5 GB\n23:59:30 1536MiB\n00:00:00 2g\n');
    expect(out.values).toMatchObject({
      firstBytes: 1.5 * 1024 * MiB,
      lastBytes: 2 * 1024 * MiB,
      spanSeconds: 60,
      bareSamplesAsKiB: 0,
    });
    expect(parse('1764760000 100\n1764760030 200\n1764760060 300').values.spanSeconds).toBe(60);
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
    // Nor the spacing and limit lines a person adds.
    expect(detect('every 60s\nlimit 4 GB\n1 GB\n2 GB\n3 GB')).toBe(true);
    // Blank lines are not counted either way.
    expect(detect('1 GB\n2 GB\n3 GB\n\n')).toBe(true);
    // A size inside a sentence is not a sample.
    expect(detect('1 GB used\n2 GB used\n3 GB used')).toBe(false);
  });
});

// One JVM leaking 4 MiB/s natively, sampled every second (test/fixtures/case/SOURCES.md, jvm-native-leak).
describe("ps's own clock: the ELAPSED column times the rows", () => {
  const capture = (file: string) =>
    readFileSync(join(import.meta.dirname, '../../fixtures/case/jvm-native-leak', file), 'utf8');

  it('reads `ps -o pid,etimes,rss,...` rows at their elapsed seconds: a rate, and whose growth it is', () => {
    const out = parse(capture('ps-o.txt'));
    // ELAPSED 0 .. 44 s; RSS 39068 .. 213908 KiB, 39 rows (two seconds were skipped by the loop).
    expect(out.values).toMatchObject({ source: 'ps', pid: '16253', samples: 39, spanSeconds: 44 });
    expect(out.values.rateBytesPerSecond).toBeGreaterThan(3.9 * MiB);
    expect(out.values.rateBytesPerSecond).toBeLessThan(4.1 * MiB);
    expect(out.facts.find((f) => f.kind === 'memory.growing')?.values).toMatchObject({ pid: '16253' });
  });

  it("keeps ps u's rows untimed: its TIME is CPU time and START has minutes only", () => {
    const out = parse(capture('ps-u.txt'));
    expect(out.values).toMatchObject({ source: 'ps', pid: '16253', samples: 39 });
    expect(out.values.rateBytesPerSecond).toBeUndefined();
  });

  // Hand-written edge cases beside the capture: the two ELAPSED forms, across an hour and a day.
  it.each([
    ['etimes', ['100', '160', '220']],
    ['etime, mm:ss', ['01:00', '02:00', '03:00']],
    ['etime, hh:mm:ss across an hour', ['59:00', '1:00:00', '1:01:00']],
    ['etime, dd-hh:mm:ss across a day', ['23:59:00', '1-00:00:00', '1-00:01:00']],
  ])('reads ELAPSED as %s: three rows a minute apart span 120 s', (_form, elapsed) => {
    const rows = elapsed.map((e, i) => `  PID ELAPSED   RSS\n    7 ${e} ${1000 * (i + 1)}`);
    expect(parse(rows.join('\n')).values.spanSeconds).toBe(120);
  });
});
