/**
 * `npm run bench:mcp -- [--runs 15]`
 *
 * `memdoctor mcp`'s start-up against `memdoctor --version`'s, both as the installed command runs
 * them (node bin/memdoctor.mjs, from dist/: run `npm run build` first). `--version` is timed from
 * spawn to exit; the MCP server from spawn to its answer to `initialize` (what an agent waits for
 * before it can list tools), and to its answer to `tools/list` after it; and, as the floor, a server
 * on the same SDK with nothing of memdoctor's (bench/mcp-floor.mjs). Medians of --runs
 * alternating runs; the issue's target is the initialize answer within 2x of --version.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const BIN = fileURLToPath(new URL('../bin/memdoctor.mjs', import.meta.url));
const FLOOR = fileURLToPath(new URL('./mcp-floor.mjs', import.meta.url));
const ENV = { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'silent' };

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

async function versionRun(): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, '--version'], { env: ENV, stdio: 'ignore' });
  await once(child, 'exit');
  return performance.now() - started;
}

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
};

/** Resolves with the time of the first line holding `"id":<id>` on the child's stdout. */
function answerTo(child: ReturnType<typeof spawn>, id: number, started: number): Promise<number> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      if (!seen.split('\n').some((line) => line.includes(`"id":${id}`))) return;
      child.stdout?.off('data', onData);
      resolve(performance.now() - started);
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`memdoctor mcp exited (${code}) before answering ${id}`)));
  });
}

async function mcpRun(args: readonly string[]): Promise<{ initialize: number; tools: number; exit: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { env: ENV, stdio: ['pipe', 'pipe', 'ignore'] });
  const initialized = answerTo(child, 1, started);
  child.stdin?.write(`${JSON.stringify(INITIALIZE)}\n`);
  const initialize = await initialized;
  const listed = answerTo(child, 2, started);
  child.stdin?.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  child.stdin?.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })}\n`);
  const tools = await listed;
  const exited = once(child, 'exit');
  child.stdin?.end();
  await exited;
  return { initialize, tools, exit: performance.now() - started };
}

const { values } = parseArgs({ options: { runs: { type: 'string', default: '15' } } });
const runs = Number(values.runs);
const version: number[] = [];
const mcp: { initialize: number; tools: number; exit: number }[] = [];
const floor: number[] = [];
await versionRun(); // warm the file cache for both
for (let i = 0; i < runs; i++) {
  version.push(await versionRun());
  mcp.push(await mcpRun([BIN, 'mcp']));
  floor.push((await mcpRun([FLOOR])).initialize);
}
const base = median(version);
const init = median(mcp.map((m) => m.initialize));
const tools = median(mcp.map((m) => m.tools));
const row = (name: string, ms: number) =>
  `${name.padEnd(36)} ${ms.toFixed(0).padStart(6)} ms  ${(ms / base).toFixed(2)}x`;
process.stdout.write(
  `${[
    `node ${process.version}, ${runs} runs each, medians`,
    row('memdoctor --version (to exit)', base),
    row('memdoctor mcp: initialize answered', init),
    row('memdoctor mcp: tools/list answered', tools),
    row('memdoctor mcp: exit after stdin ends', median(mcp.map((m) => m.exit))),
    row('the SDK alone: initialize answered', median(floor)),
  ].join('\n')}\n`,
);
if (init > 2 * base) process.exitCode = 1;
