/**
 * `npm run bench:upload -- [--pastes 50] [--uploads 4] [--upload-mib 32] [--cap-mib 128]`
 *   `[--timeline FILE] [--trace-gc FILE] [--snapshots DIR] [--case-max-mib N]`
 *
 * Peak memory of the Slack app under issue 27's load: N concurrent `/memdoctor` commands with a
 * 40 KB paste each while M plain-text uploads of the given size are shared in memdoctor threads at
 * once. The app is `startSlack` itself in a process of its own (bench/ack-app.ts: worker pool and
 * all, its diagnosis threads inside that process), with MEMDOCTOR_MAX_INFLIGHT_BYTES set to the
 * cap; this process plays Slack (test/slack/support's fake) and sends the signed requests. Peak
 * RSS is the kernel's high-water mark of the app process (VmHWM in /proc/<pid>/status), read
 * after every input was answered, and cross-checked by polling VmRSS every 20 ms. The in-flight
 * cap's own peak is read from the app's /metrics. To see where the memory goes: `--timeline` writes
 * the RSS samples beside the app's file events, `--trace-gc` V8's GC trace of every isolate,
 * `--snapshots` heap snapshots of the event loop at idle and after the load.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { openSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { FakeSlack } from '../test/slack/support/fake-slack.ts';
import { BOT_TOKEN, freePort, SIGNING_SECRET, waitFor } from '../test/slack/support/harness.ts';
import { eventEnvelope, fileShareEvent, slashCommand } from '../test/slack/support/payloads.ts';
import { slackSignature } from '../test/slack/support/signing.ts';

const METRICS_TOKEN = 'bench-metrics-token';
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MiB = 1024 * 1024;
const ORDINARY =
  '24/11/30 10:00:01 INFO TaskSetManager: Finished task 3.0 in stage 7.0 (TID 42) in 1234 ms on host-17 (executor 5) (3/200)\n';
const OOM = 'java.lang.OutOfMemoryError: Java heap space\n';
const PASTE = ORDINARY.repeat(Math.floor((40 * 1024) / ORDINARY.length)) + OOM;

/** A figure from /proc/<pid>/status, in MiB (kB in the file). */
function statusMiB(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) / 1024;
}

/** A moment of the run: an RSS sample or one of the app's log lines about a file. */
interface TimedEvent {
  at: number;
  text: string;
}

/** The run's RSS samples and file events in time order, ms from when the load was sent. */
function writeTimeline(file: string, started: number, events: readonly TimedEvent[]): void {
  const lines = [...events]
    .sort((a, b) => a.at - b.at)
    .map((event) => `${(event.at - started).toFixed(0)}\t${event.text}`);
  writeFileSync(file, `${lines.join('\n')}\n`);
}

/** What the app's own process is run with beyond the defaults: a GC trace written to a file. */
interface Trace {
  gcFile?: string;
  /** Heap snapshots of the app's event loop (Node's --heapsnapshot-signal), written in this folder. */
  snapshotDir?: string;
  caseMaxBytes?: number;
}

