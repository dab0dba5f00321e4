/**
 * The app under test for bench/ack-bench.ts, in a process of its own: configured by the environment
 * as `memdoctor serve` is. `--inline` builds the same app without the worker pool (the engine on the
 * event loop), for comparison; `--floor` is no app at all, a server that reads each body and answers
 * 200; otherwise it is startSlack itself, pool and all.
 */
import { createServer, Server } from 'node:http';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/log.ts';
import { buildDeps, openSlackResources, startSlack } from '../src/serve.ts';
import { createSlackApp } from '../src/slack/app.ts';
import { SlackMetrics } from '../src/slack/metrics.ts';

async function startInline(): Promise<void> {
  const config = loadConfig();
  const { SLACK_BOT_TOKEN: botToken, SLACK_SIGNING_SECRET: signingSecret } = config;
  if (!botToken || !signingSecret) throw new Error('ack-app needs SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET');
  const log = createLogger(config.LOG_LEVEL).child({ module: 'slack' });
  const resources = await openSlackResources(config, log);
  const deps = { ...buildDeps(config, log, resources), metrics: new SlackMetrics() };
  const app = createSlackApp(deps, {
    botToken,
    signingSecret,
    port: config.PORT,
    ...(config.SLACK_API_URL ? { slackApiUrl: config.SLACK_API_URL } : {}),
  });
  await app.start(config.PORT);
  process.once('SIGTERM', () => void app.stop().finally(() => process.exit(0)));
}

/**
 * Times each POST inside the app, from Node's 'request' event (headers read) until its response is
 * handed to the socket: the app's share of an ack, without the client's or the kernel's. The bench
 * asks for them over IPC ('acks' gets the times since the last ask).
 */
function timeRequests(): void {
  let times: number[] = [];
  const emit = Server.prototype.emit as (this: Server, event: string, ...args: unknown[]) => boolean;
  Server.prototype.emit = function (this: Server, event: string, ...args: unknown[]) {
    const [req, res] = args as [{ method?: string }, { once(e: string, f: () => void): void }];
    if (event === 'request' && req.method === 'POST') {
      const started = performance.now();
      res.once('finish', () => times.push(performance.now() - started));
    }
    return emit.call(this, event, ...args);
  } as typeof Server.prototype.emit;
  process.on('message', (message) => {
    if (message !== 'acks') return;
    process.send?.({ acks: times });
    times = [];
  });
}

if (process.send) timeRequests();
/** No app: reads each body and answers 200 (the bench's floor). */
async function startFloor(): Promise<void> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200).end());
  });
  server.listen(loadConfig().PORT, '127.0.0.1');
  process.once('SIGTERM', () => server.close(() => process.exit(0)));
}

const { values } = parseArgs({
  options: { inline: { type: 'boolean', default: false }, floor: { type: 'boolean', default: false } },
});
const start = values.floor ? startFloor : values.inline ? startInline : () => startSlack(loadConfig());
start().catch((error: unknown) => {
  console.error(error);
  process.exit(2);
});
