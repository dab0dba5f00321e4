import type { EngineHint } from '../hints.ts';
import type { InputStats } from '../ingest/lines.ts';
import type { Playbook } from '../playbook/schema.ts';
import { type CaseDiagnosis, diagnoseBookGroup, diagnoseCaseGroup, formatCite } from './diagnose-case.ts';
import { type CaseGroup, joinInputs, joinKeys, type KeyCites } from './join.ts';
import { parseContainerId } from './keys/yarn.ts';
import type { LeftOut, ReadCase } from './read-case.ts';
import type { StoredInput } from './stored.ts';

/** The container a group's evidence is about, when its inputs name more than one, and why that one. */
export interface ContainerChoice {
  used: string;
  why: string;
}

/** One group of inputs that share a key: read as one fact set, ranked as one answer. */
export interface CaseGroupReport {
  inputs: string[];
  /** `yarn-container container_... (driver.log:3, nm.log:1)`: the keys that joined these inputs. */
  joinedBy: string[];
  /** `spark-executor 4@host = yarn-container container_... = pid 8296 (driver.log:3, nm.log:1, pmap.txt:1)`. */
  processes: string[];
  container?: ContainerChoice;
  diagnoses: CaseDiagnosis[];
}

/** `diagnose --together --json`: what was read, what was left out, one answer per group of inputs. */
export interface CaseReport {
  inputs: { source: string; input: InputStats }[];
  leftOut: LeftOut[];
  groups: CaseGroupReport[];
  notes: string[];
}

function keyText({ key, cites }: KeyCites): string {
  return `${key.family} ${key.value} (${cites.map(formatCite).join(', ')})`;
}

function processText(keys: readonly KeyCites[]): string {
  const cites = [...new Set(keys.flatMap((k) => k.cites.map(formatCite)))];
  return `${keys.map((k) => `${k.key.family} ${k.key.value}`).join(' = ')} (${cites.join(', ')})`;
}

/**
 * Two task containers in one group: the evidence is about the one most inputs name (the one the
 * inputs were joined by); ties go to the one named first. The ApplicationMaster is not a candidate.
 */
function chooseContainer(group: CaseGroup): ContainerChoice | undefined {
  const tasks = group.containers.filter((c) => !parseContainerId(c.key.value)?.applicationMaster);
  if (tasks.length < 2) return undefined;
  const [used, ...others] = [...tasks].sort((a, b) => b.cites.length - a.cites.length);
  if (!used) return undefined;
  const inputs = used.cites.length === 1 ? 'one input' : `${used.cites.length} inputs`;
  return {
    used: used.key.value,
    why: `the inputs name ${tasks.length} containers; ${used.key.value} is named by ${inputs} (${used.cites
      .map(formatCite)
      .join(', ')}), the others by fewer: ${others.map(keyText).join('; ')}`,
  };
}

function unrelatedNote(groups: readonly CaseGroup[]): string[] {
  if (groups.length < 2) return [];
  const sets = groups.map((g) => g.inputs.join(' + ')).join(' | ');
  return [
    `The inputs share no container, application, executor, TaskManager, pod or process id across these groups: ${sets}. Each group is diagnosed on its own; facts of different groups are not combined.`,
  ];
}

/** How one group's inputs are diagnosed: from their text, or from their stored books. */
type GroupDiagnosis = (names: readonly string[]) => CaseDiagnosis[];

function report(
  inputs: CaseReport['inputs'],
  leftOut: readonly LeftOut[],
  groups: readonly CaseGroup[],
  diagnoseGroup: GroupDiagnosis,
): CaseReport {
  return {
    inputs,
    leftOut: [...leftOut],
    groups: groups.map((group) => {
      const container = chooseContainer(group);
      return {
        inputs: group.inputs,
        joinedBy: group.joinedBy.map(keyText),
        processes: group.processes.map(processText),
        ...(container ? { container } : {}),
        diagnoses: diagnoseGroup(group.inputs),
      };
    }),
    notes: [...unrelatedNote(groups), ...leftOut.map((l) => `Left out ${l.source}: ${l.reason}.`)],
  };
}

/** Picks the members of a group, by name, in the group's order. */
function members<T extends { name: string }>(all: readonly T[], names: readonly string[]): T[] {
  const byName = new Map(all.map((input) => [input.name, input]));
  return names.flatMap((name) => byName.get(name) ?? []);
}

/** Joins the inputs of a read case by their keys and diagnoses each group as one fact set. */
export function reportCase(read: ReadCase, playbooks: readonly Playbook[], engine?: EngineHint): CaseReport {
  return report(
    read.inputs.map(({ name, stats }) => ({ source: name, input: stats })),
    read.leftOut,
    joinInputs(read.inputs),
    (names) => diagnoseCaseGroup(members(read.inputs, names), playbooks, engine),
  );
}

/**
 * The same answer from what a case store keeps (each input's size, keys and facts, never its text):
 * equal to reportCase over the inputs those were read from.
 */
export function reportStoredCase(
  stored: { inputs: readonly StoredInput[]; leftOut: readonly LeftOut[] },
  playbooks: readonly Playbook[],
  engine?: EngineHint,
): CaseReport {
  return report(
    stored.inputs.map(({ name, bytes, lines }) => ({ source: name, input: { bytes, lines } })),
    stored.leftOut,
    joinKeys(stored.inputs),
    (names) => diagnoseBookGroup(members(stored.inputs, names), playbooks, engine),
  );
}
