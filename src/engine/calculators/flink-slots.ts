import { formatSize } from '../units.ts';

/** A Flink ResourceProfile: what a slot request needs or what a TaskManager has free (bytes, cores). */
export interface ResourceProfile {
  cpuCores: number;
  taskHeapMemory: number;
  taskOffHeapMemory: number;
  managedMemory: number;
  networkMemory: number;
}

export const PROFILE_DIMENSIONS = [
  'cpuCores',
  'taskHeapMemory',
  'taskOffHeapMemory',
  'managedMemory',
  'networkMemory',
] as const satisfies readonly (keyof ResourceProfile)[];
type Dimension = (typeof PROFILE_DIMENSIONS)[number];

/** One TaskManager's free (and optionally total) resources. */
export interface TaskManagerResources {
  id: string;
  free: ResourceProfile;
  total?: ResourceProfile;
}

export type SlotFitVerdict = 'fits' | 'lacks-resources' | 'fragmentation';

/** Whether pending slot requests fit the cluster, and the smallest change that makes them fit. */
export interface SlotFit {
  verdict: SlotFitVerdict;
  /** Dimensions where the sum of free resources is below the sum requested, with the shortfall. */
  shortfall: Partial<Record<Dimension, number>>;
  /** Requests (by index) that found no TaskManager in a first-fit-decreasing placement. */
  unplaced: number[];
  advice: string;
}

function sum(profiles: readonly ResourceProfile[]): ResourceProfile {
  const total: ResourceProfile = {
    cpuCores: 0,
    taskHeapMemory: 0,
    taskOffHeapMemory: 0,
    managedMemory: 0,
    networkMemory: 0,
  };
  for (const p of profiles) for (const d of PROFILE_DIMENSIONS) total[d] += p[d];
  return total;
}

function fitsIn(need: ResourceProfile, free: ResourceProfile): boolean {
  return PROFILE_DIMENSIONS.every((d) => need[d] <= free[d] + 1e-9);
}

/** The largest request first, each into the first TaskManager with room, as a scheduler would try. */
function place(requests: readonly ResourceProfile[], tms: readonly TaskManagerResources[]): number[] {
  const free = tms.map((tm) => ({ ...tm.free }));
  const order = requests
    .map((r, i) => ({ r, i }))
    .sort((a, b) => b.r.taskHeapMemory + b.r.managedMemory - (a.r.taskHeapMemory + a.r.managedMemory));
  const unplaced: number[] = [];
  for (const { r, i } of order) {
    const slot = free.find((f) => fitsIn(r, f));
    if (!slot) {
      unplaced.push(i);
      continue;
    }
    for (const d of PROFILE_DIMENSIONS) slot[d] -= r[d];
  }
  return unplaced.sort((a, b) => a - b);
}

function show(d: Dimension, value: number): string {
  if (d !== 'cpuCores') return formatSize(value);
  const cores = Number(value.toFixed(2));
  return `${cores} core${cores === 1 ? '' : 's'}`;
}

/** The TaskManager setting that sizes each dimension of a slot (Flink's configuration keys). */
const SETTING: Readonly<Record<Dimension, string>> = {
  cpuCores: 'taskmanager.cpu.cores',
  taskHeapMemory: 'taskmanager.memory.task.heap.size',
  taskOffHeapMemory: 'taskmanager.memory.task.off-heap.size',
  managedMemory: 'taskmanager.memory.managed.size',
  networkMemory: 'taskmanager.memory.network.min/max',
};

/** Dimensions where one request needs more than a whole TaskManager of this shape has. */
function beyondShape(request: ResourceProfile, shape: ResourceProfile): Dimension[] {
  return PROFILE_DIMENSIONS.filter((d) => request[d] > shape[d] + 1e-9);
}

/**
 * Advice when a request is larger than a whole TaskManager: adding TaskManagers of the current size
 * can never host it, so the TaskManagers must grow or the request shrink.
 */
function sizeUpAdvice(request: ResourceProfile, shape: ResourceProfile): string | undefined {
  const over = beyondShape(request, shape);
  if (over.length === 0) return undefined;
  const raise = over.map(
    (d) => `${SETTING[d]} to at least ${show(d, request[d])} (now ${show(d, shape[d])})`,
  );
  return `A request needs more than a whole TaskManager of the current size has, so adding TaskManagers cannot help: raise ${raise.join(', ')}, or lower the request.`;
}

