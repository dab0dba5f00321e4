/**
 * `npx tsx bench/ack-bench.ts [--requests 50] [--upload-mib 32]`
 *
 * Slack acknowledgement latency as Slack sees it (signed HTTP request to the app until its 200),
 * for N concurrent `/memdoctor` commands with a 40 KB paste each, with the engine in-line on the
 * event loop and in the worker pool; then again while a large upload is being diagnosed.
 * Uses the tests' fake Slack (test/slack/support), so nothing leaves the machine.
 */
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { EnginePool } from '../src/setup/engine-pool.ts';
import { startHarness, waitFor } from '../test/slack/support/harness.ts';
import { eventEnvelope, fileShareEvent, slashCommand } from '../test/slack/support/payloads.ts';

const MiB = 1024 * 1024;
const ORDINARY =
  '24/11/30 10:00:01 INFO TaskSetManager: Finished task 3.0 in stage 7.0 (TID 42) in 1234 ms on host-17 (executor 5) (3/200)\n';
const OOM = 'java.lang.OutOfMemoryError: Java heap space\n';
const PASTE = ORDINARY.repeat(Math.floor((40 * 1024) / ORDINARY.length)) + OOM;

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

async function scenario(
  name: string,
  requests: number,
  pooled: boolean,
  uploadBytes: number,
): Promise<string> {
  const h = await startHarness({
    settings: { maxUploadBytes: 64 * MiB, maxExpandedBytes: 1024 * MiB },
    extend: (deps) => {
      const pool = pooled ? new EnginePool({ playbooks: deps.playbooks, maxQueue: 1000 }) : undefined;
      return pool ? { ...deps, engines: pool } : deps;
    },
  });
  let expectedPosts = requests;
  if (uploadBytes > 0) {
    const big = ORDINARY.repeat(Math.floor(uploadBytes / ORDINARY.length)) + OOM;
    const file = h.fake.addFile('F1', 'big.log.gz', gzipSync(big));
    const event = fileShareEvent({
      user: 'U0',
      channel: 'C1',
      threadTs: '1700000000.000001',
      parentUserId: h.fake.botUserId,
      files: [file],
    });
    await h.sender.event(eventEnvelope(event));
    // Let the download finish and the diagnosis begin before the commands arrive.
    await new Promise((r) => setTimeout(r, 300));
    expectedPosts += 1;
  }
  const latencies = await Promise.all(
    Array.from({ length: requests }, async (_, i) => {
      const started = performance.now();
      const res = await h.sender.command(
        slashCommand(PASTE, { user: `U${i + 1}`, channel: 'C1', responseUrl: h.fake.responseUrl }),
      );
      if (res.status !== 200) throw new Error(`ack ${i} answered ${res.status}`);
      return performance.now() - started;
    }),
  );
  await waitFor(
    () => (h.fake.callsTo('chat.postMessage').length >= expectedPosts ? true : undefined),
    300_000,
  );
  const pool = h.deps.engines as EnginePool | undefined;
  await h.stop();
  await pool?.close();
  const sorted = [...latencies].sort((a, b) => a - b);
  return `| ${name} | ${requests} | ${percentile(sorted, 50).toFixed(0)} ms | ${percentile(sorted, 99).toFixed(0)} ms | ${sorted.at(-1)?.toFixed(0)} ms |`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { requests: { type: 'string', default: '50' }, 'upload-mib': { type: 'string', default: '32' } },
  });
  const requests = Number(values.requests);
  const upload = Number(values['upload-mib']) * MiB;
  console.log(
    `memdoctor ack bench: ${requests} concurrent /memdoctor commands, ${(PASTE.length / 1024).toFixed(0)} KB paste each; ` +
      `node ${process.version}, ${cpus().length} cores, load average ${loadavg()[0]?.toFixed(1)}`,
  );
  // A first round warms the JIT and the sockets for every scenario alike; its figures are dropped.
  await scenario('warm-up', 10, true, 0);
  console.log('| engine | requests | ack p50 | ack p99 | ack max |\n|---|---|---|---|---|');
  console.log(await scenario('in-line (event loop)', requests, false, 0));
  console.log(await scenario('worker pool', requests, true, 0));
  console.log(await scenario(`in-line, during a ${upload / MiB} MiB upload`, requests, false, upload));
  console.log(await scenario(`worker pool, during a ${upload / MiB} MiB upload`, requests, true, upload));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
