import { z } from 'zod';

/** One seed node of a Redis Cluster. */
export interface ClusterNode {
  host: string;
  port: number;
}

/**
 * A Redis Cluster as REDIS_CLUSTER_NODES names it: seed nodes (the client discovers the rest) and
 * the credentials and TLS every node shares, given as in REDIS_URL (`rediss://user:password@...`).
 */
export interface ClusterSeeds {
  nodes: ClusterNode[];
  username?: string;
  password?: string;
  tls: boolean;
}

/** Where memdoctor keeps shared state: one Redis server (REDIS_URL) or a cluster (REDIS_CLUSTER_NODES). */
export type RedisTarget = { kind: 'server'; url: string } | { kind: 'cluster'; seeds: ClusterSeeds };

interface Seed extends ClusterNode {
  scheme: 'redis' | 'rediss';
  username: string;
  password: string;
}

const HOST_PORT = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9_.-]+):(\d{1,5})$/;

function validPort(text: string): number | undefined {
  const port = Number(text);
  return Number.isInteger(port) && port > 0 && port < 65536 ? port : undefined;
}

/** One seed, `host:port` or a redis:// / rediss:// URL; a sentence saying what is wrong otherwise. */
function parseSeed(text: string): Seed | string {
  if (!text.includes('://')) {
    const match = HOST_PORT.exec(text);
    const port = match?.[2] ? validPort(match[2]) : undefined;
    if (!match?.[1] || port === undefined) return `"${text}" is not host:port (such as 10.0.0.5:6379)`;
    return { host: match[1].replace(/^\[|\]$/g, ''), port, scheme: 'redis', username: '', password: '' };
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `"${redactSeed(text)}" is not a URL such as rediss://:password@10.0.0.5:6379`;
  }
  const scheme = url.protocol.replace(/:$/, '');
  if (scheme !== 'redis' && scheme !== 'rediss')
    return `"${redactSeed(text)}" must start with redis:// or rediss:// (TLS)`;
  if (url.pathname !== '' && url.pathname !== '/' && url.pathname !== '/0')
    return `"${redactSeed(text)}" names database ${url.pathname.slice(1)}, but a Redis Cluster has only database 0`;
  return {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port ? Number(url.port) : 6379,
    scheme,
    username: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
  };
}

/** A seed with any password replaced, for messages and logs. */
export function redactSeed(text: string): string {
  return text.replace(/(\/\/[^:@/]*:)[^@/]*@/, '$1***@');
}

/**
 * Parses REDIS_CLUSTER_NODES: comma-separated seeds, each `host:port` or a URL; URL seeds carry
 * the password and TLS (rediss://), which every seed must then share.
 */
export const ClusterNodesSchema = z.string().transform((text, ctx): ClusterSeeds => {
  const parts = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (parts.length === 0) {
    ctx.addIssue({ code: 'custom', message: 'name at least one node, as host:port,host:port' });
    return z.NEVER;
  }
  const seeds: Seed[] = [];
  for (const part of parts) {
    const seed = parseSeed(part);
    if (typeof seed === 'string') ctx.addIssue({ code: 'custom', message: seed });
    else seeds.push(seed);
  }
  const [first] = seeds;
  if (!first || seeds.length < parts.length) return z.NEVER;
  const differs = seeds.find(
    (s) => s.scheme !== first.scheme || s.username !== first.username || s.password !== first.password,
  );
  if (differs)
    ctx.addIssue({
      code: 'custom',
      message: `every node must use the same scheme and credentials (${differs.host}:${differs.port} differs from ${first.host}:${first.port}): write them all as host:port or all as rediss://:password@host:port`,
    });
  return {
    nodes: seeds.map(({ host, port }) => ({ host, port })),
    ...(first.username ? { username: first.username } : {}),
    ...(first.password ? { password: first.password } : {}),
    tls: first.scheme === 'rediss',
  };
});

/** The URL with any password replaced, for messages and logs. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparseable URL)';
  }
}

/** The setting that names a target, as a person would write it (passwords hidden). */
export function describeTarget(target: RedisTarget): string {
  if (target.kind === 'server') return `REDIS_URL=${redactUrl(target.url)}`;
  const { tls, username, password } = target.seeds;
  const auth = password ? `${username ?? ''}:***@` : '';
  const prefix = tls || password ? `${tls ? 'rediss' : 'redis'}://${auth}` : '';
  const host = (h: string) => (h.includes(':') ? `[${h}]` : h);
  return `REDIS_CLUSTER_NODES=${target.seeds.nodes.map((n) => `${prefix}${host(n.host)}:${n.port}`).join(',')}`;
}
