import { ConnectorError } from '../errors.ts';
import { eventCitations, logCitations, podCitations } from './kubernetes-cite.ts';
import { type KubeAnswer, type KubeCall, kubeGet, SYSTEM } from './kubernetes-client.ts';
import type { KubernetesTarget } from './kubernetes-config.ts';
import { resourceNamed } from './resource.ts';
import type { Connector, Fetched, FetchRequest, ResourceSpec } from './types.ts';

/** Where a pod lives: its namespace and name, both checked against Kubernetes' naming rules. */
export interface PodRef {
  namespace: string;
  name: string;
}

// k8s.io/apimachinery validation: a namespace or container name is a DNS-1123 label (63 characters),
// a pod name a DNS-1123 subdomain (253). Checked before anything is sent, so no typed text reaches a path.
const LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
const SUBDOMAIN = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/;
const POD_EXAMPLE = 'streaming/flink-taskmanager-1-3 or flink-taskmanager-1-3';

/** Events read for one pod: one page, as kubectl describe asks for (its chunk size is 500). */
export const EVENT_LIMIT = 500;

/** `<namespace>/<pod>` or `<pod>` (the configured namespace), refused unless it names a pod memdoctor may read. */
export function podRef(value: string, target: KubernetesTarget): PodRef {
  const [first = '', second, ...rest] = value.split('/');
  const ref =
    second === undefined ? { namespace: target.namespace, name: first } : { namespace: first, name: second };
  if (rest.length > 0 || !LABEL.test(ref.namespace) || !SUBDOMAIN.test(ref.name))
    throw new ConnectorError(
      `${SYSTEM}: "${value}" is not a pod (expected <namespace>/<pod> or <pod>, e.g. ${POD_EXAMPLE}).`,
    );
  if (target.namespaces && !target.namespaces.includes(ref.namespace))
    throw new ConnectorError(
      `${SYSTEM}: namespace "${ref.namespace}" is not one memdoctor may read (connectors.yaml kubernetes.namespaces: ${target.namespaces.join(', ')}).`,
    );
  return ref;
}

function containerOf(request: FetchRequest): string | undefined {
  const container = request.ids?.container;
  if (container !== undefined && !LABEL.test(container))
    throw new ConnectorError(
      `${SYSTEM}: "${container}" is not a container name (e.g. flink-main-container).`,
    );
  return container;
}

/** One answer, what a person would paste for it, the parser that paste goes to, and the fields it cites. */
interface Read {
  answer: KubeAnswer;
  paste: string;
  parser?: string;
  citations: string[];
}

const podPath = (p: PodRef) => `/api/v1/namespaces/${p.namespace}/pods/${p.name}`;
/** What kubectl prints for `-o json`: the object indented by four spaces, so each field is a line to cite. */
const asKubectlJson = (body: string) => `${JSON.stringify(JSON.parse(body), null, 4)}\n`;

async function fetchPod(pod: PodRef, target: KubernetesTarget): Promise<Read> {
  const call: KubeCall = {
    what: `pod ${pod.name} in namespace ${pod.namespace}`,
    permission: `get on pods in namespace ${pod.namespace}`,
    path: podPath(pod),
    kubectl: `kubectl get pod ${pod.name} -n ${pod.namespace} -o json`,
  };
  const answer = await kubeGet(call, target, (api, options) =>
    api.readNamespacedPod({ name: pod.name, namespace: pod.namespace }, options),
  );
  const json: unknown = JSON.parse(answer.body);
  return { answer, paste: asKubectlJson(answer.body), citations: podCitations(json), parser: 'k8s-pod' };
}

async function fetchEvents(pod: PodRef, target: KubernetesTarget): Promise<Read> {
  const fieldSelector = `involvedObject.name=${pod.name}`;
  const call: KubeCall = {
    what: `event list of namespace ${pod.namespace}`,
    permission: `list on events in namespace ${pod.namespace}`,
    path: `/api/v1/namespaces/${pod.namespace}/events?fieldSelector=${encodeURIComponent(fieldSelector)}&limit=${EVENT_LIMIT}`,
    kubectl: `kubectl get events -n ${pod.namespace} --field-selector ${fieldSelector} -o json`,
  };
  const answer = await kubeGet(call, target, (api, options) =>
    api.listNamespacedEvent({ namespace: pod.namespace, fieldSelector, limit: EVENT_LIMIT }, options),
  );
  const json: unknown = JSON.parse(answer.body);
  return { answer, paste: asKubectlJson(answer.body), citations: eventCitations(json, EVENT_LIMIT) };
}

/** A container's log tail: the previous run's (`previous`) for a restarted container, else its own. */
async function fetchLog(
  pod: PodRef,
  container: string | undefined,
  target: KubernetesTarget,
  previous: boolean,
): Promise<Read> {
  const which = container ? ` -c ${container}` : '';
  const call: KubeCall = {
    what: `${previous ? 'previous ' : ''}container${container ? ` ${container}` : ''} of pod ${pod.name} in namespace ${pod.namespace}`,
    permission: `get on pods/log in namespace ${pod.namespace}`,
    path: `${podPath(pod)}/log`,
    kubectl: `kubectl logs ${pod.name} -n ${pod.namespace}${which}${previous ? ' --previous' : ''} --tail=${target.tailLines}`,
  };
  const answer = await kubeGet(call, target, (api, options) =>
    api.readNamespacedPodLog(
      {
        name: pod.name,
        namespace: pod.namespace,
        ...(container ? { container } : {}),
        ...(previous ? { previous: true } : {}),
        tailLines: target.tailLines,
        limitBytes: target.maxBytes,
      },
      options,
    ),
  );
  return {
    answer,
    paste: answer.body,
    citations: logCitations(answer.body, container, target.tailLines, previous),
  };
}

const RESOURCES: Readonly<Record<string, ResourceSpec>> = {
  pod: { what: 'the pod', ids: ['pod'], parser: 'k8s-pod' },
  events: { what: "the pod's events", ids: ['pod'] },
  log: { what: "the previous container's log", ids: ['pod'] },
  // A container that ended and was not restarted (restartPolicy Never): its own log is the run that ended.
  'ended-log': { what: "the ended container's log", ids: ['pod'] },
};

function read(request: FetchRequest, target: KubernetesTarget): Promise<Read> {
  const pod = podRef(request.ids?.pod ?? '', target);
  if (request.resource === 'pod') return fetchPod(pod, target);
  if (request.resource === 'events') return fetchEvents(pod, target);
  return fetchLog(pod, containerOf(request), target, request.resource === 'log');
}

/**
 * A cluster's API server through @kubernetes/client-node, read-only: a pod (its containers' last
 * termination, restarts, limits and requests), the namespace's events for it, and the previous
 * container's log tail. Each answer goes to what a paste of the same output goes to.
 */
export const kubernetesConnector: Connector<KubernetesTarget> = {
  name: 'kubernetes',
  title: SYSTEM,
  resources: RESOURCES,
  checkIds(request, target) {
    resourceNamed(SYSTEM, RESOURCES, request.resource);
    podRef(request.ids?.pod ?? '', target);
    containerOf(request);
  },
  async fetch(request, context): Promise<Fetched> {
    resourceNamed(SYSTEM, RESOURCES, request.resource);
    const got = await read(request, context.target);
    const fetchedAt = (context.now?.() ?? new Date()).toISOString();
    return {
      resource: request.resource,
      from: { connector: 'kubernetes', path: got.answer.path, fetchedAt },
      body: got.answer.body,
      paste: got.paste,
      ...(got.parser ? { parser: got.parser } : {}),
      citations: got.citations,
    };
  },
};
