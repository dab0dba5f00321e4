import { z } from 'zod';

/** Things counted per workspace, playbook and cause (or conclusion, for walkthrough answers). */
export const COUNTERS = ['diagnosed', 'not_memory', 'started', 'finished', 'abandoned'] as const;
export type Counter = (typeof COUNTERS)[number];

/** The answers to "Did this fix it?". */
export const FEEDBACK = ['fixed', 'not_fixed', 'partly'] as const;
export type Feedback = (typeof FEEDBACK)[number];
export const FeedbackSchema = z.enum(FEEDBACK);

/** What one count is about: never the pasted text, only ids from the playbooks. */
export interface OutcomeSubject {
  workspace: string;
  playbook: string;
  /** The diagnosis' cause id, a walkthrough's conclusion step, or `-` when there is none. */
  cause?: string;
}

/** One answer to "Did this fix it?" for one walkthrough; a second answer replaces the first. */
export interface FeedbackAnswer {
  workspace: string;
  walkthrough: string;
  playbook: string;
  conclusion: string;
  answer: Feedback;
}

/**
 * Something that happened in a workspace, for the App Home tab: a diagnosis posted in a channel or
 * a walkthrough started in a thread. Ids and titles only, never the pasted text.
 */
export const ActivitySchema = z.strictObject({
  kind: z.enum(['diagnosis', 'walkthrough']),
  channel: z.string().min(1),
  ts: z.string().min(1),
  playbook: z.string().min(1),
  title: z.string(),
  user: z.string().min(1),
  at: z.iso.datetime(),
  walkthrough: z.string().optional(),
});
export type Activity = z.infer<typeof ActivitySchema>;

/** How many recent activities a workspace keeps (newest first). */
export const MAX_ACTIVITIES = 200;

/** One row of `/memdoctor stats`: a playbook and a cause (or conclusion) with its figures. */
export interface OutcomeRow {
  playbook: string;
  cause: string;
  counts: Record<Counter | Feedback, number>;
}

/**
 * Where outcomes live: memory (one process) or Redis (shared by replicas and the CLI). Both keep
 * the same figures; one contract test suite runs against each.
 */
export interface OutcomeStore {
  readonly kind: 'memory' | 'redis';
  count(subject: OutcomeSubject, counter: Counter): Promise<void>;
  /** Records an answer once per walkthrough: answering again moves the count, never adds one. */
  feedback(answer: FeedbackAnswer): Promise<void>;
  /** A note to a walkthrough's answer (kept beside it, capped in length). */
  note(workspace: string, walkthrough: string, note: string): Promise<void>;
  rows(workspace: string): Promise<OutcomeRow[]>;
  /** Keeps an activity at the head of the workspace's recent list (capped at MAX_ACTIVITIES). */
  remember(workspace: string, activity: Activity): Promise<void>;
  /** The workspace's recent activities, newest first. */
  recent(workspace: string): Promise<Activity[]>;
}

/** Notes are free text from a person; kept short so no log or paste ends up in the store. */
export const MAX_NOTE_CHARS = 500;

/** The hash field of one figure: playbook, cause and metric, tab-separated (ids hold no tabs). */
export function fieldOf(playbook: string, cause: string | undefined, metric: Counter | Feedback): string {
  return [playbook, cause ?? '-', metric].map((p) => p.replace(/\t/g, ' ')).join('\t');
}

function emptyCounts(): Record<Counter | Feedback, number> {
  return Object.fromEntries([...COUNTERS, ...FEEDBACK].map((k) => [k, 0])) as Record<
    Counter | Feedback,
    number
  >;
}

const METRICS = new Set<string>([...COUNTERS, ...FEEDBACK]);

/** Rows from stored fields (`playbook\tcause\tmetric` -> n), sorted by playbook then cause. */
export function rowsOf(fields: Readonly<Record<string, string | number>>): OutcomeRow[] {
  const rows = new Map<string, OutcomeRow>();
  for (const [field, raw] of Object.entries(fields)) {
    const [playbook, cause, metric] = field.split('\t');
    if (!playbook || !cause || !metric || !METRICS.has(metric)) continue;
    const key = `${playbook}\t${cause}`;
    const row = rows.get(key) ?? { playbook, cause, counts: emptyCounts() };
    row.counts[metric as Counter | Feedback] += Number(raw);
    rows.set(key, row);
  }
  return [...rows.values()].sort(
    (a, b) => a.playbook.localeCompare(b.playbook) || a.cause.localeCompare(b.cause),
  );
}

/** How often a conclusion fixed things in a workspace, from its row. */
export function fixRate(rows: readonly OutcomeRow[], playbook: string, conclusion: string) {
  const row = rows.find((r) => r.playbook === playbook && r.cause === conclusion);
  if (!row) return { fixed: 0, answered: 0 };
  const { fixed, not_fixed, partly } = row.counts;
  return { fixed, answered: fixed + not_fixed + partly };
}
