import type { CaseRecord } from '../cases/index.ts';
import type { CaseGroupReport, CaseReport, LeftOut } from '../engine/case/index.ts';

/** What one input did to a case's answer, for the line that says so. */
export interface CaseChange {
  /** The input, under the name the case gives it. */
  input: string;
  added: boolean;
  /** Why it was left out, when it was. */
  leftOut?: LeftOut;
  /** The case's top diagnosis before and after, by playbook and title. */
  before?: { playbook: string; title: string };
  after?: { playbook: string; title: string };
  /** True when the top diagnosis is another playbook than before (or there was none). */
  newTop: boolean;
  /** Inputs the top diagnosis cites now and did not before. */
  newEvidenceFrom: string[];
  /** Groups of inputs that share no key with each other, read apart (empty when all are one). */
  apart: string[][];
  /** True when the input was read apart for its time, not its keys. */
  timeApart?: boolean;
  /** One sentence a person reads: what changed. */
  summary: string;
}

/**
 * The group a case's answer leads with: the one whose top diagnosis is most confident (ties: the
 * earlier group, the one with the first input).
 */
export function leadGroup(report: CaseReport): CaseGroupReport | undefined {
  let lead: CaseGroupReport | undefined;
  for (const group of report.groups) {
    const top = group.diagnoses[0]?.confidence ?? -1;
    if (!lead || top > (lead.diagnoses[0]?.confidence ?? -1)) lead = group;
  }
  return lead;
}

function topOf(report: CaseReport | undefined) {
  const top = report ? leadGroup(report)?.diagnoses[0] : undefined;
  return top ? { playbook: top.playbook, title: top.title } : undefined;
}

function citedInputs(report: CaseReport | undefined): Set<string> {
  const top = report ? leadGroup(report)?.diagnoses[0] : undefined;
  return new Set(top?.evidence.map((e) => e.input) ?? []);
}

function summaryOf(change: Omit<CaseChange, 'summary'>): string {
  const { input } = change;
  if (change.leftOut) return `Left out ${input}: ${change.leftOut.reason}; the answer is unchanged.`;
  const parts: string[] = [`Added ${input}`];
  if (change.newTop && change.after)
    parts.push(
      change.before
        ? `the top diagnosis is now "${change.after.title}" (was "${change.before.title}")`
        : `the top diagnosis is "${change.after.title}"`,
    );
  if (change.newEvidenceFrom.length > 0) parts.push(`new evidence from ${change.newEvidenceFrom.join(', ')}`);
  const alone = change.apart.find((group) => group.includes(input));
  if (change.timeApart)
    parts.push(`${input} was written far from the incident's window (see the note), so it is read apart`);
  else if (alone && change.apart.length > 1)
    parts.push(
      `${input} shares no container, application, executor, TaskManager, pod or process id with ${change.apart
        .filter((g) => g !== alone)
        .flat()
        .join(', ')}, so it is read apart`,
    );
  if (parts.length === 1) parts.push('no change to the diagnosis');
  return `${parts.join('; ')}.`;
}

/** Compares the case's answer before and after one input. */
export function caseChange(
  input: string,
  outcome: { added: boolean; leftOut?: LeftOut },
  before: CaseReport | undefined,
  after: CaseReport,
): CaseChange {
  const [was, now] = [topOf(before), topOf(after)];
  const earlier = citedInputs(before);
  const change = {
    input,
    added: outcome.added,
    ...(outcome.leftOut ? { leftOut: outcome.leftOut } : {}),
    ...(was ? { before: was } : {}),
    ...(now ? { after: now } : {}),
    newTop: now !== undefined && now.playbook !== was?.playbook,
    newEvidenceFrom: [...citedInputs(after)].filter((name) => !earlier.has(name)),
    apart: after.groups.length > 1 ? after.groups.map((g) => g.inputs) : [],
    ...(after.timeApart?.includes(input) ? { timeApart: true } : {}),
  };
  return { ...change, summary: summaryOf(change) };
}

/** A name no input of the case has yet: a second `executor.log` becomes `executor.log (2)`. */
export function uniqueName(record: CaseRecord | undefined, name: string): string {
  const taken = new Set([
    ...(record?.inputs.map((i) => i.name) ?? []),
    ...(record?.leftOut.map((l) => l.source) ?? []),
  ]);
  if (!taken.has(name)) return name;
  let n = 2;
  while (taken.has(`${name} (${n})`)) n++;
  return `${name} (${n})`;
}
