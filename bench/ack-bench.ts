/**
 * `npm run bench:ack -- [--requests 50] [--upload-mib 32] [--runs 3]`
 *
 * Slack acknowledgement latency as Slack sees it: a signed HTTP request to the app until its 200,
 * for N concurrent `/memdoctor` commands with a 40 KB paste each. Three processes, so no event loop
 * measures another's work: the app (bench/ack-app.ts, configured by the environment like
 * `memdoctor serve`, with the engine in-line on its event loop or in its worker pool), the load
 * generator (bench/ack-client.ts, which only sends the signed requests and times them), and this
 * one, which plays Slack (test/slack/support's fake, holding every Web API call and Block Kit
 * payload to Slack's specs). The app also times each request itself, from its headers being read
 * to its answer being written ("in the app"). Each scenario runs again while a large
 * gzip upload is being diagnosed. `--profile <dir>` writes the app's CPU profiles (node --cpu-prof)
 * there; `--only pool`, `--only inline` or `--only floor` runs one. The floor is the same load
 * against a server that only reads each body and answers 200: what the machine, the client and
 * the kernel cost before any app does anything.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { FakeSlack } from '../test/slack/support/fake-slack.ts';
import { BOT_TOKEN, freePort, SIGNING_SECRET, waitFor } from '../test/slack/support/harness.ts';
import { eventEnvelope, fileShareEvent, slashCommand } from '../test/slack/support/payloads.ts';
import { slackSignature } from '../test/slack/support/signing.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MiB = 1024 * 1024;
const ORDINARY =
  '24/11/30 10:00:01 INFO TaskSetManager: Finished task 3.0 in stage 7.0 (TID 42) in 1234 ms on host-17 (executor 5) (3/200)\n';
const OOM = 'java.lang.OutOfMemoryError: Java heap space\n';
const PASTE = ORDINARY.repeat(Math.floor((40 * 1024) / ORDINARY.length)) + OOM;
/** Waiting inputs the app may hold: every command of a round waits rather than being refused as busy. */
const QUEUE = 200;

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

interface App {
  child: ChildProcess;
  url: string;
  stderr: () => string;
}

/** Starts bench/ack-app.ts against the fake Slack and waits until it answers /healthz. */
/** The app with its pool, the app with the engine on its event loop, or no app (ack-app.ts --floor). */
type Mode = 'pool' | 'inline' | 'floor';

async function startApp(fake: FakeSlack, mode: Mode, profileDir?: string): Promise<App> {
  const port = await freePort();
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const child = spawn(
    process.execPath,
    [...profile, '--import', 'tsx', 'bench/ack-app.ts', ...(mode === 'pool' ? [] : [`--${mode}`])],
    {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        PORT: String(port),
        SLACK_BOT_TOKEN: BOT_TOKEN,
        SLACK_SIGNING_SECRET: SIGNING_SECRET,
        SLACK_API_URL: fake.apiUrl,
        MEMDOCTOR_ALLOW_HTTP_LOOPBACK: 'true',
        MEMDOCTOR_MAX_UPLOAD_BYTES: String(64 * MiB),
        MEMDOCTOR_MAX_EXPANDED_BYTES: String(1024 * MiB),
        MEMDOCTOR_ENGINE_QUEUE: String(QUEUE),
        LOG_LEVEL: 'info',
      },
      // Its logs go to /dev/null: written as in production, read by nobody.
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    },
  );
  let err = '';
  child.stderr?.on('data', (d: Buffer) => {
    err += d.toString('utf8');
  });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(async () => {
    if (child.exitCode !== null) throw new Error(`ack-app exited ${child.exitCode}: ${err}`);
    return (await fetch(`${url}/healthz`).catch(() => undefined))?.ok;
  }, 30_000);
  if (mode !== 'floor') await waitFor(() => fake.callsTo('auth.test').length > 0, 10_000);
  return { child, url, stderr: () => err };
}

/** The app's own time for each request since the last ask (bench/ack-app.ts), sorted. */
async function appTimes(app: App): Promise<number[]> {
  const reply = once(app.child, 'message') as Promise<[{ acks: number[] }]>;
  app.child.send('acks');
  const [{ acks }] = await reply;
  return acks.sort((a, b) => a - b);
}

async function stopApp(app: App): Promise<void> {
  app.child.kill('SIGTERM');
  if (app.child.exitCode === null) await once(app.child, 'exit');
}

/** A signed slash command, built before the clock starts so signing is not in the figures. */
function signedCommand(fake: FakeSlack, user: number): { body: string; headers: Record<string, string> } {
  const body = new URLSearchParams(
    slashCommand(PASTE, { user: `U${user}`, channel: 'C1', responseUrl: fake.responseUrl }),
  ).toString();
  const timestamp = Math.floor(Date.now() / 1000);
  return {
    body,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-slack-request-timestamp': String(timestamp),
      'x-slack-signature': slackSignature(SIGNING_SECRET, timestamp, body),
    },
  };
}

/** The load generator, in a process of its own (bench/ack-client.ts). */
function startClient(): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'bench/ack-client.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

