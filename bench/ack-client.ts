/**
 * The load generator for bench/ack-bench.ts, in a process of its own so that neither the fake Slack
 * nor the app shares its event loop: told over IPC which signed requests to send, it sends them all
 * at once and answers with each one's time from the start of its request to its response's status.
 * node:http with kept-alive sockets (as Slack's senders keep theirs), lighter than fetch, so the
 * client's own work is as small a part of the figures as it can be.
 */
import { Agent, request } from 'node:http';

interface Burst {
  url: string;
  requests: { body: string; headers: Record<string, string> }[];
}

const agent = new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });

function post(url: string, body: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(
      url,
      { method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } },
      (res) => {
        const took = performance.now() - started;
        res.resume();
        res.on('end', () =>
          res.statusCode === 200 ? resolve(took) : reject(new Error(`answered ${res.statusCode}`)),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

process.on('message', ({ url, requests }: Burst) => {
  Promise.all(requests.map(({ body, headers }) => post(url, body, headers))).then(
    (latencies) => process.send?.({ latencies }),
    (error: unknown) => process.send?.({ error: String(error) }),
  );
});
