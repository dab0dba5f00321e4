import { ConnectorError } from '../errors.ts';
import type { RestTarget } from './config.ts';

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

const MAX_REDIRECTS = 3;

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

/** The body, read up to `maxBytes`: an answer larger than that is refused, not buffered. */
async function readCapped(response: Response, call: RestCall, target: RestTarget): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  const tooLarge = () =>
    new ConnectorError(
      `${call.system} answered more than ${target.maxBytes} bytes to GET ${call.path}; raise maxBytes in connectors.yaml or ${pasteInstead(call, target)}.`,
    );
  if (declared > target.maxBytes) {
    await response.body?.cancel();
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += chunk.byteLength;
    if (size > target.maxBytes) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Where a redirect points, when it stays on the configured host and under its base path. */
function redirectTarget(response: Response, current: URL, target: RestTarget, call: RestCall): URL {
  const location = response.headers.get('location') ?? '';
  const next = URL.canParse(location, current.href) ? new URL(location, current) : undefined;
  const base = new URL(target.url);
  if (
    !next ||
    next.origin !== base.origin ||
    !`${next.pathname}/`.startsWith(`${base.pathname.replace(/\/$/, '')}/`)
  )
    throw new ConnectorError(
      `${call.system} redirected GET ${call.path} to ${next?.origin ?? 'an unreadable location'}, outside ${target.url}; memdoctor only reads the configured URL. Fix the url in connectors.yaml, or ${pasteInstead(call, target)}.`,
    );
  return next;
}

function failure(error: unknown, call: RestCall, target: RestTarget): ConnectorError {
  if (error instanceof ConnectorError) return error;
  const name = (error as Error)?.name;
  const reason =
    name === 'TimeoutError'
      ? `no answer within ${target.timeoutMs} ms`
      : ((error as { cause?: { code?: string } })?.cause?.code ?? (error as Error)?.message ?? String(error));
  return new ConnectorError(
    `${call.system} did not answer GET ${call.path} (${reason}); ${pasteInstead(call, target)}.`,
    { cause: error },
  );
}

async function getOnce(call: RestCall, target: RestTarget): Promise<string> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  for (const [name, secret] of Object.entries(target.headers)) headers[name] = secret.reveal();
  const signal = AbortSignal.timeout(target.timeoutMs);
  let url = new URL(`${target.url}${call.path}`);
  for (let hop = 0; ; hop++) {
    const response = await fetch(url, { headers, redirect: 'manual', signal });
    if (response.status >= 300 && response.status < 400 && hop < MAX_REDIRECTS) {
      await response.body?.cancel();
      url = redirectTarget(response, url, target, call);
      continue;
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw statusError(response.status, call, target);
    }
    return readCapped(response, call, target);
  }
}

/**
 * GET of a path under a configured base URL: one request at a time per target, a deadline for the
 * whole answer, a size cap, no redirect off the configured host. Failures are ConnectorErrors that
 * say what to do (which permission, what was not found, or paste the output instead).
 */
export function restGet(call: RestCall, target: RestTarget): Promise<string> {
  return serially(target.url, async () => {
    try {
      return await getOnce(call, target);
    } catch (error) {
      throw failure(error, call, target);
    }
  });
}
