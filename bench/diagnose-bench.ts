/**
 * `npm run bench [-- --size 64m] [--seed 42] [--gzip|--no-gzip] [--runs 1] [--logs dense2,dense10]
 *   [--gzip-logs synthetic,dense2] [--force-threads] [--threads N]`
 *
 * Writes deterministic logs (bench/generate.ts: synthetic, memory-heavy; realistic; realistic with 2%
 * and 10% of its lines ordinary memory wording) with a few real failure signatures buried in each,
 * runs `memdoctor diagnose --json` on each as a child process, and reports CPU time, wall time and
 * peak RSS next to `grep -c -E` for the same signatures and `cat > /dev/null` (reading the file from
 * the page cache: the floor). Each input runs twice: with block threads (MEMDOCTOR_DIAGNOSE_THREADS
 * set to --threads, by default the cores but one; the threads are opt-in) and as the command runs by
 * default, MEMDOCTOR_DIAGNOSE_THREADS=0 (in order, on one thread).
 * `--gzip-logs` names the logs (of --logs) also diagnosed gzipped, both ways, against
 * `gzip -dc | grep -c -E` (default: the synthetic one, with --gzip or at 256 MiB or less).
 * `--force-threads` starts the threads even when the machine has no core to spare
 * (bench/free-cores.mjs): by default the command reads on one thread then, and both rows measure the
 * same thing.
 * `npm run bench -- --heap [heap options]` runs the heap dump bench instead (bench/heap-bench.ts).
 */
import { once } from 'node:events';
import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createGzip } from 'node:zlib';
import { generate, type Manifest, PROFILES, type Profile, SIGNATURES } from './generate.ts';
import { runHeapBench } from './heap-bench.ts';
import { fastest, measure, type Run } from './measure.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = join(ROOT, 'bench', 'out');
const MiB = 1024 * 1024;

function parseSizeArg(text: string): number {
  const match = /^(\d+(?:\.\d+)?)([kmg]?)i?b?$/i.exec(text.trim());
  if (!match) throw new Error(`--size: expected e.g. 64m, 256m or 1g; got "${text}"`);
  const scale = { '': 1, k: 1024, m: MiB, g: 1024 * MiB }[(match[2] ?? '').toLowerCase()] ?? 1;
  return Math.round(Number(match[1]) * scale);
}

/** A comma-separated list of log kinds (PROFILES). */
function profiles(flag: string, list: string): Profile[] {
  const names = list.split(',').filter((name) => name !== '');
  const unknown = names.filter((name) => !PROFILES.includes(name as Profile));
  if (unknown.length > 0)
    throw new Error(`${flag}: expected some of ${PROFILES.join(', ')}; got ${unknown.join(', ')}`);
  return names as Profile[];
}

const USAGE = `usage: npm run bench [-- --size 64m|256m|1g] [--seed 42] [--gzip|--no-gzip] [--runs 1]
  [--logs ${PROFILES.join(',')}] [--gzip-logs synthetic,dense2] [--force-threads] [--threads N]
  or: npm run bench -- --heap [--dumps big,deep] ...   the heap dump bench (npm run bench:heap -- --help)
Writes the logs to bench/out once (reused while their manifest matches), then prints CPU, wall and
peak RSS of memdoctor diagnose beside grep -c -E and cat > /dev/null; docs/bench.md reads the table.`;

/** The options, or undefined after the usage was printed (asked for, or an option it does not know). */
function options() {
  try {
    const parsed = parseOptions();
    if (!parsed.values.help) return optionsOf(parsed.values);
    console.log(USAGE);
  } catch (error) {
    process.exitCode = 2;
    console.error(`${(error as Error).message}\n${USAGE}`);
  }
  return undefined;
}

