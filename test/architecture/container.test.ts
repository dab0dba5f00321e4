import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeSlack } from '../slack/support/fake-slack.ts';
import { BOT_TOKEN, freePort, SIGNING_SECRET, waitFor } from '../slack/support/harness.ts';
import { slashCommand } from '../slack/support/payloads.ts';
import { SlackSender } from '../slack/support/signing.ts';

// The image built from the repository as it is (.dockerignore included) and run as an operator runs
// it. Slow (a build copies every layer in full with vfs): only with MEMDOCTOR_IMAGE_TEST=1 and Podman
// configured as docs/deploy.md says; MEMDOCTOR_IMAGE_BASE names the base (.ci/container-base.sh
// makes one where no registry is reachable). The image is built once for the whole file.
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ENABLED = process.env.MEMDOCTOR_IMAGE_TEST === '1';
const SKIPPED = ENABLED
  ? ''
  : ' (skipped: set MEMDOCTOR_IMAGE_TEST=1 with Podman set up, see docs/deploy.md)';
const BASE = process.env.MEMDOCTOR_IMAGE_BASE ?? 'node:22.21.1-bookworm-slim';
const IMAGE = 'localhost/memdoctor:container-test';
const run = promisify(execFile);

async function podman(args: string[], timeout = 60_000): Promise<string> {
  const { stdout } = await run('podman', args, { timeout, maxBuffer: 64 * 1024 * 1024 });
  return stdout.trim();
}

/** What the container wrote: pino logs to stderr, which `podman logs` passes on as its own stderr. */
async function logsOf(container: string): Promise<string> {
  const { stdout, stderr } = await run('podman', ['logs', container], { maxBuffer: 64 * 1024 * 1024 });
  return stdout + stderr;
}

describe.skipIf(!ENABLED)(`the container image${SKIPPED}`, () => {
  const fake = new FakeSlack(BOT_TOKEN);
  let port = 0;
  let container = '';

  beforeAll(async () => {
    await fake.start();
    // The machine's npm configuration (registry, CA) as a build secret, kept out of every layer.
    // .ci/podman.sh builds with the same arguments beforehand, so here every layer is found built.
    const npmrc = join(homedir(), '.npmrc');
    const secret = existsSync(npmrc) ? ['--secret', `id=npmrc,src=${npmrc}`] : [];
    const buildStarted = Date.now();
    await podman(
      [
        'build',
        '--pull=never',
        '--network',
        'host',
        '--build-arg',
        `BASE=${BASE}`,
        ...secret,
        '-t',
        IMAGE,
        ROOT,
      ],
      20 * 60_000,
    );
    console.info(`image build: ${((Date.now() - buildStarted) / 1000).toFixed(0)} s`);
    port = await freePort();
    // Host network: the fake Slack on this machine's loopback is the container's too.
    container = await podman([
      'run',
      '-d',
      '--network',
      'host',
      '-e',
      `PORT=${port}`,
      '-e',
      `SLACK_BOT_TOKEN=${BOT_TOKEN}`,
      '-e',
      `SLACK_SIGNING_SECRET=${SIGNING_SECRET}`,
      '-e',
      `SLACK_API_URL=${fake.apiUrl}`,
      '-e',
      'MEMDOCTOR_ALLOW_HTTP_LOOPBACK=true',
      IMAGE,
    ]);
    await waitFor(
      async () => (await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined))?.ok,
      30_000,
    );
  }, 25 * 60_000);

  afterAll(async () => {
    await fake.stop();
    if (container) await podman(['rm', '-f', container]).catch(() => undefined);
  });

  it('serves /healthz and answers a signed slash command through Slack', async () => {
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(health.status).toBe(200);
    const sender = new SlackSender(`http://127.0.0.1:${port}/slack/events`, SIGNING_SECRET);
    const res = await sender.command(
      slashCommand('list', { user: 'U1', channel: 'C1', responseUrl: fake.responseUrl }),
    );
    expect(res.status).toBe(200);
    await waitFor(
      () => fake.responses.find((r) => JSON.stringify(r.blocks).includes('Known problems')),
      10_000,
    );
  });

  it('runs as a non-root user, in an image of a bounded size', async () => {
    expect(await podman(['exec', container, 'id', '-u'])).not.toBe('0');
    const bytes = Number(await podman(['image', 'inspect', '--format', '{{.Size}}', IMAGE]));
    expect(bytes).toBeGreaterThan(0);
    expect(bytes).toBeLessThan(600 * 1024 * 1024);
    console.info(`image size: ${(bytes / 1024 ** 2).toFixed(0)} MiB`);
  });

  it('draws a chart as a PNG inside the image (resvg native module and bundled font shipped)', async () => {
    const printed = await podman([
      'exec',
      container,
      'node',
      'bin/memdoctor.mjs',
      'calc',
      'spark',
      '--spark.executor.memory',
      '8g',
      '--chart',
      '/tmp/charts',
    ]);
    expect(printed).toContain('chart: /tmp/charts/spark-executor.svg /tmp/charts/spark-executor.png');
    const signature = await podman([
      'exec',
      container,
      'node',
      '-e',
      "process.stdout.write(require('fs').readFileSync('/tmp/charts/spark-executor.png').subarray(1, 4).toString())",
    ]);
    expect(signature).toBe('PNG');
  });

  it('stops on SIGTERM as PID 1, within its own deadline', async () => {
    const started = Date.now();
    await podman(['kill', '--signal', 'TERM', container]);
    await waitFor(
      async () => (await podman(['inspect', '--format', '{{.State.Running}}', container])) === 'false',
      20_000,
    );
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(await podman(['inspect', '--format', '{{.State.ExitCode}}', container])).toBe('0');
    expect(await logsOf(container)).toContain('memdoctor shutting down');
  });
});
