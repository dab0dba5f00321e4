/**
 * `npm run bench:heap [-- --dumps big,deep] [--visualvm-timeout 900] [--memdoctor-timeout 900]
 *   [--out DIR] [--big-sessions 4875000]` (also `npm run bench -- --heap ...`)
 *
 * The heap dump bench (issue 36). Java programs (bench/heap/) write two real HPROF dumps once, reused
 * while their manifest matches: **big**, a static session cache of ~19.5M objects (~1 GB), and
 * **deep**, a static LinkedList of 186,000 nodes (~61 MB). On each, in the same run, it times:
 * - VisualVM's heap library (Debian's `visualvm` package) finding the 20 biggest objects by retained
 *   size (scripts/reference/HeapReference.java --biggest-only), under --visualvm-timeout seconds;
 * - memdoctor: `bin/memdoctor.mjs diagnose --json <dump>` (THE MEMDOCTOR HOOK below). Until memdoctor
 *   reads heap dumps that command refuses them; the row then says it was skipped and why.
 * Each with wall time, CPU time, peak RSS (GNU time -v; `apt-get install time`) and the load average
 * when it started (the machine may be shared), then the ratios
 * the issue sets as targets: memdoctor's wall at most half VisualVM's, its peak RSS under 30%.
 * The dumps and a JSON of the results go to --out (default bench/out/heap, gitignored).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { measure, type Run } from './measure.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MiB = 1024 * 1024;
const VISUALVM_JAR = '/usr/share/visualvm/visualvm/modules/org-graalvm-visualvm-lib-jfluid-heap.jar';

/** How each dump is made: the program, its arguments and the heap it needs. */
interface DumpPlan {
  name: 'big' | 'deep';
  program: string;
  args: string[];
  xmx: string;
  /** What the dump holds, for the table. */
  holds: string;
}

function plans(bigSessions: number): DumpPlan[] {
  return [
    {
      name: 'big',
      program: 'SessionCache',
      args: [String(bigSessions), '64'],
      xmx: '1400m',
      holds: `static HashMap of ${bigSessions} sessions, ~${((bigSessions * 4) / 1e6).toFixed(1)}M objects`,
    },
    {
      name: 'deep',
      program: 'DeepQueue',
      args: ['186000', '244'],
      xmx: '256m',
      holds: 'static LinkedList of 186000 nodes',
    },
  ];
}

const USAGE = `usage: npm run bench:heap [-- --dumps big,deep] [--visualvm-timeout 900] [--memdoctor-timeout 900]
  [--out bench/out/heap] [--big-sessions 4875000]
Writes the dumps once (Java programs in bench/heap/), then times VisualVM's heap library and memdoctor
on each, with peak RSS; docs/bench.md reads the table. Needs java, javac and Debian's visualvm.`;

function parseOptions(argv: string[]) {
  return parseArgs({
    args: argv,
    options: {
      help: { type: 'boolean', short: 'h' },
      heap: { type: 'boolean' }, // `npm run bench -- --heap` hands its arguments over unchanged
      dumps: { type: 'string', default: 'big,deep' },
      'visualvm-timeout': { type: 'string', default: '900' },
      'memdoctor-timeout': { type: 'string', default: '900' },
      out: { type: 'string', default: join(ROOT, 'bench', 'out', 'heap') },
      'big-sessions': { type: 'string', default: '4875000' },
    },
  }).values;
}

type Options = ReturnType<typeof optionsOf>;

