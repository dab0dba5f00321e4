import { timingSafeEqual } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CustomRoute } from '@slack/bolt';
import type { SlackMetrics } from './metrics.ts';

/** True when no token is asked for, or the request carries `Authorization: Bearer <token>`. */
export function bearerAccepted(req: IncomingMessage, token: string | undefined): boolean {
  if (token === undefined) return true;
  const given = Buffer.from(req.headers.authorization ?? '');
  const expected = Buffer.from(`Bearer ${token}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Answers a scrape: 401 without the token (when one is set), else the registry's text. */
export function serveMetrics(metrics: SlackMetrics, token: string | undefined) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    if (!bearerAccepted(req, token)) {
      res.writeHead(401, { 'www-authenticate': 'Bearer' });
      res.end();
      return;
    }
    metrics.registry
      .metrics()
      .then((text) => {
        res.writeHead(200, { 'content-type': metrics.registry.contentType });
        res.end(text);
      })
      .catch(() => {
        res.writeHead(500);
        res.end();
      });
  };
}

/** The metrics listener apart from Slack's port (MEMDOCTOR_METRICS_PORT, _HOST, _TOKEN). */
export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/** Serves GET /metrics alone on host:port (loopback unless told otherwise); anything else is 404. */
export async function startMetricsServer(
  metrics: SlackMetrics,
  where: { host: string; port: number; token?: string },
): Promise<MetricsServer> {
  const scrape = serveMetrics(metrics, where.token);
  const server: Server = createServer((req, res) => {
    if (req.method === 'GET' && (req.url ?? '').split('?')[0] === '/metrics') return scrape(req, res);
    res.writeHead(404);
    res.end();
  });
  server.listen(where.port, where.host);
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** GET /metrics on Slack's port: only behind a bearer token (MEMDOCTOR_METRICS_TOKEN). */
export function metricsRoute(metrics: SlackMetrics, token: string): CustomRoute {
  return { path: '/metrics', method: ['GET'], handler: serveMetrics(metrics, token) };
}
