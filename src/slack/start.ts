import type { App } from '@slack/bolt';
import type { Logger } from 'pino';
import { ConfigInvalidError } from '../errors.ts';

/** A listen failure as a configuration error naming PORT (EADDRINUSE, EACCES); other errors as they are. */
function portError(error: unknown, port: number): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE')
    return new ConfigInvalidError(
      `PORT=${port} is already in use by another process: stop that process, or set PORT to a free port.`,
    );
  if (code === 'EACCES')
    return new ConfigInvalidError(
      `PORT=${port} may not be opened by this user (ports below 1024 need privileges): set PORT to 1024 or above.`,
    );
  return error;
}

/**
 * Starts an app the composition root (src/serve.ts) built, listeners registered (app.ts). A start
 * that fails lets go of everything it was given (`abandon`) and names PORT when the port is the cause.
 */
export async function listen(service: { app: App; abandon(): Promise<void> }, port: number): Promise<void> {
  try {
    await service.app.start(port);
  } catch (error) {
    await service.abandon();
    throw portError(error, port);
  }
}

/** How long requests in flight get to finish after SIGTERM before the process exits anyway. */
const SHUTDOWN_DEADLINE_MS = 10_000;

/** On SIGTERM or SIGINT: stop within the deadline, then exit even if a timer lingers. */
export function stopOnSignals(stop: () => Promise<void>, log: Logger): void {
  // Once stopped, exit even if a timer lingers (Bolt's WebClient retrying a call to Slack, say).
  const shutdown = (signal: string) =>
    void stopWithin(SHUTDOWN_DEADLINE_MS, signal, stop, log).then(() => {
      setTimeout(() => process.exit(), 1000).unref();
    });
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}

/** Stops the app; past the deadline (a stuck connection) exits with 1 so the orchestrator can restart. */
export async function stopWithin(
  deadlineMs: number,
  signal: string,
  stop: () => Promise<void>,
  log: Logger,
): Promise<void> {
  log.info({ signal, deadlineMs }, 'memdoctor shutting down');
  const timer = setTimeout(() => {
    log.error({ signal, deadlineMs }, 'memdoctor shutdown deadline passed; exiting');
    process.exit(1);
  }, deadlineMs);
  timer.unref();
  try {
    await stop();
    log.info({ signal }, 'memdoctor stopped');
  } catch (error) {
    log.error({ err: error, signal }, 'memdoctor shutdown failed');
    process.exitCode = 1;
  } finally {
    clearTimeout(timer);
  }
}
