import type { Case } from './pumps.ts';

/*
 * Whether some work grows faster than linearly with the length of its input. Made for a loaded
 * 2-core machine: CPU time, not the wall clock; ratios, never absolute times, decide; each side is the
 * median of several runs.
 *
 * A ladder of lengths first (8, 12, 16 ... 16384 characters): a linear job stays under SCREEN_MS all
 * the way, and one that is exponential or cubic is stopped while its input is still short, so the
 * probe never hangs. Where a rung costs more than SCREEN_MS, the rung and a quarter of it are timed:
 * linear work grows about 4x, quadratic 16x; more than RATIO is a finding. From CONFIRM_FROM
 * characters on, a finding must hold again one step up (the rung and four times it): allocation-heavy
 * work crosses a garbage-collector threshold there and looks quadratic for one step, never for two.
 */
export const MAX_LENGTH = 16_384;
const SCREEN_MS = 2;
const RATIO = 10;
const CONFIRM_FROM = 1024;
const RUNGS = [8, 12, 16, 20, 24, 32, 48, 64, 96, 128, 256, 512, 1024, 2048, 4096, 8192, 16_384];

/**
 * Milliseconds of CPU this process spent on `run`: unlike the wall clock, it does not count the time
 * the scheduler gave other processes, which on a shared 2-core machine is most of the noise.
 */
export function cpuTime(run: () => unknown): number {
  const start = process.cpuUsage();
  run();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/** The median CPU milliseconds of `runs` runs, after one warm-up run. */
export function medianTime(run: () => unknown, runs: number): number {
  run();
  const times = Array.from({ length: runs }, () => cpuTime(run)).sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] ?? 0;
}

/** The growth from length/4 to length, as "a -> b ms", when it is more than RATIO (else undefined). */
function measure(work: (input: string) => unknown, c: Case, length: number, runs = 5): string | undefined {
  const short = c.make(Math.max(1, Math.floor(length / 4)));
  const long = c.make(length);
  const tShort = medianTime(() => work(short), runs);
  const tLong = medianTime(() => work(long), runs);
  if (tLong < SCREEN_MS / 2) return undefined;
  if (tLong <= RATIO * Math.max(tShort, 0.02)) return undefined;
  return `${c.label}: ${tShort.toFixed(2)} ms at ${short.length} -> ${tLong.toFixed(2)} ms at ${long.length} chars`;
}

/**
 * Whether one run costs more than SCREEN_MS of CPU. The wall clock screens first: it never reads less
 * than the CPU time of single-threaded work, and costs nothing to read where process.cpuUsage() is a
 * system call (two of them per run were most of the probe's time, over some 70,000 cases of 17 rungs
 * each). Only a run that looks costly on the wall clock (maybe only preempted) is timed again on CPU.
 */
function costly(work: (input: string) => unknown, input: string): boolean {
  const start = performance.now();
  work(input);
  if (performance.now() - start <= SCREEN_MS) return false;
  return cpuTime(() => work(input)) > SCREEN_MS;
}

/** The first rung that costs more than SCREEN_MS, or undefined when even MAX_LENGTH is cheap. */
function costlyRung(work: (input: string) => unknown, c: Case, max: number): number | undefined {
  for (const length of RUNGS) {
    if (length > max) return undefined;
    if (costly(work, c.make(length))) return length;
  }
  return undefined;
}

/** A finding at `rung` (confirmed one step up from CONFIRM_FROM on), or undefined. */
function findingAt(work: (input: string) => unknown, c: Case, rung: number): string | undefined {
  const finding = measure(work, c, rung);
  if (finding === undefined || rung < CONFIRM_FROM) return finding;
  const again = measure(work, c, rung * 4);
  return again === undefined ? undefined : `${finding}; ${again.slice(c.label.length + 2)}`;
}

/**
 * A finding for one case, or undefined when it grows linearly. Where the first costly rung shows no
 * growth, four times its length is looked at too: a fixed cost (the real output a parser reads first)
 * can hide the growth at the first rung past SCREEN_MS, not at four times that length (16 times the
 * quadratic part). Only cases that are costly already pay for this second look.
 */
export function superlinearCase(
  work: (input: string) => unknown,
  c: Case,
  max = MAX_LENGTH,
): string | undefined {
  const rung = costlyRung(work, c, max);
  if (rung === undefined) return undefined;
  const finding = findingAt(work, c, rung);
  if (finding !== undefined || rung * 4 > max) return finding;
  return findingAt(work, c, rung * 4);
}

/** The cases of `cases` that grow faster than linearly (up to `limit` of them). */
export function superlinear(
  work: (input: string) => unknown,
  cases: readonly Case[],
  { max = MAX_LENGTH, limit = Number.POSITIVE_INFINITY } = {},
): string[] {
  const found: string[] = [];
  for (const c of cases) {
    if (found.length >= limit) break;
    const finding = superlinearCase(work, c, max);
    if (finding) found.push(finding);
  }
  return found;
}
