import { z } from 'zod';
import type { ResourceProfile, TaskManagerResources } from '../calculators/flink-slots.ts';
import type { Fact, FactValue } from '../facts.ts';
import { formatSize } from '../units.ts';
import { fact, output, parseFailed } from './common.ts';
import { JsonBody } from './json-body.ts';
import { profileFromJson } from './resource-profile.ts';
import type { Parser, ParserRun } from './types.ts';

/** JSON bigger than this is not a REST response someone pasted; stop buffering instead of growing. */
const MAX_CHARS = 16 * 1024 * 1024;

const Resource = z.looseObject({
  cpuCores: z.number().optional(),
  taskHeapMemory: z.number().optional(),
  taskOffHeapMemory: z.number().optional(),
  managedMemory: z.number().optional(),
  networkMemory: z.number().optional(),
});
const TaskManager = z.looseObject({
  id: z.string(),
  slotsNumber: z.number(),
  freeSlots: z.number(),
  totalResource: Resource.optional(),
  freeResource: Resource.optional(),
  memoryConfiguration: z.record(z.string(), z.number().nullable()).optional(),
});
const TaskManagers = z.looseObject({ taskmanagers: z.array(TaskManager) });
const Overview = z.looseObject({
  taskmanagers: z.number(),
  'slots-total': z.number(),
  'slots-available': z.number(),
  'jobs-running': z.number().optional(),
  'jobs-failed': z.number().optional(),
  'flink-version': z.string().optional(),
});
const Exceptions = z.looseObject({
  'root-exception': z.string().nullable().optional(),
  'all-exceptions': z.array(z.unknown()).optional(),
  exceptionHistory: z.looseObject({ entries: z.array(z.unknown()) }).optional(),
  truncated: z.boolean().optional(),
});

type Values = Record<string, FactValue>;

/**
 * The TaskManagers of a `/taskmanagers` (or `/taskmanagers/<id>`) response, for the slot-fit check;
 * undefined when the JSON is neither.
 */
export function taskManagersFromJson(json: unknown): TaskManagerResources[] | undefined {
  const list = TaskManagers.safeParse(json);
  const single = list.success ? undefined : TaskManager.safeParse(json);
  const tms = list.success ? list.data.taskmanagers : single?.success ? [single.data] : undefined;
  return tms?.map((t) => ({
    id: t.id,
    free: profileFromJson(t.freeResource),
    ...(t.totalResource ? { total: profileFromJson(t.totalResource) } : {}),
  }));
}

type Reported = { totalResource?: unknown; freeResource?: unknown };

/** A resource with a figure above 0: -1 (UNKNOWN) and 0 everywhere are figures Flink did not measure. */
const RESOURCE_FIELDS = ['cpuCores', 'taskHeapMemory', 'taskOffHeapMemory', 'managedMemory', 'networkMemory'];
function hasFigures(resource: unknown): boolean {
  if (typeof resource !== 'object' || resource === null) return false;
  const fields = resource as Record<string, unknown>;
  return RESOURCE_FIELDS.some((key) => typeof fields[key] === 'number' && (fields[key] as number) > 0);
}

/**
 * Why the TaskManagers' free resources cannot be compared, or undefined when they can. `totalResource`
 * and `freeResource` arrived with Flink 1.10; an older JobManager answers slots and `hardware` only
 * (Flink 1.3's legacy handler even put cpuCores and physicalMemory at the top level). Flink 1.11-1.12
 * send them, but as zeros where the ResourceManager does not know the TaskManagers' sizes (a standalone
 * cluster's default worker is WorkerResourceSpec.ZERO; FLINK-14406's /taskmanagers/<id> answer, 1.12):
 * "0 B free" would be a figure Flink never measured.
 */
export function resourcesUnreported(tms: readonly Reported[]): string | undefined {
  if (!tms.some((t) => t.totalResource !== undefined || t.freeResource !== undefined))
    return 'this Flink version does not report resources (its /taskmanagers has no totalResource or freeResource)';
  if (!tms.some((t) => hasFigures(t.totalResource) || hasFigures(t.freeResource)))
    return "these TaskManagers report every resource as 0, figures Flink did not measure (Flink 1.11-1.12 do not know a standalone TaskManager's size)";
  return undefined;
}

/** Whether the TaskManagers report their resources (see resourcesUnreported). */
export function reportsResources(tms: readonly Reported[]): boolean {
  return resourcesUnreported(tms) === undefined;
}

/** Why the resources of a `/taskmanagers` or `/taskmanagers/<id>` answer cannot be compared, if they cannot. */
export function jsonResourcesUnreported(json: unknown): string | undefined {
  const list = TaskManagers.safeParse(json);
  if (list.success) return resourcesUnreported(list.data.taskmanagers);
  const single = TaskManager.safeParse(json);
  return single.success ? resourcesUnreported([single.data]) : 'this is not a /taskmanagers answer';
}

function taskManagerValues(tms: readonly z.infer<typeof TaskManager>[]): Values {
  const free = tms.map((t) => profileFromJson(t.freeResource));
  const sum = (k: keyof ResourceProfile) => free.reduce((s, p) => s + p[k], 0);
  const max = (k: keyof ResourceProfile) => Math.max(0, ...free.map((p) => p[k]));
  return {
    taskManagers: tms.length,
    slotsTotal: tms.reduce((s, t) => s + t.slotsNumber, 0),
    slotsFree: tms.reduce((s, t) => s + t.freeSlots, 0),
    freeCpuCores: sum('cpuCores'),
    freeTaskHeapBytes: sum('taskHeapMemory'),
    freeTaskOffHeapBytes: sum('taskOffHeapMemory'),
    freeManagedBytes: sum('managedMemory'),
    freeNetworkBytes: sum('networkMemory'),
    maxFreeTaskHeapBytes: max('taskHeapMemory'),
    maxFreeManagedBytes: max('managedMemory'),
  };
}