function seconds(flag: string, text: string | undefined): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${flag}: expected seconds; got "${text}"`);
  return value;
}

function optionsOf(values: ReturnType<typeof parseOptions>) {
  const names = (values.dumps ?? '').split(',').filter((name) => name !== '');
  const unknown = names.filter((name) => name !== 'big' && name !== 'deep');
  if (unknown.length > 0) throw new Error(`--dumps: expected big and/or deep; got ${unknown.join(', ')}`);
  const sessions = Number(values['big-sessions']);
  if (!Number.isInteger(sessions) || sessions < 1) throw new Error('--big-sessions: expected a count');
  return {
    dumps: plans(sessions).filter((plan) => names.includes(plan.name)),
    visualvmTimeout: seconds('--visualvm-timeout', values['visualvm-timeout']),
    memdoctorTimeout: seconds('--memdoctor-timeout', values['memdoctor-timeout']),
    out: values.out ?? join(ROOT, 'bench', 'out', 'heap'),
  };
}

/** What the bench cannot run without, as a sentence per missing thing. */
function missingTools(): string[] {
  const missing: string[] = [];
  for (const tool of ['java', 'javac', 'timeout'])
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) missing.push(`${tool} is not on PATH`);
  if (!existsSync(VISUALVM_JAR)) missing.push(`${VISUALVM_JAR} is missing: apt-get install visualvm`);
  if (!existsSync('/usr/bin/time')) missing.push('GNU time is missing (peak RSS): apt-get install time');
  return missing;
}

/** Compiles the dump programs and the reference program into <out>/classes. */
function compile(out: string): string {
  const classes = join(out, 'classes');
  mkdirSync(classes, { recursive: true });
  execFileSync('javac', [
    '-cp',
    VISUALVM_JAR,
    '-d',
    classes,
    join(ROOT, 'bench', 'heap', 'SessionCache.java'),
    join(ROOT, 'bench', 'heap', 'DeepQueue.java'),
    join(ROOT, 'scripts', 'reference', 'HeapReference.java'),
  ]);
  return classes;
}

interface Manifest {
  program: string;
  args: string[];
  xmx: string;
  bytes: number;
  javaVersion: string;
  stdout: string;
}

function javaVersion(): string {
  return spawnSync('java', ['-version'], { encoding: 'utf8' }).stderr.trim().split('\n')[0] ?? '';
}

/** The dump for this plan: written once, reused while its manifest says it was made the same way. */
function dumpFile(plan: DumpPlan, out: string, classes: string): { path: string; manifest: Manifest } {
  const path = join(out, `${plan.name}.hprof`);
  const manifestPath = `${path}.json`;
  if (existsSync(path) && existsSync(manifestPath)) {
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
    const same = manifest.program === plan.program && manifest.args.join(' ') === plan.args.join(' ');
    if (same && statSync(path).size === manifest.bytes) return { path, manifest };
  }
  process.stderr.write(`writing ${path} (${plan.holds}) ...\n`);
  rmSync(path, { force: true }); // dumpHeap refuses to overwrite
  const stdout = execFileSync('java', [`-Xmx${plan.xmx}`, '-cp', classes, plan.program, ...plan.args, path], {
    encoding: 'utf8',
  });
  const manifest: Manifest = {
    program: plan.program,
    args: plan.args,
    xmx: plan.xmx,
    bytes: statSync(path).size,
    javaVersion: javaVersion(),
    stdout: stdout.trim(),
  };
  writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
  return { path, manifest };
}

/** One tool on one dump: how it went, or why it gave no answer. */
interface Row {
  dump: string;
  tool: 'VisualVM heap library' | 'memdoctor';
  run?: Run;
  /** What it found, in a few words; or why the row has no figures. */
  answer: string;
  finished: boolean;
  /** The 1-minute load average when the run started. */
  load?: number;
}

const KILLED = 137; // `timeout -s KILL` reports 128 + 9
/**
 * --foreground: timeout signals only its child and waits for it, so GNU time still gets the killed
 * run's CPU time and peak RSS (without it timeout kills its whole process group, itself included).
 */
const TIMEOUT = ['--foreground', '-s', 'KILL'];

/** VisualVM's heap library: load the dump, find the 20 biggest objects by retained size. */
async function visualvm(dump: string, classes: string, limit: number): Promise<Row> {
  // The library keeps its indexes in <dump>.hwcache and reuses them: every timed run starts cold.
  rmSync(`${dump}.hwcache`, { recursive: true, force: true });
  const run = await measure(
    'timeout',
    [
      ...TIMEOUT,
      String(limit),
      'java',
      '-cp',
      `${classes}:${VISUALVM_JAR}`,
      'HeapReference',
      dump,
      '--biggest-only',
    ],
    ROOT,
  );
  const base = { dump, tool: 'VisualVM heap library' as const, run };
  if (run.exitCode === KILLED) {
    const progress = /loaded in \d+ ms/.exec(run.stderr)?.[0] ?? 'still loading';
    return { ...base, finished: false, answer: `did not finish in ${limit} s (killed; ${progress})` };
  }
  try {
    const result = JSON.parse(run.stdout) as {
      error?: string;
      biggestObjects?: { class: string; classObjectOf?: string; retainedBytes: number }[];
    };
    const top = result.biggestObjects?.[0];
    if (result.error || !top)
      return { ...base, finished: false, answer: `failed: ${result.error ?? 'no answer'}` };
    return {
      ...base,
      finished: true,
      answer: `biggest: ${top.classObjectOf ? `class ${top.classObjectOf}` : top.class} retains ${fmt(top.retainedBytes / MiB, 1)} MiB`,
    };
  } catch {
    return { ...base, finished: false, answer: `exit ${run.exitCode}: ${firstLine(run.stderr)}` };
  }
}

// ---- THE MEMDOCTOR HOOK ----------------------------------------------------------------------
// memdoctor's side of the comparison: the command a user runs on a dump (src/engine/heap through
// `diagnose`). Change only what is timed here, so both sides stay measured the same way.
async function memdoctor(dump: string, limit: number): Promise<Row> {
  const run = await measure(
    'timeout',
    [...TIMEOUT, String(limit), process.execPath, 'bin/memdoctor.mjs', 'diagnose', '--json', dump],
    ROOT,
  );
  const base = { dump, tool: 'memdoctor' as const, run };
  if (run.exitCode === KILLED)
    return { ...base, finished: false, answer: `did not finish in ${limit} s (killed)` };
  if (run.exitCode !== 0)
    return {
      ...base,
      finished: false,
      answer: `failed: diagnose --json exited ${run.exitCode}: ${firstLine(run.stderr || run.stdout)}`,
    };
  return { ...base, finished: true, answer: summarize(run.stdout, run.stderr) };
}

/**
 * The leak suspect from the heap evidence `diagnose` prints on stderr (`dominator: ... retains ...`),
 * and the first diagnosis from its JSON on stdout.
 */
function summarize(stdout: string, stderr: string): string {
  const suspect = /dominator: (.*)$/m.exec(stderr)?.[1] ?? 'no suspect';
  let diagnosis: string;
  try {
    const report = JSON.parse(stdout) as { diagnoses?: { id?: string; title?: string }[] };
    const first = report.diagnoses?.[0];
    diagnosis = first ? `first diagnosis: ${first.title ?? first.id}` : 'no diagnosis (no OOM in it)';
  } catch {
    diagnosis = `not JSON: ${firstLine(stdout)}`;
  }
  return `${suspect}; ${diagnosis}`;
}
// ---- end of the memdoctor hook ----------------------------------------------------------------

function firstLine(text: string): string {
  return (text.trim().split('\n')[0] ?? '').slice(0, 160);
}

function fmt(value: number, digits = 2): string {
  return value.toFixed(digits);
}

function mib(bytes: number | undefined): string {
  return bytes === undefined ? 'n/a' : fmt(bytes / MiB, 0);
}

function table(rows: Row[], sizes: Map<string, number>): string {
  const lines = [
    '| dump | size MiB | tool | load | wall s | CPU s | peak RSS MiB | answer |',
    '| ---- | -------- | ---- | ---- | ------ | ----- | ------------ | ------ |',
  ];
  for (const r of rows) {
    const figures = r.run
      ? [
          fmt(r.run.seconds),
          r.run.cpuSeconds === undefined ? 'n/a' : fmt(r.run.cpuSeconds),
          mib(r.run.peakRss),
        ]
      : ['-', '-', '-'];
    lines.push(
      `| ${r.dump} | ${fmt((sizes.get(r.dump) ?? 0) / MiB, 0)} | ${r.tool} | ${r.load === undefined ? 'n/a' : fmt(r.load, 1)} | ${figures.join(' | ')} | ${r.answer} |`,
    );
  }
  return lines.join('\n');
}

/** memdoctor against VisualVM on one dump, where both finished: the issue's two targets. */
function ratios(dump: string, rows: Row[]): string | undefined {
  const vv = rows.find((r) => r.dump === dump && r.tool === 'VisualVM heap library');
  const md = rows.find((r) => r.dump === dump && r.tool === 'memdoctor');
  if (!vv?.run || !md?.run || !md.finished) return undefined;
  const wall = md.run.seconds / vv.run.seconds;
  const cpu = md.run.cpuSeconds && vv.run.cpuSeconds ? md.run.cpuSeconds / vv.run.cpuSeconds : undefined;
  const rss = vv.run.peakRss && md.run.peakRss ? md.run.peakRss / vv.run.peakRss : undefined;
  const note = vv.finished ? '' : ' (VisualVM did not finish: its figures are a lower bound)';
  const met = (ratio: number | undefined, limit: number, strict: boolean) =>
    ratio === undefined ? '' : (strict ? ratio < limit : ratio <= limit) ? ', met' : ', NOT met';
  return (
    `${dump}: memdoctor/VisualVM wall ${fmt(wall)}x (target <= 0.50${met(wall, 0.5, false)}), ` +
    `CPU ${cpu === undefined ? 'n/a' : `${fmt(cpu)}x`}, ` +
    `peak RSS ${rss === undefined ? 'n/a' : `${fmt(rss)}x`} (target < 0.30${met(rss, 0.3, true)})${note}`
  );
}

export async function runHeapBench(argv: string[]): Promise<number> {
  let opts: Options;
  try {
    const values = parseOptions(argv);
    if (values.help) {
      console.log(USAGE);
      return 0;
    }
    opts = optionsOf(values);
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const missing = missingTools();
  if (missing.length > 0) {
    console.error(`heap bench: cannot run: ${missing.join('; ')}`);
    return 2;
  }
  mkdirSync(opts.out, { recursive: true });
  const classes = compile(opts.out);
  const rows: Row[] = [];
  const sizes = new Map<string, number>();
  const loadBefore = loadavg()[0];
  for (const plan of opts.dumps) {
    const { path, manifest } = dumpFile(plan, opts.out, classes);
    const label = `${plan.name}.hprof`;
    sizes.set(label, manifest.bytes);
    process.stderr.write(`${label}: memdoctor ...\n`);
    let load = loadavg()[0];
    rows.push({ ...(await memdoctor(path, opts.memdoctorTimeout)), dump: label, load });
    process.stderr.write(`${label}: VisualVM heap library ...\n`);
    load = loadavg()[0];
    rows.push({ ...(await visualvm(path, classes, opts.visualvmTimeout)), dump: label, load });
  }
  console.log(
    `heap dump bench: ${javaVersion()}; node ${process.version}, ${cpus().length} cores, ` +
      `${fmt(totalmem() / 1024 ** 3, 0)} GiB RAM, load average ${loadBefore?.toFixed(1)} before, ` +
      `${loadavg()[0]?.toFixed(1)} after; one run each`,
  );
  console.log(table(rows, sizes));
  for (const plan of opts.dumps)
    console.log(
      ratios(`${plan.name}.hprof`, rows) ?? `${plan.name}.hprof: no ratio (memdoctor gave no answer)`,
    );
  const results = join(opts.out, `heap-bench-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(
    results,
    JSON.stringify(
      rows.map(({ run, ...row }) => ({
        node: process.version,
        ...row,
        seconds: run?.seconds,
        cpuSeconds: run?.cpuSeconds,
        peakRss: run?.peakRss,
      })),
      null,
      2,
    ),
  );
  console.log(`results: ${results}`);
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  runHeapBench(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(error);
      process.exitCode = 2;
    },
  );
}
