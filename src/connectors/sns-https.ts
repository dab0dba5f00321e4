import { currentDeadline, readCapped } from './bounded.ts';
import { FetchFault } from './fetch-faults.ts';

const CERT_MAX_BYTES = 64 * 1024;
const TIMEOUT_MS = 5_000;

/** A fault of the read, said for the log and the 503 the sender gets. */
function readableFault(host: string, fault: FetchFault): Error {
  const { fault: f } = fault;
  if (f.kind === 'too-large') return new Error(`${host} answered more than ${f.maxBytes} bytes`);
  if (f.kind === 'timeout') return new Error(`${host} did not answer within ${f.ms} ms`);
  return new Error(`${host}: ${f.kind}`);
}

/**
 * A GET of an SNS URL (its signing certificate, a ConfirmSubscription built from a configured topic)
 * under the fetch discipline: no redirect followed, the body cut at `maxBytes` while it is read, one
 * deadline over the whole answer.
 */
async function snsText(url: string, maxBytes: number): Promise<string> {
  const host = new URL(url).hostname;
  const deadline = currentDeadline(TIMEOUT_MS);
  try {
    const response = await fetch(url, { signal: deadline.signal, redirect: 'error' });
    if (!response.ok) {
      await response.body?.cancel();
      throw new Error(`${host} answered ${response.status}`);
    }
    return (await readCapped(response.body, maxBytes, deadline)).toString('utf8');
  } catch (error) {
    if (error instanceof FetchFault) throw readableFault(host, error);
    if (deadline.signal.aborted)
      throw readableFault(host, new FetchFault({ kind: 'timeout', ms: TIMEOUT_MS }));
    throw error;
  }
}

/**
 * The real SNS for the alert receivers (src/alerts/sns.ts's SnsTransport), handed to them by serve:
 * certificates and confirmations over HTTPS, each bounded in time and size.
 */
export const SNS_OVER_HTTPS = {
  fetchCertificate: (url: string) => snsText(url, CERT_MAX_BYTES),
  confirm: async (url: string): Promise<void> => {
    await snsText(url, CERT_MAX_BYTES);
  },
};
