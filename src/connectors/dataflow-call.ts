import type { dataflow_v1b3 } from 'googleapis/build/src/apis/dataflow/v1b3.js';
import type { monitoring_v3 } from 'googleapis/build/src/apis/monitoring/v3.js';
import { ConnectorError } from '../errors.ts';
import { beforeDeadline, currentDeadline } from './bounded.ts';
import { gaxiosFetch } from './bounded-fetch.ts';
import type { DataflowTarget } from './dataflow-config.ts';
import { type Asked, faultError, faultOf } from './fetch-faults.ts';

/** What one Dataflow API call is about, so a failure can say what was missing or which permission. */
export interface DataflowCall {
  /** "jobs.get" */
  method: string;
  /** What a 404 means: 'job 2024-... in acme-data/europe-west1'. */
  what: string;
  /** The IAM permission it needs (roles/dataflow.viewer holds it). */
  permission: string;
  /** The command whose output a person can paste instead. */
  command: string;
  /** The API asked when not Dataflow's own: Cloud Monitoring, which holds the workers' memory. */
  service?: 'Cloud Monitoring';
  /** The least role holding `permission` when not VIEWER_ROLE. */
  role?: string;
}

/** The least role that reads jobs, their messages and metrics (Dataflow access control guide). */
export const VIEWER_ROLE = 'roles/dataflow.viewer';

/** A GaxiosError as far as memdoctor reads it: the HTTP status, Google's error body, a system code. */
interface ClientError {
  name?: string;
  message?: string;
  code?: string | number;
  status?: number;
  response?: { status?: number; data?: unknown };
  cause?: { name?: string };
}

/** Google's JSON error body: {"error": {"code": 403, "message": "...", "status": "PERMISSION_DENIED"}}. */
function googleError(data: unknown): { message?: string; status?: string } {
  const error = (data as { error?: unknown } | undefined)?.error;
  if (!error || typeof error !== 'object') return {};
  const { message, status } = error as { message?: unknown; status?: unknown };
  return {
    ...(typeof message === 'string' ? { message } : {}),
    ...(typeof status === 'string' ? { status } : {}),
  };
}

const pasteInstead = (call: DataflowCall) => `paste the output of \`${call.command}\` instead`;

function statusFailure(status: number, said: string, call: DataflowCall, target: DataflowTarget) {
  const api = call.service ?? 'Dataflow';
  if (status === 401)
    return `${api} did not accept the credentials for ${call.method} (${said}): check Application Default Credentials (GOOGLE_APPLICATION_CREDENTIALS, \`gcloud auth application-default login\`, or the service account of the VM or pod).`;
  if (status === 403)
    return `${api} refused ${call.method} (${said}): the credentials need ${call.permission} on project ${target.project}, which ${call.role ?? VIEWER_ROLE} grants (read-only; docs/connectors.md).`;
  if (status === 404)
    return `${api} has no ${call.what} (${said}): check the job id, and that ${target.location} is the region the job runs in.`;
  if (status >= 500) return `${api} did not answer ${call.method} (HTTP ${status}); ${pasteInstead(call)}.`;
  return `${api} answered ${call.method} with HTTP ${status} (${said}); ${pasteInstead(call)}.`;
}

/** Google's endpoints unless connectors.yaml names others: the one base each request stays under. */
const GOOGLE_ROOT = 'https://dataflow.googleapis.com/';
export const MONITORING_ROOT = 'https://monitoring.googleapis.com/';

/** The API's root and the setting that names it, for the call's service. */
function endpointOf(call: Pick<DataflowCall, 'service'>, target: DataflowTarget) {
  return call.service === 'Cloud Monitoring'
    ? {
        root: target.monitoringEndpoint ?? MONITORING_ROOT,
        set: target.monitoringEndpoint,
        key: 'monitoringEndpoint',
      }
    : { root: target.endpoint ?? GOOGLE_ROOT, set: target.endpoint, key: 'endpoint' };
}

/** The words of a fault sentence for this call (fetch-faults.ts). */
function askedOf(call: DataflowCall, target: DataflowTarget): Asked {
  const { root, set, key } = endpointOf(call, target);
  return {
    system: call.service ?? 'Dataflow',
    request: call.method,
    settings: 'dataflow.',
    address: set ? `dataflow.${key} (${set})` : `the way to ${root} (a proxy?)`,
    instead: pasteInstead(call),
  };
}

/** No credentials found at all: google-auth-library's "Could not load the default credentials". */
const NO_CREDENTIALS = /Could not load the default credentials|Unable to detect a Project Id/i;

