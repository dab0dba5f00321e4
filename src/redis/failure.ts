import { Cluster } from 'ioredis';
import { ErrorCode, MemdoctorError, messageOf, StoreProblem, StoreUnavailableError } from '../errors.ts';
import type { RedisConnection } from './connection.ts';
import { clusterHealth } from './health.ts';
import { describeTarget, type RedisTarget } from './target.ts';

/** Redis error replies (their first word) and client errors, by what they mean for memdoctor. */
const PROBLEM_BY_REPLY: readonly [RegExp, StoreProblem | 'redirected'][] = [
  [/^CLUSTERDOWN\b|cluster_state:fail/, StoreProblem.ClusterDown],
  [/^TRYAGAIN\b/, StoreProblem.ClusterMoving],
  [/^(MOVED|ASK)\b/, 'redirected'],
  [/cluster support disabled|cluster_enabled:1/i, StoreProblem.WrongMode],
  [/^(NOAUTH|WRONGPASS|NOPERM|OOM|READONLY|MISCONF|LOADING)\b/, StoreProblem.Refused],
];

/**
 * What follows the first "Last error: " of the message's last line, without an `XxxError: ` prefix.
 * Found with indexOf: as `/Last error: (?:\w*Error: )?(.*)$/`, each "Last error: " before a line
 * break scanned to it again (quadratic in a long message).
 */
function lastError(reason: string): string | undefined {
  const line = reason.slice(
    Math.max(...['\n', '\r', '\u2028', '\u2029'].map((c) => reason.lastIndexOf(c))) + 1,
  );
  const at = line.indexOf('Last error: ');
  return at < 0 ? undefined : line.slice(at + 'Last error: '.length).replace(/^\w*Error: /, '');
}

/**
 * What a failed Redis call means. A cluster client gives up after many redirections with the last
 * error, which is the one that tells; a MOVED means a one-server client talks to a cluster, or, to
 * a cluster client, slots that keep moving. Anything else is a connection that is not there.
 */
export function storeProblem(reason: string, kind: RedisTarget['kind'] = 'server'): StoreProblem {
  const text = lastError(reason) ?? reason;
  const found = PROBLEM_BY_REPLY.find(([pattern]) => pattern.test(text))?.[1];
  if (found === 'redirected') return kind === 'cluster' ? StoreProblem.ClusterMoving : StoreProblem.WrongMode;
  return found ?? StoreProblem.Unreachable;
}

/** What the person who runs memdoctor should do about each problem with `target`. */
function advice(problem: StoreProblem, target: RedisTarget): string {
  const setting = describeTarget(target);
  switch (problem) {
    case StoreProblem.ClusterDown:
      return `The Redis Cluster at ${setting} does not serve all its hash slots; check it with redis-cli --cluster check <node>.`;
    case StoreProblem.ClusterMoving:
      return `The Redis Cluster at ${setting} is failing over or resharding; it should settle within seconds.`;
    case StoreProblem.WrongMode:
      return target.kind === 'server'
        ? `${setting} is a node of a Redis Cluster: set REDIS_CLUSTER_NODES=host:port,host:port to the cluster's nodes and unset REDIS_URL.`
        : `${setting} names a Redis server that is not in cluster mode: set REDIS_URL to it and unset REDIS_CLUSTER_NODES.`;
    case StoreProblem.Refused:
      return `Check the password and the server's state at ${setting}.`;
    default:
      return `Check that Redis is up at ${setting}.`;
  }
}

/**
 * A failed Redis call as the one error every surface renders: what went wrong, what to do, and
 * that nothing was lost. MemdoctorErrors (a conflict, a missing record) pass through.
 */
export function storeUnavailable(error: unknown, target: RedisTarget): MemdoctorError {
  if (error instanceof MemdoctorError) return error;
  const reason = messageOf(error);
  // Keys of two slots in one call, or a failing script: memdoctor's fault, not Redis being away.
  if (/^(CROSSSLOT|ERR user_script|ERR Error running script)/.test(reason))
    return new MemdoctorError(
      ErrorCode.Internal,
      `Redis refused memdoctor's request (${reason}); this is a bug in memdoctor, please report it. Nothing was written.`,
      { cause: error },
    );
  return unavailable(storeProblem(reason, target.kind), reason, target, error);
}

function unavailable(problem: StoreProblem, reason: string, target: RedisTarget, cause: unknown) {
  return new StoreUnavailableError(
    problem,
    reason,
    `Redis is unavailable: ${reason}. ${advice(problem, target)} Nothing was lost: a change is stored whole or not at all; once Redis is back, look at the walkthrough (status) before answering again.`,
    { cause },
  );
}

/**
 * Redis could not be opened at start: why, what to do, and that memory is the alternative. Nothing
 * was saved, as nothing had started.
 */
export function cannotConnect(error: unknown, target: RedisTarget, reason: string): StoreUnavailableError {
  const problem = storeProblem(reason, target.kind);
  const what = target.kind === 'server' ? 'Redis' : 'the Redis Cluster';
  const setting = target.kind === 'server' ? 'REDIS_URL' : 'REDIS_CLUSTER_NODES';
  const memory = 'to keep walkthroughs in memory (lost on exit)';
  const fix =
    problem === StoreProblem.Unreachable
      ? `Start ${what} there, correct ${setting}, or unset it ${memory}.`
      : `${advice(problem, target)} Or unset ${setting} ${memory}.`;
  return new StoreUnavailableError(
    problem,
    reason,
    `cannot reach ${what} at ${describeTarget(target)} (${reason}). ${fix} Nothing was saved.`,
    { cause: error },
  );
}

/**
 * {@link storeUnavailable}, made exact for a cluster: the client's last error after its retries
 * can be a closed connection while the cluster as a whole is down, so its masters are asked.
 */
export async function storeFailure(
  error: unknown,
  connection: RedisConnection,
  target: RedisTarget,
): Promise<MemdoctorError> {
  const failure = storeUnavailable(error, target);
  const vague = failure instanceof StoreUnavailableError && failure.problem !== StoreProblem.ClusterDown;
  if (!vague || !(connection instanceof Cluster)) return failure;
  const health = await clusterHealth(connection);
  if (health.state !== 'fail') return failure;
  const reason = `the cluster reports cluster_state:fail (the client said: ${failure.reason})`;
  return unavailable(StoreProblem.ClusterDown, reason, target, error);
}
