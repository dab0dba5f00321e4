import type { OutcomeRow } from './outcomes.ts';

/** The column order of the stats table, with short headings that fit a chat message. */
const COLUMNS = [
  ['diagnosed', 'diag'],
  ['not_memory', 'not-mem'],
  ['started', 'started'],
  ['finished', 'done'],
  ['abandoned', 'abandon'],
  ['fixed', 'fixed'],
  ['not_fixed', 'notfix'],
  ['partly', 'partly'],
] as const;

/**
 * The figures as a fixed-width table, one line per playbook and cause (or conclusion), the same in
 * Slack and in the terminal. `-` as the cause: walkthroughs started or abandoned before a conclusion.
 */
export function statsTable(rows: readonly OutcomeRow[]): string[] {
  const names = rows.map((r) => `${r.playbook} / ${r.cause}`);
  const width = Math.max('playbook / cause'.length, ...names.map((n) => n.length));
  const head = ['playbook / cause'.padEnd(width), ...COLUMNS.map(([, h]) => h.padStart(7))].join(' ');
  const lines = rows.map((r, i) =>
    [(names[i] ?? '').padEnd(width), ...COLUMNS.map(([k]) => String(r.counts[k]).padStart(7))].join(' '),
  );
  return [head, ...lines];
}

/** What a stats reply says when nothing is recorded yet. */
export const NO_STATS = 'No outcomes recorded in this workspace yet.';
