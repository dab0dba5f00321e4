import { type ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PATIENCE_MS } from './patience.ts';

/**
 * Redis servers the tests start themselves, on free loopback ports, and stop by PID: a Redis
 * Cluster (cluster-enabled servers joined with `redis-cli --cluster create`) and single servers
 * a test may stop (the shared 127.0.0.1:6379 is never stopped). Nothing is kept on disk.
 */

const run = promisify(execFile);

/** Why Redis servers cannot be started here, or undefined when redis-server and redis-cli exist. */
export function redisServerMissing(): string | undefined {
  for (const tool of ['redis-server', 'redis-cli']) {
    const found = spawnSync(tool, ['--version'], { encoding: 'utf8' });
    if (found.error || found.status !== 0) return `${tool} is not installed (apt-get install redis-server)`;
  }
  return undefined;
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * `count` consecutive free ports in 30000-49999; a cluster node also needs its bus port (+10000).
 * Random starts keep parallel runs (and other agents' tests) apart.
 */
export async function freePorts(count: number, bus = false): Promise<number[]> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 30_000 + Math.floor(Math.random() * (20_000 - count));
    const ports = Array.from({ length: count }, (_, i) => base + i);
    const wanted = bus ? [...ports, ...ports.map((p) => p + 10_000)] : ports;
    const free = await Promise.all(wanted.map(portFree));
    if (free.every(Boolean)) return ports;
  }
  throw new Error(`no ${count} free loopback ports found in 30000-49999`);
}

/** A whole RESP reply: a one-line one, or a bulk string of the length its header gives. */
function complete(reply: string): boolean {
  const header = reply.indexOf('\r\n');
  if (header === -1) return false;
  if (!reply.startsWith('$')) return true;
  const length = Number(reply.slice(1, header));
  return length < 0 || Buffer.byteLength(reply) >= header + 2 + length + 2;
}

/** Sends one inline command over a fresh socket and resolves to the raw reply ("" on failure). */
export function rawCommand(port: number, command: string, timeoutMs = 500): Promise<string> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    let reply = '';
    const done = () => {
      socket.destroy();
      resolve(reply);
    };
    socket.setTimeout(timeoutMs, done);
    socket.on('error', done);
    socket.on('connect', () => socket.write(`${command}\r\n`));
    socket.on('data', (chunk) => {
      reply += chunk.toString('utf8');
      if (complete(reply)) done();
    });
  });
}

async function until(what: string, check: () => Promise<boolean>, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A redis-server process this run started. */
export class RedisServer {
  private constructor(
    readonly port: number,
    private readonly child: ChildProcess,
  ) {}

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Starts redis-server on `port` with the extra arguments and waits until it answers PING. */
  static async start(port: number, dir: string, extra: string[] = []): Promise<RedisServer> {
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
    const child = spawn('redis-server', [...args, '--dir', dir, '--daemonize', 'no', ...extra], {
      stdio: 'ignore',
    });
    const server = new RedisServer(port, child);
    try {
      await until(
        `redis-server on ${port} answers`,
        async () => (await rawCommand(port, 'PING')) === '+PONG\r\n',
        PATIENCE_MS,
      );
    } catch (error) {
      server.stopNow();
      throw error;
    }
    return server;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** SIGKILL by PID, at once (for exit handlers). */
  stopNow(): void {
    if (this.running && this.child.pid !== undefined) process.kill(this.child.pid, 'SIGKILL');
  }

  /** Kills the process by PID and waits until it has exited. */
  async stop(): Promise<void> {
    if (!this.running) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.stopNow();
    await exited;
  }
}

/** A temporary folder for node configuration files, removed with the servers. */
function scratch(): string {
  return mkdtempSync(join(tmpdir(), 'memdoctor-redis-'));
}

/** A single redis-server the test owns (it may stop it); on its own free port. */
export async function startRedisServer(): Promise<{
  server: RedisServer;
  url: string;
  stop(): Promise<void>;
}> {
  const dir = scratch();
  const [port] = await freePorts(1);
  const server = await RedisServer.start(port as number, dir);
  return {
    server,
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A running Redis Cluster: its nodes and how to stop it. */
export interface RedisCluster {
  /** `127.0.0.1:port`, one per node (masters first, then replicas when asked for). */
  nodes: string[];
  servers: RedisServer[];
  /** Kills every node by PID and removes the node configuration files. */
  stop(): Promise<void>;
}

async function clusterStateOk(port: number): Promise<boolean> {
  return (await rawCommand(port, 'CLUSTER INFO')).includes('cluster_state:ok');
}

/** True when the node is a master, or a replica whose link to its master is up (it has the data). */
async function replicationReady(port: number): Promise<boolean> {
  const info = await rawCommand(port, 'INFO replication');
  return info.includes('role:master') || info.includes('master_link_status:up');
}

/**
 * Starts `masters` cluster-enabled redis-servers (and `replicas` per master), joins them with
 * redis-cli --cluster create and waits until every node reports cluster_state:ok and every replica
 * is in sync. On any failure every started node is killed before the error is thrown.
 */
export async function startRedisCluster(
  options: { masters?: number; replicas?: number; nodeTimeoutMs?: number } = {},
) {
  const masters = options.masters ?? 3;
  const replicas = options.replicas ?? 0;
  const dir = scratch();
  const servers: RedisServer[] = [];
  const stop = async () => {
    await Promise.all(servers.map((s) => s.stop()));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const ports = await freePorts(masters * (1 + replicas), true);
    for (const port of ports)
      servers.push(
        await RedisServer.start(port, dir, [
          '--cluster-enabled',
          'yes',
          '--cluster-config-file',
          join(dir, `nodes-${port}.conf`),
          '--cluster-node-timeout',
          String(options.nodeTimeoutMs ?? 2000),
        ]),
      );
    const nodes = ports.map((p) => `127.0.0.1:${p}`);
    await run(
      'redis-cli',
      ['--cluster', 'create', ...nodes, '--cluster-replicas', String(replicas), '--cluster-yes'],
      { timeout: PATIENCE_MS },
    );
    await until(
      'every node reports cluster_state:ok',
      async () => {
        const states = await Promise.all(ports.map(clusterStateOk));
        return states.every(Boolean);
      },
      PATIENCE_MS,
    );
    await until(
      'every replica is in sync',
      async () => (await Promise.all(ports.map(replicationReady))).every(Boolean),
      PATIENCE_MS,
    );
    const cluster: RedisCluster = { nodes, servers, stop };
    return cluster;
  } catch (error) {
    await stop();
    throw error;
  }
}
