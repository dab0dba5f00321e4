import { ErrorCode, MemdoctorError, StoreProblem, StoreUnavailableError } from '../errors.ts';
import { describeTarget, type RedisTarget } from './target.ts';

/** Redis error replies (their first word) and client errors, by what they mean for memdoctor. */
const PROBLEM_BY_REPLY: readonly [RegExp, StoreProblem][] = [
  [/^CLUSTERDOWN\b|cluster_state:fail/, StoreProblem.ClusterDown],
  [/^(TRYAGAIN|Too many Cluster redirections)\b/, StoreProblem.ClusterMoving],
  [/^(MOVED|ASK)\b/, StoreProblem.WrongMode],
  [/cluster support disabled|cluster_enabled:1/i, StoreProblem.WrongMode],
  [/^(NOAUTH|WRONGPASS|NOPERM|OOM|READONLY|MISCONF|LOADING)\b/, StoreProblem.Refused],
];

/** What a failed Redis call means; ioredis wraps the last error of endless redirections. */
export function storeProblem(reason: string): StoreProblem {
  const last = /Last error: (?:\w*Error: )?(.*)$/.exec(reason)?.[1];
  for (const [pattern, problem] of PROBLEM_BY_REPLY) if (last && pattern.test(last)) return problem;
  for (const [pattern, problem] of PROBLEM_BY_REPLY) if (pattern.test(reason)) return problem;
  return StoreProblem.Unreachable;
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
  const reason = error instanceof Error ? error.message : String(error);
  // Keys of two slots in one call, or a failing script: memdoctor's fault, not Redis being away.
  if (/^(CROSSSLOT|ERR user_script|ERR Error running script)/.test(reason))
    return new MemdoctorError(
      ErrorCode.Internal,
      `Redis refused memdoctor's request (${reason}); this is a bug in memdoctor, please report it. Nothing was written.`,
      { cause: error },
    );
  const problem = storeProblem(reason);
  return new StoreUnavailableError(
    problem,
    reason,
    `Redis is unavailable: ${reason}. ${advice(problem, target)} Nothing was lost: a change is stored whole or not at all; once Redis is back, look at the walkthrough (status) before answering again.`,
    { cause: error },
  );
}

/**
 * Redis could not be opened at start: why, what to do, and that memory is the alternative. Nothing
 * was saved, as nothing had started.
 */
export function cannotConnect(error: unknown, target: RedisTarget, reason: string): StoreUnavailableError {
  const problem = storeProblem(reason);
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
