import { readFileSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { ConfigInvalidError } from '../errors.ts';
import { SERVICE_ACCOUNT_DIR, serviceAccount } from './kubernetes-in-cluster.ts';

/** A Kubernetes API server memdoctor may read, and the limits every request to it keeps. */
export interface KubernetesTarget {
  /** Where the credentials come from: a kubeconfig file (and its context), or the pod's service account. */
  credentials:
    | { kind: 'kubeconfig'; file: string; context?: string }
    /** `pathPrefix`: where loadFromCluster looks for the service account volume ('' in a pod). */
    | { kind: 'in-cluster'; pathPrefix: string };
  /** The namespace of a pod given without one. */
  namespace: string;
  /** When set, the only namespaces read; anything else is refused before a request is made. */
  namespaces?: readonly string[];
  timeoutMs: number;
  maxBytes: number;
  /** Lines of the previous container's log read from its end (`kubectl logs --previous --tail`). */
  tailLines: number;
}

// A namespace is a DNS-1123 label (k8s.io/apimachinery validation.IsDNS1123Label): 63 characters at most.
const NAMESPACE = z
  .string()
  .max(63)
  .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, 'a namespace is lower-case letters, digits and "-", e.g. etl');

export const KubernetesSettings = z
  .strictObject({
    kubeconfig: z
      .string()
      .refine(isAbsolute, 'must be the absolute path of a kubeconfig file, e.g. /etc/memdoctor/kubeconfig')
      .optional(),
    inCluster: z.boolean().optional(),
    context: z.string().min(1).optional(),
    namespace: NAMESPACE.optional(),
    namespaces: z.array(NAMESPACE).min(1).optional(),
    timeoutMs: z.number().int().min(100).max(60_000).default(5_000),
    maxBytes: z
      .number()
      .int()
      .min(1024)
      .max(64 * 1024 * 1024)
      .default(8 * 1024 * 1024),
    tailLines: z.number().int().min(1).max(10_000).default(200),
  })
  .superRefine((s, ctx) => {
    const problem = (message: string) => ctx.addIssue({ code: 'custom', message });
    if (!s.kubeconfig && !s.inCluster)
      problem(
        'needs kubeconfig: /absolute/path/to/kubeconfig, or inCluster: true when memdoctor runs in a pod with a service account',
      );
    if (s.kubeconfig && s.inCluster) problem('give kubeconfig or inCluster: true, not both');
    if (s.inCluster && s.context)
      problem("context names a kubeconfig context; inCluster uses the pod's service account instead");
    if (s.namespace && s.namespaces && !s.namespaces.includes(s.namespace))
      problem(`namespace "${s.namespace}" is not in namespaces [${s.namespaces.join(', ')}]`);
  });

type Settings = z.infer<typeof KubernetesSettings>;

// The few kubeconfig fields memdoctor checks at start-up (k8s.io/client-go tools/clientcmd/api/v1 Config),
// so a wrong path or context is told before the first check, not in the middle of an incident.
const Kubeconfig = z.looseObject({
  'current-context': z.string().optional(),
  contexts: z.array(
    z.looseObject({
      name: z.string(),
      context: z.looseObject({ cluster: z.string(), namespace: z.string().optional() }),
    }),
  ),
  clusters: z.array(z.looseObject({ name: z.string(), cluster: z.looseObject({ server: z.string() }) })),
});

function readKubeconfig(where: string, file: string): z.infer<typeof Kubeconfig> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new ConfigInvalidError(`${where}.kubeconfig names ${file}, which cannot be read (${reason})`);
  }
  let parsed: unknown;
  try {
    parsed = parseYaml(text);
  } catch {
    parsed = undefined;
  }
  const config = Kubeconfig.safeParse(parsed);
  if (!config.success)
    throw new ConfigInvalidError(
      `${where}.kubeconfig names ${file}, which is not a kubeconfig with contexts and clusters; write one with \`kubectl config view --minify --flatten > ${file}\``,
    );
  return config.data;
}

/** The context memdoctor will use and its default namespace; a missing context is told with the choices. */
function chosenContext(where: string, file: string, settings: Settings) {
  const config = readKubeconfig(where, file);
  const names = config.contexts.map((c) => c.name);
  const wanted = settings.context ?? config['current-context'];
  if (!wanted)
    throw new ConfigInvalidError(
      `${file} has no current-context: set ${where}.context to one of ${names.join(', ')}`,
    );
  const context = config.contexts.find((c) => c.name === wanted);
  if (!context)
    throw new ConfigInvalidError(
      `${where}.context "${wanted}" is not in ${file} (it has: ${names.join(', ') || 'no contexts'})`,
    );
  if (!config.clusters.some((c) => c.name === context.context.cluster))
    throw new ConfigInvalidError(
      `context "${wanted}" in ${file} names cluster "${context.context.cluster}", which the file does not define`,
    );
  return { name: wanted, namespace: context.context.namespace };
}

/** The default namespace in a pod: `namespace`, else the pod's own (its service account's namespace file). */
function inClusterNamespace(where: string, settings: Settings, own: string | undefined): string {
  const namespace = settings.namespace ?? own;
  if (!namespace)
    throw new ConfigInvalidError(
      `${where}.inCluster is true, but ${SERVICE_ACCOUNT_DIR}/namespace is missing: set ${where}.namespace for pods given without one.`,
    );
  if (settings.namespaces && !settings.namespaces.includes(namespace))
    throw new ConfigInvalidError(
      `${where}: the pod's own namespace "${namespace}" is not in namespaces [${settings.namespaces.join(', ')}]; set ${where}.namespace to one of them.`,
    );
  return namespace;
}

/**
 * Validated settings as a target: the kubeconfig and its context, or the pod's service account, are
 * checked now, not at the first fetch. `serviceAccountPrefix` is loadFromCluster's path prefix ('' in a pod).
 */
export function kubernetesTarget(
  where: string,
  settings: Settings,
  env: (name: string) => string | undefined,
  serviceAccountPrefix = '',
): KubernetesTarget {
  const limits = {
    timeoutMs: settings.timeoutMs,
    maxBytes: settings.maxBytes,
    tailLines: settings.tailLines,
    ...(settings.namespaces ? { namespaces: settings.namespaces } : {}),
  };
  if (settings.inCluster) {
    const account = serviceAccount(where, env, serviceAccountPrefix);
    return {
      credentials: { kind: 'in-cluster', pathPrefix: account.pathPrefix },
      namespace: inClusterNamespace(where, settings, account.namespace),
      ...limits,
    };
  }
  const file = settings.kubeconfig as string;
  const context = chosenContext(where, file, settings);
  return {
    credentials: { kind: 'kubeconfig', file, ...(settings.context ? { context: settings.context } : {}) },
    namespace: settings.namespace ?? context.namespace ?? 'default',
    ...limits,
  };
}
