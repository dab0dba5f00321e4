import type { ConfigurationOptions, CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { ConnectorError } from '../errors.ts';
import { withinDeadline } from './bounded.ts';
import { type Asked, faultError, faultOf } from './fetch-faults.ts';
import { serially } from './http.ts';
import type { KubernetesTarget } from './kubernetes-config.ts';
import { boundedKubeHttp, type Seen } from './kubernetes-http.ts';
import { SERVICE_ACCOUNT_DIR } from './kubernetes-in-cluster.ts';

type Library = typeof import('@kubernetes/client-node');

let library: Promise<Library> | undefined;
/** Loaded on the first fetch: importing it costs about 1.8 s and 70 MB, which no other command should pay. */
const load = (): Promise<Library> => {
  library ??= import('@kubernetes/client-node');
  return library;
};

export const SYSTEM = 'Kubernetes API server';

/** What one read is about, so a failure can say what was missing, which permission, or what to paste. */
export interface KubeCall {
  /** "pod memhog-578d9b5ffd-lwfxj in namespace aiops-e2e" */
  what: string;
  /** The RBAC rule it needs: "get on pods in namespace aiops-e2e". */
  permission: string;
  /** The path it asks for, for messages when no request was sent. */
  path: string;
  /** The kubectl command whose output a person pastes instead. */
  kubectl: string;
}

/** The answer as the API server sent it, read before the library deserialises it, and the path asked. */
export interface KubeAnswer {
  body: string;
  path: string;
}

/**
 * A fresh configuration for every request: in a pod, the library then reads the service account's
 * token (and CA) anew, so the kubelet's rotation of the projected token is picked up at once rather
 * than after the library's own 60 s cache.
 */
function kubeConfig(lib: Library, target: KubernetesTarget): KubeConfig {
  const config = new lib.KubeConfig();
  // The library reads KUBERNETES_SERVICE_HOST/PORT itself; start-up checked them (kubernetes-in-cluster.ts).
  if (target.credentials.kind === 'in-cluster') config.loadFromCluster(target.credentials.pathPrefix);
  else {
    config.loadFromFile(target.credentials.file);
    if (target.credentials.context) config.setCurrentContext(target.credentials.context);
  }
  return config;
}

/** The message of a Status body (what kubectl prints after "Error from server"), if the body is one. */
function statusMessage(body: string | undefined): string | undefined {
  try {
    const status = JSON.parse(body ?? '') as { kind?: unknown; message?: unknown };
    return status.kind === 'Status' && typeof status.message === 'string' ? status.message : undefined;
  } catch {
    return undefined;
  }
}

function credentialsOf(target: KubernetesTarget): string {
  if (target.credentials.kind === 'in-cluster') return "the pod's service account token";
  const context = target.credentials.context ? ` (context ${target.credentials.context})` : '';
  return `the credentials in ${target.credentials.file}${context}`;
}

function statusError(code: number, seen: Seen, call: KubeCall, target: KubernetesTarget) {
  const asked = `GET ${seen.path ?? call.path}`;
  const said = statusMessage(seen.body);
  const because = said ? `: ${said}` : '';
  const paste = `paste the output of \`${call.kubectl}\` instead`;
  if (code === 401 && target.credentials.kind === 'in-cluster')
    // memdoctor reads the token file for every request, so the kubelet's rotation cannot be the cause.
    return `${SYSTEM} answered 401 (Unauthorized) to ${asked}: it refused the pod's service account token. The token file is read anew for every request, so a rotated token is not the cause: was the ServiceAccount deleted or recreated since the pod started? Restart the pod to mount a token of the current one.`;
  if (code === 401)
    return `${SYSTEM} answered 401 (Unauthorized) to ${asked}: it refused ${credentialsOf(target)} (an expired token or certificate?); renew them and check with \`kubectl auth whoami\`.`;
  if (code === 403)
    return `${SYSTEM} answered 403 (Forbidden) to ${asked}${because}. memdoctor needs ${call.permission}: bind the read-only Role of docs/connectors.md to this account.`;
  if (code === 404)
    return `${SYSTEM} has no ${call.what} (404 for ${asked}${because}): check the namespace and the name with \`kubectl get pods -n <namespace>\`.`;
  if (code >= 500) return `${SYSTEM} did not answer (HTTP ${code} for ${asked}${because}); ${paste}.`;
  return `${SYSTEM} refused ${asked} (HTTP ${code}${because}); ${paste}.`;
}

// Node's codes for a server certificate the configured CA does not vouch for (or not for this host).
const UNTRUSTED = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

function untrusted(code: string, path: string, target: KubernetesTarget, cause: unknown): ConnectorError {
  const c = target.credentials;
  const ca =
    c.kind === 'in-cluster'
      ? `${c.pathPrefix}${SERVICE_ACCOUNT_DIR}/ca.crt (the cluster's CA, which the kubelet mounts)`
      : `the certificate-authority of the cluster in ${c.file}`;
  const why =
    code === 'ERR_TLS_CERT_ALTNAME_INVALID'
      ? 'is for another host than the one asked'
      : `is not one ${ca} vouches for`;
  return new ConnectorError(
    `${SYSTEM}: GET ${path} was not sent: the server's certificate ${why} (${code}). Check that the server is the cluster's API server and that the CA is the cluster's.`,
    { cause },
  );
}

/** The words of a fault sentence for this read (fetch-faults.ts). */
function askedOf(call: KubeCall, seen: Seen, target: KubernetesTarget, server: string): Asked {
  return {
    system: SYSTEM,
    request: `GET ${seen.path ?? call.path}`,
    settings: 'kubernetes.',
    address:
      target.credentials.kind === 'in-cluster'
        ? `the in-cluster API server ${server}`
        : `the server of ${target.credentials.file} (${server})`,
    instead: `paste the output of \`${call.kubectl}\` instead`,
  };
}

function failure(
  lib: Library,
  error: unknown,
  seen: Seen,
  call: KubeCall,
  target: KubernetesTarget,
  server: string,
) {
  if (error instanceof ConnectorError) return error;
  // A body the library could not read as JSON arrived with status 200: not an API server's answer.
  const fault = error instanceof SyntaxError ? { kind: 'not-json' as const } : faultOf(error);
  if (fault) return faultError(fault, askedOf(call, seen, target, server), error);
  if (error instanceof lib.ApiException)
    return new ConnectorError(statusError(error.code, seen, call, target), { cause: error });
  const e = error as { name?: string; code?: string; message?: string };
  // Nothing was sent: the library refused the kubeconfig (its credentials, its cluster) before any request.
  if (!seen.path)
    return new ConnectorError(
      `${SYSTEM}: could not send GET ${call.path} (${e?.message ?? String(error)}); check ${credentialsOf(target)}.`,
      { cause: error },
    );
  if (e?.code && UNTRUSTED.has(e.code)) return untrusted(e.code, seen.path, target, error);
  return new ConnectorError(
    `${SYSTEM} did not answer GET ${seen.path} (${e?.code ?? e?.message ?? String(error)}); paste the output of \`${call.kubectl}\` instead.`,
    { cause: error },
  );
}

function targetKey(target: KubernetesTarget): string {
  const c = target.credentials;
  return c.kind === 'in-cluster' ? 'kubernetes:in-cluster' : `kubernetes:${c.file}#${c.context ?? ''}`;
}

/**
 * One read through the real client library: one request at a time per configured cluster, a
 * deadline, a size cap, and failures as ConnectorErrors that say what to do.
 */
export function kubeGet(
  call: KubeCall,
  target: KubernetesTarget,
  run: (api: CoreV1Api, options: ConfigurationOptions) => Promise<unknown>,
): Promise<KubeAnswer> {
  return serially(targetKey(target), async () => {
    // Loaded before the deadline starts: importing the library is memdoctor's cost, not the server's.
    const lib = await load();
    const seen: Seen = {};
    let server = '';
    try {
      return await withinDeadline(target.timeoutMs, async (deadline) => {
        const config = kubeConfig(lib, target);
        server = config.getCurrentCluster()?.server ?? '';
        const limits = { maxBytes: target.maxBytes, deadline, server: new URL(server) };
        await run(config.makeApiClient(lib.CoreV1Api), { httpApi: boundedKubeHttp(lib, limits, seen) });
        return { body: seen.body ?? '', path: seen.path ?? call.path };
      });
    } catch (error) {
      throw failure(lib, error, seen, call, target, server);
    }
  });
}