/** How many more TaskManagers shaped like `shape` cover the shortfall in every dimension. */
function extraTaskManagers(shortfall: Partial<Record<Dimension, number>>, shape?: ResourceProfile): number {
  if (!shape) return 0;
  let n = 0;
  for (const [d, missing] of Object.entries(shortfall) as [Dimension, number][]) {
    if (shape[d] > 0) n = Math.max(n, Math.ceil(missing / shape[d]));
  }
  return n;
}

/** Advice when the cluster lacks resources in total: how many more TaskManagers, or what to give them. */
function shortfallAdvice(
  shortfall: Partial<Record<Dimension, number>>,
  short: readonly Dimension[],
  shape?: ResourceProfile,
): string {
  const n = extraTaskManagers(shortfall, shape);
  const missing = short.map((d) => `${show(d, shortfall[d] ?? 0)} of ${d}`).join(', ');
  // Adding TaskManagers that have none of a resource cannot cover its shortfall.
  const absent = shape ? short.filter((d) => shape[d] <= 0) : [];
  const noneOf = absent.length > 0 ? ` (they have no ${absent.join(', ')}: give the TaskManagers some)` : '';
  // n is 0 when only resources the TaskManagers lack are short: more of them would not help.
  const scale =
    n > 0
      ? `add ${n} TaskManager${n > 1 ? 's' : ''} of the current size${noneOf}`
      : absent.length > 0
        ? `give the TaskManagers some ${absent.join(', ')}`
        : 'add TaskManagers';
  return `The cluster is short of ${missing} in total: ${scale}, or lower the operators' resource requests by that much.`;
}

/**
 * Compares pending slot requests with the TaskManagers' free resources. Not enough in sum: the cluster
 * lacks resources. Enough in sum but some request fits no single TaskManager: fragmentation (a slot can
 * never span TaskManagers).
 */
export function slotFit(requests: readonly ResourceProfile[], tms: readonly TaskManagerResources[]): SlotFit {
  const need = sum(requests);
  const have = sum(tms.map((t) => t.free));
  const shortfall: Partial<Record<Dimension, number>> = {};
  for (const d of PROFILE_DIMENSIONS) if (need[d] > have[d] + 1e-9) shortfall[d] = need[d] - have[d];
  const unplaced = place(requests, tms);
  const short = Object.keys(shortfall) as Dimension[];
  // Older TaskManagers report an all-zero total: no shape to compare with.
  const shape = tms.map((t) => t.total).find((t) => t && PROFILE_DIMENSIONS.some((d) => t[d] > 0));
  const biggest = requests[unplaced[0] ?? 0];
  const sizeUp = shape && biggest ? sizeUpAdvice(biggest, shape) : undefined;
  if (short.length > 0) {
    const advice = shortfallAdvice(shortfall, short, shape);
    return { verdict: 'lacks-resources', shortfall, unplaced, advice: sizeUp ?? advice };
  }
  if (unplaced.length === 0) return { verdict: 'fits', shortfall, unplaced, advice: 'Every request fits.' };
  return {
    verdict: 'fragmentation',
    shortfall,
    unplaced,
    advice: fragmentationAdvice(requests, tms, unplaced, sizeUp),
  };
}

function fragmentationAdvice(
  requests: readonly ResourceProfile[],
  tms: readonly TaskManagerResources[],
  unplaced: readonly number[],
  sizeUp?: string,
): string {
  const none = `There is enough free in total, but no single TaskManager has room for ${unplaced.length} request(s)`;
  if (sizeUp) return `${none}. ${sizeUp}`;
  const first = requests[unplaced[0] ?? 0];
  const best = [...tms].sort((a, b) => b.free.taskHeapMemory - a.free.taskHeapMemory)[0];
  const over =
    first && best
      ? PROFILE_DIMENSIONS.filter((d) => first[d] > best.free[d]).map(
          (d) => `${d} to ${show(d, best.free[d])}`,
        )
      : [];
  const shrink = over.length > 0 ? ` or lower the request's ${over.join(', ')} so it fits ${best?.id}` : '';
  return `${none}: add one TaskManager${shrink}.`;
}
