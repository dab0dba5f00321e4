import type { BookContents, Fact, FactValue } from '../../facts.ts';
import { fill } from '../../templates.ts';
import { formatSize } from '../../units.ts';
import type { CaseDiagnosis, CaseEvidence } from '../diagnose-case.ts';
import type { KeyCites } from '../join.ts';
import { REFINEMENTS, type Refinement, type RefiningEvidence } from './rules.ts';

export type { RefinedBy } from './refined-by.ts';

/** One input of a group as the refinement reads it: its name and the facts it gave on its own. */
export interface RefiningInput {
  name: string;
  book: BookContents;
}

/** What a group knows about which inputs are one process, and which container its evidence is about. */
export interface GroupProcesses {
  processes: readonly (readonly KeyCites[])[];
  container?: string;
}

const MAX_ACTIONS = 6;

function factsOf(book: BookContents): Fact[] {
  return book.groups.flatMap((group) => group.first);
}

function matches(evidence: RefiningEvidence, fact: Fact): boolean {
  if (fact.kind !== evidence.fact) return false;
  const values = fact.values ?? {};
  for (const [key, allowed] of Object.entries(evidence.where ?? {}))
    if (!allowed.includes(values[key] as FactValue)) return false;
  for (const [key, floor] of Object.entries(evidence.atLeast ?? {})) {
    const value = values[key];
    if (typeof value !== 'number' || value < floor) return false;
  }
  return true;
}

/** The inputs a process's keys are named in. */
function inputsOf(process: readonly KeyCites[]): Set<string> {
  return new Set(process.flatMap((key) => key.cites.map((cite) => cite.input)));
}

/** A process about another container than the one the group's evidence is about. */
function otherContainer(process: readonly KeyCites[], container: string | undefined): boolean {
  if (!container) return false;
  const named = process.filter((k) => k.key.family === 'yarn-container').map((k) => k.key.value);
  return named.length > 0 && !named.includes(container);
}

/**
 * Whether an input speaks of the process the diagnosis is about: it is one of the inputs the
 * diagnosis cites, or a process key joins it to one of them (and that process is the container the
 * group's evidence is about, when the group names several).
 */
export function sameProcess(input: string, cited: ReadonlySet<string>, group: GroupProcesses): boolean {
  if (cited.has(input)) return true;
  return group.processes.some((process) => {
    const names = inputsOf(process);
    return (
      names.has(input) &&
      [...cited].some((name) => names.has(name)) &&
      !otherContainer(process, group.container)
    );
  });
}

/**
 * Whether a verdict that names its process (a samples series' `pid`) is about the process that joins
 * its input to the diagnosis: `ps aux` names every process, and its growth is one of them. A join that
 * names no pid (a pod) cannot say otherwise; one that names only other pids is another process.
 */
function aboutThatProcess(
  fact: Fact,
  input: string,
  cited: ReadonlySet<string>,
  group: GroupProcesses,
): boolean {
  const pid = fact.values?.pid;
  if (typeof pid !== 'string') return true;
  const joining = (names: Set<string>) => names.has(input) && [...cited].some((name) => names.has(name));
  const pids = group.processes
    .filter((process) => joining(inputsOf(process)))
    .flatMap((process) => process.filter((k) => k.key.family === 'pid').map((k) => k.key.value));
  return pids.length === 0 || pids.includes(pid);
}

/** The memory limit the group's inputs name: a kill's limit, a memory cgroup's (the kernel's OOM report), or a pod's. */
export function limitOf(inputs: readonly RefiningInput[]): number | undefined {
  for (const fact of inputs.flatMap((input) => factsOf(input.book))) {
    const limit =
      (fact.kind === 'container.killed-memory' && fact.values?.resource !== 'virtual') ||
      fact.kind === 'os.memcg-limit'
        ? fact.values?.limitBytes
        : fact.kind === 'parsed.k8s-pod'
          ? fact.values?.memoryLimitBytes
          : undefined;
    if (typeof limit === 'number' && limit > 0) return limit;
  }
  return undefined;
}

