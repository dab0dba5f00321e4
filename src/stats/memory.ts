import {
  type Activity,
  type Counter,
  type FeedbackAnswer,
  fieldOf,
  MAX_ACTIVITIES,
  MAX_NOTE_CHARS,
  type OutcomeRow,
  type OutcomeStore,
  type OutcomeSubject,
  rowsOf,
} from './outcomes.ts';

/** Outcomes of one process: lost on restart and not shared (set REDIS_URL to share them). */
export class MemoryOutcomeStore implements OutcomeStore {
  readonly kind = 'memory';
  private readonly counts = new Map<string, Map<string, number>>();
  private readonly answers = new Map<string, string>();
  readonly notes = new Map<string, string>();
  private readonly activities = new Map<string, Activity[]>();

  private bump(workspace: string, field: string, by: number): void {
    const fields = this.counts.get(workspace) ?? new Map<string, number>();
    fields.set(field, (fields.get(field) ?? 0) + by);
    this.counts.set(workspace, fields);
  }

  async count(subject: OutcomeSubject, counter: Counter): Promise<void> {
    this.bump(subject.workspace, fieldOf(subject.playbook, subject.cause, counter), 1);
  }

  async feedback(answer: FeedbackAnswer): Promise<void> {
    const key = `${answer.workspace}\t${answer.walkthrough}`;
    const field = fieldOf(answer.playbook, answer.conclusion, answer.answer);
    const before = this.answers.get(key);
    if (before === field) return;
    if (before) this.bump(answer.workspace, before, -1);
    this.bump(answer.workspace, field, 1);
    this.answers.set(key, field);
  }

  async note(workspace: string, walkthrough: string, note: string): Promise<void> {
    this.notes.set(`${workspace}\t${walkthrough}`, note.slice(0, MAX_NOTE_CHARS));
  }

  async remember(workspace: string, activity: Activity): Promise<void> {
    this.activities.set(
      workspace,
      [activity, ...(this.activities.get(workspace) ?? [])].slice(0, MAX_ACTIVITIES),
    );
  }

  async recent(workspace: string): Promise<Activity[]> {
    return [...(this.activities.get(workspace) ?? [])];
  }

  async rows(workspace: string): Promise<OutcomeRow[]> {
    return rowsOf(Object.fromEntries(this.counts.get(workspace) ?? []));
  }
}
