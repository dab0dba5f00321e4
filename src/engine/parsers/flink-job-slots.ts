import { z } from 'zod';
import type { FactValue } from '../facts.ts';
import { fact, output, parseFailed } from './common.ts';
import { JsonBody } from './json-body.ts';
import type { Parser, ParserRun } from './types.ts';

/** Pasted REST responses are small; far larger text is not what the step asked for. */
const MAX_CHARS = 8 * 1024 * 1024;

// Field names as Flink's REST handlers write them: ClusterOverviewWithVersion (/overview),
// JobDetailsInfo (/jobs/<id>: "vertices" with "parallelism" and per-state "tasks", "status-counts").
const Overview = z.looseObject({
  taskmanagers: z.number(),
  'slots-total': z.number(),
  'slots-available': z.number(),
  'flink-version': z.string().optional(),
});
const Vertex = z.looseObject({
  name: z.string().optional(),
  parallelism: z.number(),
  status: z.string().optional(),
  tasks: z.record(z.string(), z.number()).optional(),
});
const Job = z.looseObject({
  jid: z.string(),
  state: z.string(),
  vertices: z.array(Vertex),
  'status-counts': z.record(z.string(), z.number()).optional(),
});
const TaskManagers = z.looseObject({
  taskmanagers: z.array(z.looseObject({ slotsNumber: z.number(), freeSlots: z.number() })),
});

/** Subtask states of a task that has no slot yet (ExecutionState CREATED, SCHEDULED). */
const WAITING = ['CREATED', 'SCHEDULED'];

/** Where a top-level `{...}` that starts at `start` ends (the index of its `}`), or -1 if it never does. */
function objectEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i;
  }
  return -1;
}

function parseOrUndefined(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return undefined;
  }
}

/**
 * The top-level JSON objects of a paste holding several responses one after another, found by
 * matching braces outside strings; text between them (curl prompts, blank lines) is ignored, and so
 * is a fragment that is not JSON on its own (the step says what it needs).
 */
export function jsonDocuments(text: string): unknown[] {
  const docs: unknown[] = [];
  for (let start = text.indexOf('{'); start !== -1; ) {
    const end = objectEnd(text, start);
    if (end === -1) break;
    const doc = parseOrUndefined(text.slice(start, end + 1));
    if (doc !== undefined) docs.push(doc);
    start = text.indexOf('{', end + 1);
  }
  return docs;
}

interface Cluster {
  taskManagers: number;
  slotsTotal: number;
  slotsAvailable: number;
}

function clusterOf(docs: readonly unknown[]): Cluster | undefined {
  for (const doc of docs) {
    const o = Overview.safeParse(doc);
    if (o.success)
      return {
        taskManagers: o.data.taskmanagers,
        slotsTotal: o.data['slots-total'],
        slotsAvailable: o.data['slots-available'],
      };
    const t = TaskManagers.safeParse(doc);
    if (t.success) {
      const tms = t.data.taskmanagers;
      return {
        taskManagers: tms.length,
        slotsTotal: tms.reduce((s, tm) => s + tm.slotsNumber, 0),
        slotsAvailable: tms.reduce((s, tm) => s + tm.freeSlots, 0),
      };
    }
  }
  return undefined;
}

/** The job's slot demand: with one slot sharing group (the default) its largest vertex parallelism. */
function jobOf(docs: readonly unknown[]) {
  for (const doc of docs) {
    const j = Job.safeParse(doc);
    if (!j.success) continue;
    const vertices = j.data.vertices;
    const counts =
      j.data['status-counts'] ??
      vertices.reduce<Record<string, number>>((acc, v) => {
        for (const [state, n] of Object.entries(v.tasks ?? {})) acc[state] = (acc[state] ?? 0) + n;
        return acc;
      }, {});
    return {
      jobState: j.data.state,
      vertices: vertices.length,
      maxParallelism: Math.max(0, ...vertices.map((v) => v.parallelism)),
      subtasks: vertices.reduce((s, v) => s + v.parallelism, 0),
      tasksWaiting: WAITING.reduce((s, state) => s + (counts[state] ?? 0), 0),
    };
  }
  return undefined;
}

function verdictOf(cluster?: Cluster, job?: ReturnType<typeof jobOf>): string {
  if (cluster && cluster.taskManagers === 0) return 'no-task-managers';
  if (!cluster || !job) return cluster ? 'cluster-only' : 'job-only';
  return cluster.slotsTotal < job.maxParallelism ? 'fewer-slots' : 'enough-slots';
}

function summaryOf(values: Record<string, FactValue>, cluster?: Cluster, job?: ReturnType<typeof jobOf>) {
  const parts: string[] = [];
  if (cluster)
    parts.push(
      `${cluster.taskManagers} TaskManager(s) with ${cluster.slotsTotal} slots, ${cluster.slotsAvailable} available`,
    );
  if (job)
    parts.push(
      `the job (${job.jobState}) has ${job.vertices} vertices, largest parallelism ${job.maxParallelism}, ${job.tasksWaiting} subtask(s) waiting for a slot`,
    );
  if (values.verdict === 'fewer-slots')
    parts.push(
      `it needs ${values.slotsShort} more slot(s) than the cluster has, even with one slot sharing group`,
    );
  return `${parts.join('; ')}.`;
}

class JobSlotsRun implements ParserRun {
  private readonly body = new JsonBody(MAX_CHARS);

  push(line: string, lineNo: number): void {
    this.body.push(line, lineNo);
  }

  finish() {
    const docs = jsonDocuments(this.body.text);
    const cluster = clusterOf(docs);
    const job = jobOf(docs);
    if (!cluster && !job)
      throw parseFailed(
        'the JSON of GET /overview (or /taskmanagers) and of GET /jobs/<job-id>, one after the other; this is neither, or it is cut off.',
      );
    const values: Record<string, FactValue> = { ...(cluster ?? {}), ...(job ?? {}) };
    values.verdict = verdictOf(cluster, job);
    if (cluster && job) {
      values.slotsShort = Math.max(0, job.maxParallelism - cluster.slotsTotal);
      if (cluster.taskManagers > 0) {
        const perTm = cluster.slotsTotal / cluster.taskManagers;
        values.slotsPerTaskManager = perTm;
        values.taskManagersToAdd = perTm > 0 ? Math.ceil(Number(values.slotsShort) / perTm) : 0;
      }
    }
    const line = this.body.line;
    const summary = summaryOf(values, cluster, job);
    const facts =
      values.verdict === 'no-task-managers' ? [fact('flink.no-task-managers', line, summary)] : [];
    return output('flink-job-slots', values, summary, facts, undefined, line);
  }
}

/**
 * A job's slot demand against the cluster's slots, from REST JSON every Flink has: /overview (or
 * /taskmanagers) and /jobs/<id>, pasted one after the other. Only read where a step names it.
 */
export const flinkJobSlotsParser: Parser = {
  id: 'flink-job-slots',
  title: 'Flink /overview and /jobs/<id> JSON',
  howToGet:
    '`curl -s http://<jobmanager>:8081/overview; echo; curl -s http://<jobmanager>:8081/jobs/<job-id>`',
  explicitOnly: true,
  detect: (head) => head.some((l) => /"(slots-total|jid|taskmanagers)"/.test(l)),
  create: () => new JobSlotsRun(),
};