function parseOptions() {
  return parseArgs({
    options: {
      help: { type: 'boolean', short: 'h' },
      size: { type: 'string', default: '256m' },
      seed: { type: 'string', default: '42' },
      gzip: { type: 'boolean' },
      'no-gzip': { type: 'boolean' },
      runs: { type: 'string', default: '1' },
      logs: { type: 'string', default: PROFILES.join(',') },
      'gzip-logs': { type: 'string' },
      'force-threads': { type: 'boolean', default: false },
      threads: { type: 'string' },
    },
  });
}

function optionsOf(values: ReturnType<typeof parseOptions>['values']) {
  const logs = profiles('--logs', values.logs ?? '');
  const bytes = parseSizeArg(values.size ?? '256m');
  // The gzip variant costs a compression pass; by default only where that is quick.
  const gzip = values['no-gzip'] ? false : (values.gzip ?? bytes <= 256 * MiB);
  const named = values['gzip-logs'];
  const gzipLogs: Profile[] =
    named !== undefined && !values['no-gzip'] ? profiles('--gzip-logs', named) : gzip ? ['synthetic'] : [];
  return {
    bytes,
    label: values.size ?? '256m',
    seed: Number(values.seed),
    gzipLogs,
    runs: Math.max(1, Number(values.runs)),
    logs,
    forceThreads: values['force-threads'] ?? false,
    threads: threadCount(values.threads),
  };
}

/**
 * The threads row's MEMDOCTOR_DIAGNOSE_THREADS: by default one per core but the one reading in
 * order (on a file it reads on while they read ranges from the end; src/engine/range-reader.ts).
 */
function threadCount(value: string | undefined): number {
  if (value === undefined) return Math.max(1, availableParallelism() - 1);
  const count = Number(value);
  if (!Number.isInteger(count) || count < 1 || count > 64)
    throw new Error(`--threads: expected 1 to 64; got ${value}`);
  return count;
}

/** The synthetic log for this size and seed, written once and reused while its manifest matches. */
async function logFile(
  bytes: number,
  label: string,
  seed: number,
  profile: Profile = 'synthetic',
): Promise<{ path: string; manifest: Manifest }> {
  mkdirSync(OUT, { recursive: true });
  const name = profile === 'synthetic' ? 'mixed' : profile;
  const path = join(OUT, `${name}-${label}-seed${seed}.log`);
  const manifestPath = `${path}.json`;
  if (existsSync(path) && existsSync(manifestPath)) {
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
    if (manifest.seed === seed && statSync(path).size === manifest.bytes) return { path, manifest };
  }
  process.stderr.write(`writing ${path} ...\n`);
  const manifest = await generate(path, bytes, seed, profile);
  writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
  return { path, manifest };
}

async function gzipFile(path: string): Promise<string> {
  const target = `${path}.gz`;
  if (existsSync(target) && statSync(target).mtimeMs >= statSync(path).mtimeMs) return target;
  process.stderr.write(`compressing ${target} ...\n`);
  const out = createReadStream(path)
    .pipe(createGzip({ level: 6 }))
    .pipe(createWriteStream(target));
  await once(out, 'finish');
  return target;
}

const FREE_CORES = join(ROOT, 'bench', 'free-cores.mjs');
let forceThreads = false;
let threads = 1;

/**
 * The built command, as a user runs it (npm ci builds dist/; `npm run build` after editing src/):
 * with --threads block threads, or (`oneThread`) reading in order on one thread.
 */
const diagnose = (file: string, oneThread = false) =>
  measure(
    process.execPath,
    [
      ...(forceThreads && !oneThread ? ['--import', FREE_CORES] : []),
      'bin/memdoctor.mjs',
      'diagnose',
      '--json',
      file,
    ],
    ROOT,
    // The threads are off by default (src/config.ts): the threads row asks for them (--threads).
    { MEMDOCTOR_DIAGNOSE_THREADS: oneThread ? '0' : String(threads) },
  );

/** An ERE alternation of the signatures' literals, escaped. */
function grepPattern(): string {
  return SIGNATURES.map((s) => s.literal.replace(/[.[\]()*+?{}|^$\\]/g, '\\$&')).join('|');
}

