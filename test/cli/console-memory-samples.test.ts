import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runRealConsole } from './console-harness.ts';

// Live runs of scripts/capture/python/matrix.sh (test/engine/parsers/fixtures/SOURCES.md), at rates
// and intervals the older fixtures (8 MiB/s, every second) do not have.
const sample = (name: string) =>
  readFileSync(new URL(`../engine/parsers/fixtures/memory-samples/${name}`, import.meta.url), 'utf8').replace(
    /\n$/,
    '',
  );

// beam-python-leak: "Another release" (2), then the samples paste step.
const TO_SAMPLES = ['walk beam-python-leak', '2'];
const SHAPE = 'What shape does the memory graph have?';

describe('memory samples pasted at the console (issue 21, items 3 and 4)', () => {
  it('takes a 14 MiB/s climb sampled every 2 s with ps as a leak, with its rate', async () => {
    const out = await runRealConsole([...TO_SAMPLES, sample('live-ps-climb-14mibs-2s.txt'), '.', 'status']);
    expect(out).toMatch(
      /\(answered\) Is memory really growing\?: 12 samples over 22 s: .* Climbing 13.9 MB\/s\./,
    );
    expect(out).toContain(`(known) ${SHAPE}: It keeps climbing as data is processed`);
    expect(out).toMatch(/active {2}at "Make the leak small and repeatable"/);
  });

  it('takes flat, one 100 MiB step, then flat from top -b as a level, not a climb', async () => {
    const out = await runRealConsole([...TO_SAMPLES, sample('live-top-step-100mib-1s.txt'), '.', 'status']);
    expect(out).toContain('One step of 100 MB at sample 4, then flat at 133 MB');
    expect(out).toContain(`(known) ${SHAPE}: It jumps to a high level and stays there`);
    expect(out).not.toContain('It keeps climbing');
    expect(out).toMatch(/active {2}at "Does memory come back down after the heavy work\?"/);
  });

  it("asks for more samples when top's 4.3g lost the resolution, and judges the ps samples then", async () => {
    const out = await runRealConsole([
      ...TO_SAMPLES,
      sample('live-top-climb-14mibs-big-1s.txt'),
      '.',
      sample('live-ps-climb-14mibs-big-1s.txt'),
      '.',
      'status',
    ]);
    expect(out).toContain('only known to 102 MB (resolution lost): sample with `ps -o rss= -p <pid>`');
    expect(out).toContain(`(known) ${SHAPE}: The samples are too few or too short to tell`);
    expect(out).toContain('-- Step 4: Take more samples');
    expect(out).toContain('(known) What shape does the memory graph have now?: It keeps climbing');
    expect(out).toMatch(/active {2}at "Make the leak small and repeatable"/);
  });

  it('asks for a longer span when an idle process was watched for 8 s', async () => {
    const out = await runRealConsole([...TO_SAMPLES, sample('live-status-idle-8s.txt'), '.', 'status']);
    expect(out).toContain('sample for longer (hours)');
    expect(out).toMatch(/active {2}at "Take more samples"/);
    expect(out).not.toContain('No steady growth seen');
  });
});