/** A failure of a Dataflow call as a ConnectorError that says what to do; never names a credential. */
export function dataflowFailure(error: unknown, call: DataflowCall, target: DataflowTarget): ConnectorError {
  if (error instanceof ConnectorError) return error;
  const fault = faultOf(error);
  if (fault) return faultError(fault, askedOf(call, target), error);
  const e = (error ?? {}) as ClientError;
  const status = e.status ?? e.response?.status;
  const body = googleError(e.response?.data);
  const said = [body.status, body.message ?? e.message].filter(Boolean).join(': ') || 'no reason given';
  if (status !== undefined)
    return new ConnectorError(statusFailure(status, said, call, target), { cause: error });
  if (NO_CREDENTIALS.test(e.message ?? ''))
    return new ConnectorError(
      `memdoctor found no Google credentials for ${call.service ?? 'Dataflow'}: set GOOGLE_APPLICATION_CREDENTIALS, run \`gcloud auth application-default login\`, or give the VM or pod a service account with ${call.role ?? VIEWER_ROLE}.`,
      { cause: error },
    );
  // gaxios wraps the abort of the request's deadline: its cause is the AbortError.
  const timedOut = [e.name, e.code, e.cause?.name].some((n) => n === 'AbortError' || n === 'TimeoutError');
  const reason = timedOut ? `no answer within ${target.timeoutMs} ms` : String(e.code ?? e.message ?? error);
  return new ConnectorError(
    `${call.service ?? 'Dataflow'} did not answer ${call.method} (${reason}); ${pasteInstead(call)}.`,
    {
      cause: error,
    },
  );
}

/**
 * A CommonJS module as an ESM import gives it: Node names only the exports its lexer finds and puts
 * the rest under `default` (googleapis' generated namespaces are among the rest); tsx gives them all.
 */
function commonJs<T extends object>(module: T): T {
  const fallback = (module as { default?: T }).default;
  return fallback && typeof fallback === 'object' ? { ...fallback, ...module } : module;
}

/** The generated v1b3 client, with Application Default Credentials unless the target holds a client. */
export async function dataflowClient(target: DataflowTarget): Promise<dataflow_v1b3.Dataflow> {
  const dataflow_v1b3 = commonJs(await import('googleapis/build/src/apis/dataflow/v1b3.js')).dataflow_v1b3;
  return new dataflow_v1b3.Dataflow({
    auth: target.auth ?? (await applicationDefault()),
    ...(target.endpoint ? { rootUrl: target.endpoint } : {}),
  });
}

/** The generated Cloud Monitoring v3 client, with the same credentials as the Dataflow client. */
export async function monitoringClient(target: DataflowTarget): Promise<monitoring_v3.Monitoring> {
  const monitoring_v3 = commonJs(await import('googleapis/build/src/apis/monitoring/v3.js')).monitoring_v3;
  return new monitoring_v3.Monitoring({
    auth: target.auth ?? (await applicationDefault()),
    rootUrl: target.monitoringEndpoint ?? MONITORING_ROOT,
  });
}

/** Application Default Credentials, for the scope IAM then narrows to what roles/dataflow.viewer grants. */
async function applicationDefault() {
  const { GoogleAuth } = commonJs(await import('google-auth-library'));
  const auth = new GoogleAuth({ scopes: ['https://www.googleapis.com/auth/cloud-platform'] });
  // A service-account key signs its own short-lived JWT for the scope, as Google's GAPIC libraries
  // (@google-cloud/dataflow among them) have it do, rather than trading it at the token endpoint.
  // User, metadata-server and external-account credentials are not affected.
  auth.useJWTAccessWithScope = true;
  return auth;
}

/**
 * What every request sends: gaxios' transport replaced by the bounded GET (bounded-fetch.ts) under
 * the answer's deadline, and no retries (the connector answers once, or says why not).
 */
export function requestOptions(target: DataflowTarget, service?: DataflowCall['service']) {
  const base = new URL(endpointOf({ ...(service ? { service } : {}) }, target).root);
  return {
    retry: false,
    fetchImplementation: gaxiosFetch(() => ({
      base,
      maxBytes: target.maxBytes,
      deadline: currentDeadline(target.timeoutMs),
    })),
  };
}

/**
 * One Dataflow call within the answer's deadline (dataflow.ts starts it, one answer at a time per
 * project and region): failures that say what to do.
 */
export async function dataflowCall<T>(
  call: DataflowCall,
  target: DataflowTarget,
  send: () => Promise<{ data: T }>,
): Promise<T> {
  try {
    return (await beforeDeadline(send(), currentDeadline(target.timeoutMs))).data;
  } catch (error) {
    throw dataflowFailure(error, call, target);
  }
}