interface Row {
  input: string;
  bytes: number;
  run: Run;
  grep: Run;
  /** `cat FILE > /dev/null`: reading the file, nothing else. */
  floor: Run;
}

interface Cited {
  id: string;
  line: number;
  by: string[];
}

/** Which diagnoses cite each buried signature line; checks the input stats too. */
function check(run: Run, manifest: Manifest): { cited: Cited[]; problems: string[] } {
  const problems: string[] = [];
  if (run.exitCode !== 0) problems.push(`diagnose exited ${run.exitCode}: ${run.stderr.trim()}`);
  const report = JSON.parse(run.stdout.trim().split('\n')[0] ?? '{}') as {
    input?: { bytes: number; lines: number };
    diagnoses?: Array<{ playbook: string; evidence: Array<{ line: number }> }>;
  };
  if (report.input?.bytes !== manifest.bytes || report.input?.lines !== manifest.lines) {
    problems.push(
      `input stats ${JSON.stringify(report.input)} != ${manifest.bytes} bytes, ${manifest.lines} lines`,
    );
  }
  const cited = Object.entries(manifest.buried).map(([id, line]) => ({
    id,
    line,
    by: (report.diagnoses ?? [])
      .filter((d) => d.evidence.some((e) => e.line === line))
      .map((d) => d.playbook),
  }));
  for (const c of cited)
    if (c.by.length === 0) problems.push(`signature ${c.id} (line ${c.line}) was not cited`);
  return { cited, problems };
}

const fmt = (n: number, digits = 1) => n.toFixed(digits);
const cpu = (run: Run) => (run.cpuSeconds === undefined ? 'n/a' : fmt(run.cpuSeconds, 2));
const ratio = (a: number | undefined, b: number | undefined) =>
  a === undefined || b === undefined ? 'n/a' : `${fmt(a / Math.max(0.01, b))}x`;