async function startApp(
  fake: FakeSlack,
  capBytes: number,
  trace: Trace,
): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  // --trace-gc is a V8 flag, so every isolate (the event loop's and each pool thread's) prints its collections.
  const gc = [
    ...(trace.gcFile ? ['--trace-gc'] : []),
    ...(trace.snapshotDir ? ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${trace.snapshotDir}`] : []),
  ];
  const stdout = trace.gcFile ? openSync(trace.gcFile, 'w') : 'ignore';
  const child = spawn(process.execPath, [...gc, '--import', 'tsx', 'bench/ack-app.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: fake.apiUrl,
      MEMDOCTOR_ALLOW_HTTP_LOOPBACK: 'true',
      MEMDOCTOR_MAX_UPLOAD_BYTES: String(64 * MiB),
      MEMDOCTOR_MAX_INFLIGHT_BYTES: String(capBytes),
      MEMDOCTOR_ENGINE_QUEUE: '200',
      MEMDOCTOR_METRICS_TOKEN: METRICS_TOKEN,
      ...(trace.caseMaxBytes ? { MEMDOCTOR_CASE_MAX_BYTES: String(trace.caseMaxBytes) } : {}),
      // info: the app logs each file it diagnosed with the bytes it read (uploadsRead).
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', stdout, 'pipe', 'ipc'],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(async () => (await fetch(`${url}/livez`).catch(() => undefined))?.ok, 30_000);
  return { child, url };
}

/**
 * The bytes the app read of each upload, by file id, from its 'file diagnosed' log lines (the log
 * is NDJSON on stderr): a figure measured while an upload was read as empty is not the figure of
 * the load it claims. Warnings and errors, and anything not JSON, are passed on as they come.
 */
function uploadsRead(child: ChildProcess, events: TimedEvent[]): Map<string, number> {
  const read = new Map<string, number>();
  createInterface({ input: child.stderr as NodeJS.ReadableStream }).on('line', (line) => {
    let entry: { level?: number; msg?: string; file?: string; bytes?: number };
    try {
      entry = JSON.parse(line) as typeof entry;
    } catch {
      return void process.stderr.write(`${line}\n`);
    }
    if (entry.msg === 'file diagnosed' && entry.file) read.set(entry.file, entry.bytes ?? 0);
    if (entry.file) events.push({ at: performance.now(), text: `${entry.msg} ${entry.file}` });
    if ((entry.level ?? 0) >= 40) process.stderr.write(`${line}\n`);
  });
  return read;
}

/** The most bytes the in-flight cap counted at once, from the app's GET /metrics (memdoctor_inflight_bytes_peak). */
async function inflightPeakMiB(url: string): Promise<number> {
  const answer = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const peak = /^memdoctor_inflight_bytes_peak (\d+)/m.exec(await answer.text())?.[1];
  return Number(peak ?? Number.NaN) / MiB;
}

function signed(body: string, type: string): RequestInit {
  const timestamp = Math.floor(Date.now() / 1000);
  return {
    method: 'POST',
    headers: {
      'content-type': type,
      'x-slack-request-timestamp': String(timestamp),
      'x-slack-signature': slackSignature(SIGNING_SECRET, timestamp, body),
    },
    body,
  };
}

/** An upload of about `bytes`: ordinary lines, then the OutOfMemoryError at its very end. */
function uploadBody(bytes: number): Buffer {
  return Buffer.from(ORDINARY.repeat(Math.floor(bytes / ORDINARY.length)) + OOM);
}

function uploadRequest(fake: FakeSlack, n: number, bytes: number): RequestInit {
  const file = fake.addFile(`F${n}`, `big-${n}.log`, uploadBody(bytes));
  const event = fileShareEvent({
    user: `UUP${n}`,
    channel: 'C1',
    threadTs: `1700000000.00000${n}`,
    parentUserId: fake.botUserId,
    files: [file],
  });
  return signed(JSON.stringify(eventEnvelope(event)), 'application/json');
}

function pasteRequest(fake: FakeSlack, n: number): RequestInit {
  const fields = slashCommand(PASTE, { user: `U${n}`, channel: 'C2', responseUrl: fake.responseUrl });
  return signed(new URLSearchParams(fields).toString(), 'application/x-www-form-urlencoded');
}

/** Inputs told to try again: a command through its response_url, an upload privately in its thread. */
function refusals(fake: FakeSlack): number {
  const tryAgain = (message: unknown) => JSON.stringify(message).includes('Try again');
  return (
    fake.responses.filter(tryAgain).length +
    fake.callsTo('chat.postEphemeral').filter((c) => tryAgain(c.args)).length
  );
}

/** Every input answered: a diagnosis posted, or a "try again" sent back. */
function answered(fake: FakeSlack): number {
  return fake.callsTo('chat.postMessage').length + refusals(fake);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      pastes: { type: 'string', default: '50' },
      uploads: { type: 'string', default: '4' },
      'upload-mib': { type: 'string', default: '32' },
      'cap-mib': { type: 'string', default: '128' },
      // Measuring where the memory goes: RSS every 20 ms beside the app's file events, and V8's GC trace.
      timeline: { type: 'string' },
      'trace-gc': { type: 'string' },
      'case-max-mib': { type: 'string' },
      snapshots: { type: 'string' },
    },
  });
  const [pastes, uploads] = [Number(values.pastes), Number(values.uploads)];
  const uploadBytes = Number(values['upload-mib']) * MiB;
  const cap = Number(values['cap-mib']) * MiB;
  const fake = new FakeSlack(BOT_TOKEN);
  await fake.start();
  const requests = [
    ...Array.from({ length: uploads }, (_, i) => uploadRequest(fake, i + 1, uploadBytes)),
    ...Array.from({ length: pastes }, (_, i) => pasteRequest(fake, i + 1)),
  ];
  const caseMiB = values['case-max-mib'];
  const app = await startApp(fake, cap, {
    ...(values['trace-gc'] ? { gcFile: values['trace-gc'] } : {}),
    ...(caseMiB ? { caseMaxBytes: Number(caseMiB) * MiB } : {}),
    ...(values.snapshots ? { snapshotDir: values.snapshots } : {}),
  });
  const events: TimedEvent[] = [];
  const read = uploadsRead(app.child, events);
  const pid = app.child.pid as number;
  const idle = statusMiB(pid, 'VmRSS');
  let polled = 0;
  const poll = setInterval(() => {
    const rss = statusMiB(pid, 'VmRSS');
    polled = Math.max(polled, rss);
    if (values.timeline) events.push({ at: performance.now(), text: `rss ${rss.toFixed(0)}` });
  }, 20);
  // Read before the load is sent: the figure says how busy the machine already was.
  const loadBefore = loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
  if (values.snapshots) {
    app.child.kill('SIGUSR2');
    await new Promise((resolve) => setTimeout(resolve, 5_000));
  }
  const started = performance.now();
  try {
    const statuses = await Promise.all(
      requests.map(async (init) => (await fetch(`${app.url}/slack/events`, init)).status),
    );
    if (statuses.some((s) => s !== 200)) throw new Error(`answers: ${statuses.join(',')}`);
    await waitFor(() => answered(fake) >= pastes + uploads || undefined, 600_000);
    const seconds = (performance.now() - started) / 1000;
    clearInterval(poll);
    // One snapshot once every input was answered (an idle one is taken before the load is sent).
    if (values.snapshots) {
      app.child.kill('SIGUSR2');
      await new Promise((resolve) => setTimeout(resolve, 8_000));
    }
    if (values.timeline) writeTimeline(values.timeline, started, events);
    const peak = statusMiB(pid, 'VmHWM');
    const refused = refusals(fake);
    // Give the last upload's log line (written after its answer is posted) a moment to arrive.
    await waitFor(() => read.size >= uploads || undefined, 5_000).catch(() => undefined);
    const counted = await inflightPeakMiB(app.url);
    const whole = uploadBody(uploadBytes).length;
    const full = [...read.values()].filter((bytes) => bytes === whole).length;
    console.log(
      `memdoctor upload bench: ${pastes} pastes of ${(PASTE.length / 1024).toFixed(0)} KB + ${uploads} uploads of ${uploadBytes / MiB} MiB at once, ` +
        `MEMDOCTOR_MAX_INFLIGHT_BYTES ${cap / MiB} MiB; node ${process.version}, ${cpus().length} cores, load average before ${loadBefore}`,
    );
    console.log(
      `app RSS idle ${idle.toFixed(0)} MiB; peak ${peak.toFixed(0)} MiB (VmHWM), ${polled.toFixed(0)} MiB polled; ` +
        `in-flight count peak ${counted.toFixed(1)} MiB; ${answered(fake) - refused} diagnosed, ${refused} told to try again, in ${seconds.toFixed(1)} s; ` +
        `${full} of ${uploads} uploads read in full (bytes read: ${[...read.values()].join(', ') || 'none'})`,
    );
  } finally {
    clearInterval(poll);
    app.child.kill('SIGTERM');
    if (app.child.exitCode === null) await once(app.child, 'exit');
    await fake.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
