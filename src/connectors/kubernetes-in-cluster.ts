import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ConfigInvalidError } from '../errors.ts';

/** Where the kubelet mounts a pod's service account, as @kubernetes/client-node's loadFromCluster reads it. */
export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

/** What start-up learnt of the pod's service account: the files are read again for every request. */
export interface ServiceAccount {
  /** loadFromCluster's `pathPrefix`: '' in a pod; a temporary folder in tests. */
  pathPrefix: string;
  /** The pod's own namespace (the `namespace` file), when the volume has one. */
  namespace?: string;
}

type Env = (name: string) => string | undefined;

const NOT_MOUNTED =
  'the pod runs with automountServiceAccountToken: false (in its spec or its ServiceAccount). Set it to true in the pod spec, as deploy/kubernetes-in-cluster does';

function read(path: string): { text: string } | { reason: string } {
  try {
    return { text: readFileSync(path, 'utf8') };
  } catch (error) {
    return { reason: (error as NodeJS.ErrnoException).code ?? 'unreadable' };
  }
}

/** The advice for a file of the volume that could not be read, by why. */
function unreadable(file: string, reason: string): string {
  if (reason === 'ENOENT') return `there is no ${file} (ENOENT): ${NOT_MOUNTED}`;
  return `${file} cannot be read (${reason}): memdoctor's user must be able to read the service account volume (its defaultMode, the pod's runAsUser and fsGroup)`;
}

// The kubelet sets both for every container (enableServiceLinks does not turn them off); the
// client library builds the server's URL from them.
function checkEnv(where: string, env: Env): void {
  for (const name of ['KUBERNETES_SERVICE_HOST', 'KUBERNETES_SERVICE_PORT']) {
    if (!env(name))
      throw new ConfigInvalidError(
        `${where}.inCluster is true, but ${name} is not set: memdoctor is not running in a pod. Give ${where}.kubeconfig instead.`,
      );
  }
  const port = env('KUBERNETES_SERVICE_PORT') ?? '';
  // loadFromCluster speaks plain HTTP to these ports, and then refuses HTTP without skipTLSVerify.
  if (!/^\d+$/.test(port) || ['80', '8080', '8001'].includes(port))
    throw new ConfigInvalidError(
      `${where}.inCluster is true, but KUBERNETES_SERVICE_PORT is "${port}": the client library reaches the API server over HTTPS only on another port (443 in a pod). Give ${where}.kubeconfig instead.`,
    );
}

function checkToken(where: string, dir: string): void {
  const token = read(`${dir}/token`);
  if ('reason' in token)
    throw new ConfigInvalidError(
      `${where}.inCluster is true, but ${unreadable(`${dir}/token`, token.reason)}.`,
    );
  // The library sends the file as it is, so a line break would end the Authorization header.
  if (!/^\S+$/.test(token.text))
    throw new ConfigInvalidError(
      `${where}.inCluster is true, but ${dir}/token is ${token.text ? 'not one token (it has spaces or a line break)' : 'empty'}: mount the kubelet's projected token there, not a file written by hand.`,
    );
}

function checkCa(where: string, dir: string): void {
  const ca = read(`${dir}/ca.crt`);
  if ('reason' in ca)
    throw new ConfigInvalidError(
      `${where}.inCluster is true, but ${unreadable(`${dir}/ca.crt`, ca.reason)}.`,
    );
  try {
    new X509Certificate(ca.text);
  } catch {
    throw new ConfigInvalidError(
      `${where}.inCluster is true, but ${dir}/ca.crt is not a PEM certificate, so the API server's certificate could not be checked: mount the cluster's CA there (the kube-root-ca.crt ConfigMap holds it).`,
    );
  }
}

// A DNS-1123 label, as every namespace is.
const LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

function podNamespace(where: string, dir: string): string | undefined {
  const file = read(`${dir}/namespace`);
  if ('reason' in file) return undefined;
  const namespace = file.text.trim();
  if (!LABEL.test(namespace))
    throw new ConfigInvalidError(
      `${where}.inCluster is true, but ${dir}/namespace does not hold a namespace.`,
    );
  return namespace;
}

/**
 * Checks at start-up what @kubernetes/client-node's loadFromCluster will read for every request (the
 * environment, the token, the CA), so a pod without its service account is told before the first
 * check, with what to change.
 */
export function serviceAccount(where: string, env: Env, pathPrefix: string): ServiceAccount {
  checkEnv(where, env);
  const dir = `${pathPrefix}${SERVICE_ACCOUNT_DIR}`;
  checkToken(where, dir);
  checkCa(where, dir);
  const namespace = podNamespace(where, dir);
  return { pathPrefix, ...(namespace ? { namespace } : {}) };
}
