/**
 * `npm run bench [-- --size 64m] [--seed 42] [--gzip|--no-gzip] [--runs 1]`
 *
 * Writes a deterministic synthetic mixed log (Spark, YARN, Flink, stack traces, long lines) with a few
 * real failure signatures buried in it, runs `memdoctor diagnose --json` on it as a child process,
 * and reports wall time, throughput and peak RSS, next to `grep -c -E` for the same signatures. Each
 * input runs twice: as the command runs by default (a large file's blocks read on every core) and
 * with MEMDOCTOR_DIAGNOSE_THREADS=0 (in order, on one thread).
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
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createGzip } from 'node:zlib';
import { generate, type Manifest, type Profile, SIGNATURES } from './generate.ts';
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

function options() {
  const { values } = parseArgs({
    options: {
      size: { type: 'string', default: '1g' },
      seed: { type: 'string', default: '42' },
      gzip: { type: 'boolean' },
      'no-gzip': { type: 'boolean' },
      runs: { type: 'string', default: '1' },
    },
  });
  const bytes = parseSizeArg(values.size ?? '1g');
  // The gzip variant costs a compression pass; by default only where that is quick.
  const gzip = values['no-gzip'] ? false : (values.gzip ?? bytes <= 256 * MiB);
  return {
    bytes,
    label: values.size ?? '1g',
    seed: Number(values.seed),
    gzip,
    runs: Math.max(1, Number(values.runs)),
  };
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

/**
 * The built command, as a user runs it (npm ci builds dist/; `npm run build` after editing src/):
 * with its default of one block thread per core, or (`oneThread`) reading in order on one thread.
 */
const diagnose = (file: string, oneThread = false) =>
  measure(
    process.execPath,
    ['bin/memdoctor.mjs', 'diagnose', '--json', file],
    ROOT,
    oneThread ? { MEMDOCTOR_DIAGNOSE_THREADS: '0' } : {},
  );

/** An ERE alternation of the signatures' literals, escaped. */
function grepPattern(): string {
  return SIGNATURES.map((s) => s.literal.replace(/[.[\]()*+?{}|^$\\]/g, '\\$&')).join('|');
}

interface Row {
  input: string;
  bytes: number;
  text: number;
  run: Run;
  startup: number;
  grep: Run;
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

function table(rows: readonly Row[]): string {
  const head = [
    'input',
    'size MiB',
    'diagnose s',
    'MiB/s',
    'MiB/s excl. startup',
    'MiB/CPU-s',
    'peak RSS MiB',
    'grep -c -E s',
    'diagnose/grep',
    'CPU diagnose/grep',
  ];
  const body = rows.map((r) => [
    r.input,
    fmt(r.bytes / MiB, 0),
    fmt(r.run.seconds, 2),
    fmt(r.text / MiB / r.run.seconds),
    fmt(r.text / MiB / Math.max(0.001, r.run.seconds - r.startup)),
    r.run.cpuSeconds === undefined ? 'n/a' : fmt(r.text / MiB / r.run.cpuSeconds),
    r.run.peakRss === undefined ? 'n/a' : fmt(r.run.peakRss / MiB, 0),
    fmt(r.grep.seconds, 2),
    `${fmt(r.run.seconds / r.grep.seconds)}x`,
    r.run.cpuSeconds === undefined || !r.grep.cpuSeconds
      ? 'n/a'
      : `${fmt(r.run.cpuSeconds / Math.max(0.01, r.grep.cpuSeconds))}x`,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => (b[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}

async function main(): Promise<number> {
  const opts = options();
  const { path, manifest } = await logFile(opts.bytes, opts.label, opts.seed);
  const tiny = join(OUT, 'tiny.log');
  writeFileSync(tiny, 'INFO nothing to see\n');
  const idle = await fastest(3, () => diagnose(tiny));
  const startup = idle.seconds;
  const bare = await fastest(5, () => measure(process.execPath, ['-e', '0'], ROOT));
  const oneLine = join(OUT, 'one-line.log');
  writeFileSync(oneLine, 'java.lang.OutOfMemoryError: Java heap space\n');
  const oneDiagnosis = await fastest(5, () => diagnose(oneLine));
  const pattern = grepPattern();
  const rows: Row[] = [];
  const plain = await fastest(opts.runs, () => diagnose(path));
  const grep = await fastest(opts.runs, () => measure('grep', ['-c', '-E', pattern, path], ROOT));
  rows.push({ input: 'synthetic', bytes: manifest.bytes, text: manifest.bytes, run: plain, startup, grep });
  const results = [{ input: 'synthetic', ...check(plain, manifest) }];
  const plainOne = await fastest(opts.runs, () => diagnose(path, true));
  rows.push({ ...(rows[0] as Row), input: 'synthetic, one thread', run: plainOne });
  results.push({ input: 'synthetic, one thread', ...check(plainOne, manifest) });
  if (grep.stdout.trim() !== String(SIGNATURES.length)) {
    results[0]?.problems.push(
      `grep counted ${grep.stdout.trim()} signature lines, expected ${SIGNATURES.length}`,
    );
  }
  const realistic = await logFile(opts.bytes, opts.label, opts.seed, 'realistic');
  const real = await fastest(opts.runs, () => diagnose(realistic.path));
  const realGrep = await fastest(opts.runs, () =>
    measure('grep', ['-c', '-E', pattern, realistic.path], ROOT),
  );
  rows.push({
    input: 'realistic',
    bytes: realistic.manifest.bytes,
    text: realistic.manifest.bytes,
    run: real,
    startup,
    grep: realGrep,
  });
  results.push({ input: 'realistic', ...check(real, realistic.manifest) });
  const realOne = await fastest(opts.runs, () => diagnose(realistic.path, true));
  rows.push({ ...(rows.at(-1) as Row), input: 'realistic, one thread', run: realOne });
  results.push({ input: 'realistic, one thread', ...check(realOne, realistic.manifest) });
  if (opts.gzip) {
    const gz = await gzipFile(path);
    const zipped = await fastest(opts.runs, () => diagnose(gz));
    const zgrep = await fastest(opts.runs, () =>
      measure('sh', ['-c', 'gzip -dc "$1" | grep -c -E "$2"', 'sh', gz, pattern], ROOT),
    );
    rows.push({
      input: 'gzip -6',
      bytes: statSync(gz).size,
      text: manifest.bytes,
      run: zipped,
      startup,
      grep: zgrep,
    });
    results.push({ input: 'gzip -6', ...check(zipped, manifest) });
  }
  console.log(
    `memdoctor diagnose bench: ${fmt(manifest.bytes / MiB, 0)} MiB, ${manifest.lines} lines, seed ${opts.seed}; ` +
      `node ${process.version}, ${cpus().length} cores, load average ${loadavg()[0]?.toFixed(1)}; startup ${fmt(startup, 2)} s, ` +
      `${idle.peakRss === undefined ? 'n/a' : fmt(idle.peakRss / MiB, 0)} MiB RSS on a one-line input; best of ${opts.runs}`,
  );
  console.log(
    `start-up: a one-line diagnose takes ${fmt(oneDiagnosis.seconds, 3)} s wall, ${oneDiagnosis.cpuSeconds === undefined ? 'n/a' : fmt(oneDiagnosis.cpuSeconds, 3)} CPU-s; ` +
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
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 2;
  },
);
