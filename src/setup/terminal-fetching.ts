import { userInfo } from 'node:os';
import type { Logger } from 'pino';
import { type Config, redisTarget } from '../config.ts';
import { FetchGate, type FetchPerson, type TerminalFetching } from '../diagnosis/fetch-access.ts';
import type { FetchLimits, FetchSlots } from '../diagnosis/fetch-limits.ts';
import { messageOf, UsageError } from '../errors.ts';
import { childFor } from '../log.ts';
import { configuredConnectors, fetchLimits, redisFetchSlots } from './connectors.ts';

/** The workspace a terminal person is counted in: apart from every Slack workspace's members. */
export const TERMINAL_WORKSPACE = 'terminal';

function osUser(): string {
  try {
    return userInfo().username || 'local';
  } catch {
    return 'local';
  }
}

/**
 * MEMDOCTOR_FETCH_AS: a Slack `TEAM:MEMBER` pair is that Slack person (their checks in Slack and in
 * a terminal share one cap); a plain name, or unset the OS user, is a terminal person. The CLI, the
 * console and `mcp` of one person therefore count as one, on any machine sharing the Redis.
 */
export function fetchPerson(config: Pick<Config, 'MEMDOCTOR_FETCH_AS'>, user = osUser): FetchPerson {
  const named = config.MEMDOCTOR_FETCH_AS;
  if (!named) return { workspace: TERMINAL_WORKSPACE, user: user() };
  const [first = '', second] = named.split(':');
  return second === undefined
    ? { workspace: TERMINAL_WORKSPACE, user: first }
    : { workspace: first, user: second };
}

interface Slots {
  slots: FetchLimits | FetchSlots;
  note?: string;
  close(): Promise<void>;
}

/**
 * The places counted in the configured Redis (REDIS_URL or REDIS_CLUSTER_NODES), shared with `serve`
 * and every other terminal on it; without one, in this process. A Redis that cannot be reached does
 * not stop a check: this process counts alone, and `note` says so.
 */
async function terminalSlots(config: Config, log?: Logger): Promise<Slots> {
  const target = redisTarget(config);
  const limits = fetchLimits(config);
  if (!target) return { slots: limits, close: async () => {} };
  // Loaded only with a Redis: a terminal without one never loads the client (test/cli/lazy-redis).
  const { connectTo } = await import('../redis/connect.ts');
  try {
    const redis = await connectTo(target);
    const slots = redisFetchSlots(config, redis, log);
    const close = async () => {
      await slots.settled();
      redis.disconnect();
    };
    return { slots, close };
  } catch (error) {
    const note = `the fetch caps (MEMDOCTOR_FETCHES_*) are counted in this process alone, so fetches by memdoctor elsewhere do not count against them: ${messageOf(error)}`;
    return { slots: limits, note, close: async () => {} };
  }
}

/**
 * The connectors and the gate a terminal's fetches pass, with the configured caps counted where
 * `serve` counts them (its Redis, when configured); nothing when MEMDOCTOR_CONNECTORS is unset.
 * Audit lines only with a logger.
 */
export async function optionalFetching(config: Config, log?: Logger): Promise<TerminalFetching | undefined> {
  const connectors = configuredConnectors(config);
  if (!connectors) return undefined;
  const { slots, note, close } = await terminalSlots(config, log);
  const gate = new FetchGate(connectors.access, log && childFor(log, 'fetch-audit'), slots);
  return { connectors, gate, person: fetchPerson(config), close, ...(note ? { note } : {}) };
}

/** As {@link optionalFetching}, for `check`: a UsageError saying how to name the connectors when unset. */
export async function requiredFetching(config: Config, log?: Logger): Promise<TerminalFetching> {
  const fetching = await optionalFetching(config, log);
  if (!fetching)
    throw new UsageError(
      'set MEMDOCTOR_CONNECTORS to a connectors.yaml naming the APIs memdoctor may read (docs/connectors.md)',
    );
  return fetching;
}