function rootClass(root: string): string {
  return (
    /^([\w.$]+(?:Exception|Error|Throwable))/.exec(root.trim())?.[1] ?? root.split(/[:\n]/)[0]?.trim() ?? ''
  );
}

class FlinkRestRun implements ParserRun {
  private readonly body = new JsonBody(MAX_CHARS);

  push(line: string, lineNo: number): void {
    this.body.push(line, lineNo);
  }

  finish() {
    const json = this.body.parse(
      'complete JSON from the Flink REST API (/taskmanagers, /taskmanagers/<id>, /overview or /jobs/<id>/exceptions); this JSON is cut off or malformed.',
    );
    const line = this.body.line;
    const tms = TaskManagers.safeParse(json);
    if (tms.success) return this.taskManagers(tms.data.taskmanagers, 'taskmanagers', line);
    const tm = TaskManager.safeParse(json);
    if (tm.success) return this.taskManagers([tm.data], 'taskmanager', line);
    const overview = Overview.safeParse(json);
    if (overview.success) {
      const o = overview.data;
      const values = {
        endpoint: 'overview',
        taskManagers: o.taskmanagers,
        slotsTotal: o['slots-total'],
        slotsAvailable: o['slots-available'],
        jobsRunning: o['jobs-running'] ?? 0,
        jobsFailed: o['jobs-failed'] ?? 0,
        flinkVersion: o['flink-version'] ?? '',
      };
      const verdict = o['slots-available'] === 0 ? 'no free slots' : `${o['slots-available']} free slots`;
      const summary = `Flink ${values.flinkVersion}: ${o.taskmanagers} TaskManagers, ${o['slots-available']} of ${o['slots-total']} slots free, ${values.jobsRunning} jobs running.`;
      return output('flink-rest', values, summary, [], verdict, line);
    }
    const exceptions = Exceptions.safeParse(json);
    if (exceptions.success && ('root-exception' in (json as object) || exceptions.data.exceptionHistory))
      return this.exceptions(exceptions.data, line);
    throw parseFailed(
      'a Flink REST response with "taskmanagers", "slotsNumber", "slots-total" or "root-exception".',
    );
  }

  private taskManagers(tms: z.infer<typeof TaskManager>[], endpoint: string, line: number) {
    const unreported = resourcesUnreported(tms);
    const reported = unreported === undefined;
    const slots = {
      taskManagers: tms.length,
      slotsTotal: tms.reduce((s, t) => s + t.slotsNumber, 0),
      slotsFree: tms.reduce((s, t) => s + t.freeSlots, 0),
    };
    const values: Values = {
      endpoint,
      resourcesReported: reported,
      ...(reported ? taskManagerValues(tms) : slots),
    };
    const memory = tms.length === 1 ? tms[0]?.memoryConfiguration : undefined;
    for (const [key, bytes] of Object.entries(memory ?? {}))
      if (bytes !== null) values[`memory.${key}`] = bytes;
    const facts: Fact[] = [];
    if (values.slotsFree === 0)
      facts.push(fact('flink.no-free-slots', line, `${values.slotsTotal} slots, none free`));
    const verdict = values.slotsFree === 0 ? 'no free slots' : `${values.slotsFree} free slots`;
    const head = `${tms.length} TaskManager(s), ${values.slotsFree} of ${values.slotsTotal} slots free`;
    const summary = reported
      ? `${head}; free task heap ${formatSize(Number(values.freeTaskHeapBytes))} (largest on one TaskManager ${formatSize(Number(values.maxFreeTaskHeapBytes))}), free managed ${formatSize(Number(values.freeManagedBytes))}.`
      : `${head}; ${unreported}, so only the slots can be compared.`;
    return output('flink-rest', values, summary, facts, verdict, line);
  }

  private exceptions(e: z.infer<typeof Exceptions>, line: number) {
    const root = e['root-exception'] ?? '';
    const count = e.exceptionHistory?.entries.length ?? e['all-exceptions']?.length ?? 0;
    const className = root ? rootClass(root) : '';
    const values = {
      endpoint: 'exceptions',
      hasRootException: root !== '',
      rootExceptionClass: className,
      rootExceptionMessage: root.split('\n')[0]?.slice(0, 200) ?? '',
      exceptionCount: count,
      truncated: e.truncated ?? false,
    };
    const facts = root
      ? [fact('flink.root-exception', line, values.rootExceptionMessage, { className })]
      : [];
    const verdict = root ? `root exception: ${className}` : 'no root exception';
    const summary = root
      ? `The job failed with ${className}; ${count} exception(s) recorded.`
      : 'The job has no root exception.';
    return output('flink-rest', values, summary, facts, verdict, line);
  }
}

/** Flink REST JSON: /taskmanagers, /taskmanagers/<id>, /overview and /jobs/<id>/exceptions. */
export const flinkRestParser: Parser = {
  id: 'flink-rest',
  title: 'Flink REST API JSON',
  howToGet:
    '`curl http://<jobmanager>:8081/taskmanagers` (or /overview, /taskmanagers/<id>, /jobs/<id>/exceptions)',
  // The REST API answers minified JSON on one line; /jobs/<id>/exceptions alone is often over 16 KiB.
  maxLineChars: MAX_CHARS,
  detect(head) {
    const start = head.find((l) => l.trim())?.trim() ?? '';
    if (!start.startsWith('{') && !start.startsWith('[')) return false;
    return head.some((l) =>
      /"(taskmanagers|slotsNumber|slots-total|root-exception|exceptionHistory)"/.test(l),
    );
  },
  create: () => new FlinkRestRun(),
};