function table(rows: readonly Row[]): string {
  const head = [
    'input',
    'MiB',
    'diagnose CPU s',
    'wall s',
    'peak RSS MiB',
    'grep -c -E CPU s',
    'grep wall s',
    'cat CPU s',
    'cat wall s',
    'CPU / grep',
    'wall / grep',
    'wall / cat',
  ];
  const body = rows.map((r) => [
    r.input,
    fmt(r.bytes / MiB, 0),
    cpu(r.run),
    fmt(r.run.seconds, 2),
    r.run.peakRss === undefined ? 'n/a' : fmt(r.run.peakRss / MiB, 0),
    cpu(r.grep),
    fmt(r.grep.seconds, 2),
    cpu(r.floor),
    fmt(r.floor.seconds, 2),
    ratio(r.run.cpuSeconds, r.grep.cpuSeconds),
    ratio(r.run.seconds, r.grep.seconds),
    ratio(r.run.seconds, r.floor.seconds),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => (b[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}

type Options = ReturnType<typeof optionsOf>;
interface Result {
  input: string;
  cited: Cited[];
  problems: string[];
}

/** One log: diagnose with its threads and on one thread, grep and cat beside it. */
async function benchLog(
  profile: Profile,
  opts: Options,
  pattern: string,
): Promise<{ rows: Row[]; results: Result[] }> {
  const { path, manifest } = await logFile(opts.bytes, opts.label, opts.seed, profile);
  const grep = await fastest(opts.runs, () => measure('grep', ['-c', '-E', pattern, path], ROOT));
  const floor = await fastest(opts.runs, () =>
    measure('sh', ['-c', 'cat "$1" > /dev/null', 'sh', path], ROOT),
  );
  const rows: Row[] = [];
  const results: Result[] = [];
  for (const oneThread of [false, true]) {
    const input = oneThread ? `${profile}, one thread` : profile;
    const run = await fastest(opts.runs, () => diagnose(path, oneThread));
    rows.push({ input, bytes: manifest.bytes, run, grep, floor });
    results.push({ input, ...check(run, manifest) });
  }
  if (grep.stdout.trim() !== String(SIGNATURES.length))
    results[0]?.problems.push(
      `grep counted ${grep.stdout.trim()} signature lines, expected ${SIGNATURES.length}`,
    );
  if (!opts.gzipLogs.includes(profile)) return { rows, results };
  const gz = await gzipFile(path);
  const zgrep = await fastest(opts.runs, () =>
    measure('sh', ['-c', 'gzip -dc "$1" | grep -c -E "$2"', 'sh', gz, pattern], ROOT),
  );
  const zcat = await fastest(opts.runs, () =>
    measure('sh', ['-c', 'gzip -dc "$1" > /dev/null', 'sh', gz], ROOT),
  );
  for (const oneThread of [false, true]) {
    const input = `${profile}, gzip -6${oneThread ? ', one thread' : ''}`;
    const zipped = await fastest(opts.runs, () => diagnose(gz, oneThread));
    const bytes = statSync(gz).size;
    rows.push({
      input: `${input} (grep and cat after gzip -dc)`,
      bytes,
      run: zipped,
      grep: zgrep,
      floor: zcat,
    });
    results.push({ input, ...check(zipped, manifest) });
  }
  return { rows, results };
}

async function main(): Promise<number | undefined> {
  // `--heap`: the heap dump bench instead of the logs (bench/heap-bench.ts reads the other options).
  if (process.argv.includes('--heap')) return runHeapBench(process.argv.slice(2));
  const opts = options();
  if (!opts) return undefined;
  forceThreads = opts.forceThreads;
  threads = opts.threads;
  mkdirSync(OUT, { recursive: true });
  const tiny = join(OUT, 'tiny.log');
  writeFileSync(tiny, 'INFO nothing to see\n');
  const idle = await fastest(3, () => diagnose(tiny));
  const bare = await fastest(5, () => measure(process.execPath, ['-e', '0'], ROOT));
  const oneLine = join(OUT, 'one-line.log');
  writeFileSync(oneLine, 'java.lang.OutOfMemoryError: Java heap space\n');
  const oneDiagnosis = await fastest(5, () => diagnose(oneLine));
  const pattern = grepPattern();
  const rows: Row[] = [];
  const results: Result[] = [];
  const loadBefore = loadavg()[0];
  for (const profile of opts.logs) {
    const log = await benchLog(profile, opts, pattern);
    rows.push(...log.rows);
    results.push(...log.results);
  }
  console.log(
    `memdoctor diagnose bench: ${fmt(opts.bytes / MiB, 0)} MiB logs, seed ${opts.seed}; ` +
      `node ${process.version}, ${cpus().length} cores, load average ${loadBefore?.toFixed(1)} before, ${loadavg()[0]?.toFixed(1)} after; ` +
      `${idle.peakRss === undefined ? 'n/a' : fmt(idle.peakRss / MiB, 0)} MiB RSS on a one-line input; best of ${opts.runs} (by wall time)` +
      (opts.forceThreads ? '; threads forced on (--force-threads)' : ''),
  );
  console.log(
    `start-up: a one-line diagnose takes ${fmt(oneDiagnosis.seconds, 3)} s wall, ${cpu(oneDiagnosis)} CPU-s; ` +
      `node -e 0 takes ${fmt(bare.seconds, 3)} s (${fmt(oneDiagnosis.seconds / bare.seconds)}x); best of 5`,
  );
  console.log(table(rows));
  for (const r of results) {
    for (const c of r.cited)
      console.log(`${r.input}: ${c.id} at line ${c.line} cited by ${c.by.join(', ') || 'NOTHING'}`);
    for (const p of r.problems) console.log(`${r.input}: PROBLEM: ${p}`);
  }
  return results.some((r) => r.problems.length > 0) ? 1 : 0;
}

main().then(
  (code) => {
    if (code !== undefined) process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 2;
  },
);