/** Has the client fire `count` commands at once; resolves to each one's time to its 200, sorted. */
async function burst(
  client: ChildProcess,
  app: App,
  fake: FakeSlack,
  count: number,
  first: number,
): Promise<number[]> {
  const requests = Array.from({ length: count }, (_, i) => signedCommand(fake, first + i));
  const reply = once(client, 'message') as Promise<[{ latencies?: number[]; error?: string }]>;
  client.send({ url: `${app.url}/slack/events`, requests });
  const [{ latencies, error }] = await reply;
  if (!latencies) {
    const exited = app.child.exitCode === null ? 'still running' : `exited ${app.child.exitCode}`;
    throw new Error(
      `the load generator failed: ${error} (the app: ${exited}; its stderr: ${app.stderr().slice(-2000)})`,
    );
  }
  return latencies.sort((a, b) => a - b);
}

/** Every diagnosis posted: `posts` more chat.postMessage calls than at `since`. */
async function posted(fake: FakeSlack, since: number, posts: number): Promise<void> {
  await waitFor(() => fake.callsTo('chat.postMessage').length >= since + posts || undefined, 600_000);
}

interface Figures {
  p50: number;
  p99: number;
  max: number;
  /** Inside the app: from the request's headers being read to its answer being written. */
  appP50: number;
  appP99: number;
}

async function scenario(
  mode: Mode,
  requests: number,
  uploadBytes: number,
  profileDir?: string,
): Promise<Figures> {
  const fake = new FakeSlack(BOT_TOKEN);
  await fake.start();
  const app = await startApp(fake, mode, profileDir);
  // The floor answers without diagnosing: nothing is posted to wait for.
  const posts = mode === 'floor' ? 0 : requests;
  const client = startClient();
  try {
    // A first round of the same size warms the JIT, opens the client's sockets and starts the
    // pool's threads; its figures are dropped.
    await burst(client, app, fake, requests, 1000);
    await posted(fake, 0, posts);
    await appTimes(app);
    const before = fake.callsTo('chat.postMessage').length;
    let expected = posts;
    if (uploadBytes > 0) {
      const big = ORDINARY.repeat(Math.floor(uploadBytes / ORDINARY.length)) + OOM;
      const file = fake.addFile('F1', 'big.log.gz', gzipSync(big));
      const event = fileShareEvent({
        user: 'U0',
        channel: 'C1',
        threadTs: '1700000000.000001',
        parentUserId: fake.botUserId,
        files: [file],
      });
      const envelope = JSON.stringify(eventEnvelope(event));
      const timestamp = Math.floor(Date.now() / 1000);
      await fetch(`${app.url}/slack/events`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-slack-request-timestamp': String(timestamp),
          'x-slack-signature': slackSignature(SIGNING_SECRET, timestamp, envelope),
        },
        body: envelope,
      });
      // Let the download finish and the diagnosis begin before the commands arrive.
      await new Promise((r) => setTimeout(r, 300));
      expected += 1;
    }
    const sorted = await burst(client, app, fake, requests, 1);
    // Only the commands' own requests (the upload's event was answered before they were sent).
    const inApp = (await appTimes(app)).slice(uploadBytes > 0 ? -requests : 0);
    await posted(fake, before, expected);
    if (fake.rejections.length > 0)
      throw new Error(`the fake Slack refused calls: ${fake.rejections.slice(0, 3).join('; ')}`);
    return {
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      max: sorted.at(-1) ?? Number.NaN,
      appP50: percentile(inApp, 50),
      appP99: percentile(inApp, 99),
    };
  } finally {
    client.kill();
    await stopApp(app);
    await fake.stop();
  }
}

const ms = (n: number) => `${n.toFixed(0)} ms`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] ?? Number.NaN;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      requests: { type: 'string', default: '50' },
      'upload-mib': { type: 'string', default: '32' },
      runs: { type: 'string', default: '3' },
      profile: { type: 'string' },
      only: { type: 'string' },
    },
  });
  const requests = Number(values.requests);
  const upload = Number(values['upload-mib']) * MiB;
  const runs = Number(values.runs);
  console.log(
    `memdoctor ack bench: ${requests} concurrent /memdoctor commands, ${(PASTE.length / 1024).toFixed(0)} KB paste each, ` +
      `app in its own process; node ${process.version}, ${cpus().length} cores, load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}, ${runs} runs each`,
  );
  console.log(
    '| engine | ack p50 best / median | ack p99 best / median | ack max median | in the app: p50 / p99 (median) |\n|---|---|---|---|---|',
  );
  const cases: [string, Mode, number][] = [
    ['floor: no app, a server that reads the body and answers 200', 'floor', 0],
    ['in-line (event loop)', 'inline', 0],
    ['worker pool', 'pool', 0],
    [`in-line, during a ${upload / MiB} MiB upload`, 'inline', upload],
    [`worker pool, during a ${upload / MiB} MiB upload`, 'pool', upload],
  ];
  const wanted = cases.filter(([, mode]) => !values.only || values.only === mode);
  for (const [name, mode, bytes] of wanted) {
    const all: Figures[] = [];
    for (let run = 0; run < runs; run++) all.push(await scenario(mode, requests, bytes, values.profile));
    const p50 = all.map((f) => f.p50);
    const p99 = all.map((f) => f.p99);
    console.log(
      `| ${name} | ${ms(Math.min(...p50))} / ${ms(median(p50))} | ${ms(Math.min(...p99))} / ${ms(median(p99))} | ${ms(median(all.map((f) => f.max)))} | ${ms(median(all.map((f) => f.appP50)))} / ${ms(median(all.map((f) => f.appP99)))} |`,
    );
  }
  console.log(`load average after: ${loadavg()[0]?.toFixed(1)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