function durationText(seconds: number): string {
  if (seconds < 120) return `${Math.round(seconds)} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  return `${Math.round(seconds / 3600)} h`;
}

/** `; at that rate, from X the Y limit is N away`: for a growth with a rate, when the case knows the limit. */
export function untilLimit(fact: Fact, limit: number | undefined): string {
  const rate = fact.values?.rateBytesPerSecond;
  const last = fact.values?.lastBytes;
  if (!limit || typeof rate !== 'number' || rate <= 0 || typeof last !== 'number') return '';
  if (last >= limit)
    return `; they ran up to the ${formatSize(limit)} limit (the last, ${formatSize(last)}, is at or past it: RSS also counts shared file pages)`;
  return `; at that rate the last sample (${formatSize(last)}) reaches the ${formatSize(limit)} limit in about ${durationText((limit - last) / rate)}`;
}

/** A fact's values for the rule's templates: sizes read as sizes, a share as a percentage. */
function templateValues(fact: Fact, limit?: number): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, value] of Object.entries(fact.values ?? {}))
    values[key] =
      typeof value === 'number' && /(?:^b|B)ytes/.test(key)
        ? formatSize(value)
        : typeof value === 'number' && key === 'share'
          ? `${Math.round(value * 100)}%`
          : String(value);
  const share = fact.values?.share;
  values.ofProcess = typeof share === 'number' ? `, ${Math.round(share * 100)}% of the process` : '';
  values.untilLimit = untilLimit(fact, limit);
  return values;
}

/** The first input of the process, in the group's order, whose facts hold the rule's evidence. */
function evidenceFor(
  rule: Refinement,
  inputs: readonly RefiningInput[],
  cited: ReadonlySet<string>,
  group: GroupProcesses,
): { input: string; fact: Fact } | undefined {
  for (const input of inputs) {
    const fact = factsOf(input.book).find(
      (f) => matches(rule.evidence, f) && aboutThatProcess(f, input.name, cited, group),
    );
    if (fact && sameProcess(input.name, cited, group)) return { input: input.name, fact };
  }
  return undefined;
}

/** A weak diagnosis' first action says it is weak; it stays first whatever the rule adds. */
function isWeakNote(action: string): boolean {
  return action.startsWith('Low confidence');
}

function refined(
  diagnosis: CaseDiagnosis,
  rule: Refinement,
  found: { input: string; fact: Fact },
  limit: number | undefined,
): CaseDiagnosis {
  const { input, fact } = found;
  const values = templateValues(fact, limit);
  const evidence: CaseEvidence = { input, line: fact.line, text: fact.text };
  const ruleActions = rule.actions.flatMap((a) => fill(a, values) ?? []);
  const weak = diagnosis.actions.filter(isWeakNote);
  const kept = rule.replacesActions ? [] : diagnosis.actions.filter((a) => !isWeakNote(a));
  const cited = diagnosis.evidence.some((e) => e.input === input && e.line === fact.line);
  return {
    ...diagnosis,
    cause: rule.cause.id,
    evidence: cited ? diagnosis.evidence : [evidence, ...diagnosis.evidence],
    actions: [...new Set([...weak, ...ruleActions, ...kept])].slice(0, MAX_ACTIONS),
    refinedBy: {
      rule: rule.id,
      cause: rule.cause.id,
      title: rule.cause.title,
      because: fill(rule.because, values) ?? rule.because.replace(/\{\{[\w.-]{1,80}\}\}/g, '?'),
      evidence,
      was: diagnosis.cause,
      source: rule.source,
    },
  };
}

/**
 * Each diagnosis of a case group, its cause refined by the first rule (in the table's order) whose
 * evidence an input of the same process shows: the pmap's arenas decide an overhead kill, the GC
 * log's floor a heap OutOfMemoryError. Pure; a diagnosis no rule pairs with is returned as it was.
 */
export function refineDiagnoses(
  diagnoses: readonly CaseDiagnosis[],
  inputs: readonly RefiningInput[],
  group: GroupProcesses,
  rules: readonly Refinement[] = REFINEMENTS,
): CaseDiagnosis[] {
  const limit = limitOf(inputs);
  return diagnoses.map((diagnosis) => {
    const cited = new Set(diagnosis.evidence.map((e) => e.input));
    for (const rule of rules) {
      if (!rule.playbooks.includes(diagnosis.playbook)) continue;
      const found = evidenceFor(rule, inputs, cited, group);
      if (found) return refined(diagnosis, rule, found, limit);
    }
    return diagnosis;
  });
}
