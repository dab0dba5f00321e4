import { ConnectorError } from '../errors.ts';
import { beforeDeadline, type Deadline, withinDeadline } from './bounded.ts';
import { boundedGet } from './bounded-fetch.ts';
import type { RestTarget } from './config.ts';
import { type Asked, faultError, faultOf } from './fetch-faults.ts';

/** What a REST request is about, so a failure can say what was missing or which permission. */
export interface RestCall {
  /** "Flink JobManager" */
  system: string;
  /** "the TaskManagers", "application application_..._0005" */
  what: string;
  /** What read access the credentials need, for 401/403. */
  permission: string;
  /** Path under the base URL, with its query, e.g. `/jobs/<id>` (ids already validated). */
  path: string;
}

/** Requests in flight per base URL: one at a time per target, so memdoctor never piles onto a struggling JobManager. */
const inFlight = new Map<string, Promise<unknown>>();

/** Runs `task` after every earlier task with the same key has settled: one request at a time per target. */
export function serially<T>(key: string, task: () => Promise<T>): Promise<T> {
  const previous = inFlight.get(key) ?? Promise.resolve();
  const next = previous.then(task, task);
  const settled = next.catch(() => undefined);
  inFlight.set(key, settled);
  void settled.then(() => {
    if (inFlight.get(key) === settled) inFlight.delete(key);
  });
  return next;
}

function pasteInstead(call: RestCall, target: RestTarget): string {
  const url = `${target.url}${call.path}`;
  // A query's "?" is a glob to the shell (zsh refuses it unmatched): quoted, the command runs as shown.
  return `paste the output of \`curl ${url.includes('?') ? `"${url}"` : url}\` instead`;
}

function statusError(status: number, call: RestCall, target: RestTarget): ConnectorError {
  const asked = `GET ${call.path}`;
  if (status === 401)
    return new ConnectorError(
      `${call.system} answered 401 (not authenticated) to ${asked}: it needs ${call.permission}; set the credentials in connectors.yaml headers (e.g. Authorization: env:NAME).`,
    );
  if (status === 403)
    return new ConnectorError(
      `${call.system} answered 403 (forbidden) to ${asked}: the configured credentials lack ${call.permission}.`,
    );
  if (status === 404)
    return new ConnectorError(
      `${call.system} has no ${call.what} (404 for ${asked}): check the id, and that ${target.url} is the right ${call.system}.`,
    );
  if (status >= 500)
    return new ConnectorError(
      `${call.system} did not answer (HTTP ${status} for ${asked}); ${pasteInstead(call, target)}.`,
    );
  return new ConnectorError(
    `${call.system} answered HTTP ${status} to ${asked}; ${pasteInstead(call, target)}.`,
  );
}

/** The words of a fault sentence for this request (fetch-faults.ts). */
export function restAsked(call: RestCall, target: RestTarget): Asked {
  return {
    system: call.system,
    request: `GET ${call.path}`,
    settings: '',
    address: `the url in connectors.yaml (${target.url})`,
    instead: pasteInstead(call, target),
  };
}

function failure(error: unknown, call: RestCall, target: RestTarget): ConnectorError {
  if (error instanceof ConnectorError) return error;
  const fault = faultOf(error);
  if (fault) return faultError(fault, restAsked(call, target), error);
  const reason =
    (error as { cause?: { code?: string } })?.cause?.code ?? (error as Error)?.message ?? String(error);
  return new ConnectorError(
    `${call.system} did not answer GET ${call.path} (${reason}); ${pasteInstead(call, target)}.`,
    { cause: error },
  );
}

async function getOnce(call: RestCall, target: RestTarget, deadline: Deadline): Promise<string> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  for (const [name, secret] of Object.entries(target.headers)) headers[name] = secret.reveal();
  const limits = { base: new URL(target.url), maxBytes: target.maxBytes, deadline };
  const got = await boundedGet(new URL(`${target.url}${call.path}`), headers, limits);
  if (got.status < 200 || got.status >= 300) throw statusError(got.status, call, target);
  return got.text;
}

/**
 * GET of a path under a configured base URL under the fetch discipline (bounded-fetch.ts): one
 * request at a time per target, a deadline for the whole answer, a size cap while reading (after
 * decompression), no redirect off the configured base. Failures are ConnectorErrors that say what
 * to do (which permission, what was not found, or paste the output instead).
 */
export function restGet(call: RestCall, target: RestTarget): Promise<string> {
  return serially(target.url, () =>
    withinDeadline(target.timeoutMs, async (deadline) => {
      try {
        return await beforeDeadline(getOnce(call, target, deadline), deadline);
      } catch (error) {
        throw failure(error, call, target);
      }
    }),
  );
}
