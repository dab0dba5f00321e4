import { type ContainerState, PodShape, type TerminatedState } from '../engine/parsers/k8s-pod-shape.ts';
import { loosely, z } from './rest.ts';

// Field names as core/v1 writes them (k8s.io/api core/v1 types.go: Pod and Event). Quantities are cited
// as the API gives them ("40Mi"): the k8s-pod parser turns them into bytes. The pod's shape is the one
// that parser reads a pasted pod by.
const Pod = PodShape;
type State = z.infer<typeof ContainerState>;
type Terminated = z.infer<typeof TerminatedState>;

const EventList = z.looseObject({
  metadata: z.looseObject({ continue: z.string().optional() }).optional(),
  items: z.array(
    z.looseObject({
      type: z.string().optional(),
      reason: z.string().optional(),
      message: z.string().optional(),
      count: z.number().optional(),
      source: z.looseObject({ component: z.string().optional() }).optional(),
      reportingComponent: z.string().optional(),
    }),
  ),
});

/** Most events and log lines cited one by one; the whole answer is judged anyway. */
const MAX_CITED = 8;
const cut = (text: string) => (text.length > 200 ? `${text.slice(0, 200)}…` : text);

function stateText(state: State | undefined): string | undefined {
  if (state?.waiting) return `waiting${state.waiting.reason ? ` (${state.waiting.reason})` : ''}`;
  if (state?.terminated) return `terminated${state.terminated.reason ? ` (${state.terminated.reason})` : ''}`;
  if (state?.running) return 'running';
  return undefined;
}

function terminatedCitations(at: string, t: Terminated | undefined): string[] {
  if (!t) return [];
  return [
    ...(t.reason ? [`${at}.reason = ${t.reason}`] : []),
    ...(t.exitCode !== undefined ? [`${at}.exitCode = ${t.exitCode}`] : []),
    ...(t.finishedAt ? [`${at}.finishedAt = ${t.finishedAt}`] : []),
  ];
}

/** Per container: memory limit and request, restarts, state now, and how it last ended. */
export function podCitations(json: unknown): string[] {
  const pod = loosely(Pod, json);
  if (!pod) return [];
  const statuses = pod.status?.containerStatuses ?? [];
  return pod.spec.containers.flatMap((c) => {
    const spec = `spec.containers[${c.name}].resources`;
    const at = `containerStatuses[${c.name}]`;
    const status = statuses.find((s) => s.name === c.name);
    const state = stateText(status?.state);
    return [
      ...(c.resources?.limits?.memory !== undefined
        ? [`${spec}.limits.memory = ${c.resources.limits.memory}`]
        : []),
      ...(c.resources?.requests?.memory !== undefined
        ? [`${spec}.requests.memory = ${c.resources.requests.memory}`]
        : []),
      ...(status?.restartCount !== undefined ? [`${at}.restartCount = ${status.restartCount}`] : []),
      ...(state ? [`${at}.state = ${state}`] : []),
      ...terminatedCitations(`${at}.state.terminated`, status?.state?.terminated),
      ...terminatedCitations(`${at}.lastState.terminated`, status?.lastState?.terminated),
    ];
  });
}

/** Warnings first, then the rest, as many as fit; a second page not read is said. */
export function eventCitations(json: unknown, limit: number): string[] {
  const list = loosely(EventList, json);
  if (!list) return [];
  const ordered = [
    ...list.items.filter((e) => e.type === 'Warning'),
    ...list.items.filter((e) => e.type !== 'Warning'),
  ];
  const cited = ordered.slice(0, MAX_CITED).map((e) => {
    const times = e.count && e.count > 1 ? ` (x${e.count})` : '';
    const from = e.source?.component ?? e.reportingComponent;
    return cut(
      `event ${e.type ?? ''} ${e.reason ?? ''}${times}${from ? ` from ${from}` : ''}: ${e.message ?? ''}`,
    );
  });
  if (list.items.length === 0) cited.push('events: none for this pod (they expire after an hour by default)');
  if (list.metadata?.continue) cited.push(`events: more than ${limit}; only the first ${limit} were read`);
  return cited;
}

const MEMORY_LINE = /OutOfMemoryError|MemoryError|out of memory|oom|killed|memory limit/i;

/** How much of the log came back, and its lines about memory. */
export function logCitations(
  text: string,
  container: string | undefined,
  tailLines: number,
  previous = true,
): string[] {
  const at = `log[${container ?? 'the only container'}${previous ? ', previous' : ''}]`;
  const lines = text === '' ? [] : text.replace(/\n$/, '').split('\n');
  const memory = lines.filter((l) => MEMORY_LINE.test(l)).slice(0, MAX_CITED - 1);
  return [
    `${at}: ${lines.length} lines (the last ${tailLines} asked)`,
    ...memory.map((l) => `${at}: ${cut(l.trim())}`),
  ];
}

/** A container that ended, and whether its log is the previous one (restarted) or its own (not restarted). */
export interface EndedContainer {
  container: string;
  /** True when the kubelet restarted it (lastState.terminated): its log is `previous=true`. */
  previous: boolean;
}

/**
 * The container whose log tells why it ended: OOMKilled first, then exit 137, then any that has ended.
 * A restarted container's end is in lastState.terminated and its log is the previous one; a container
 * that is not restarted (restartPolicy Never: native Flink TaskManagers, Spark executors) keeps its end
 * in state.terminated, and its own log is that run's (the API server has no previous log for it).
 * None has ended: there is no log of an end to read.
 */
export function podToCheck(json: unknown): EndedContainer | undefined {
  const statuses = loosely(Pod, json)?.status?.containerStatuses ?? [];
  const ended = statuses.flatMap((s) => [
    ...(s.state?.terminated ? [{ container: s.name, previous: false, end: s.state.terminated }] : []),
    ...(s.lastState?.terminated ? [{ container: s.name, previous: true, end: s.lastState.terminated }] : []),
  ]);
  const found =
    ended.find((e) => e.end.reason === 'OOMKilled') ?? ended.find((e) => e.end.exitCode === 137) ?? ended[0];
  return found ? { container: found.container, previous: found.previous } : undefined;
}
