import type { EngineHint } from '../hints.ts';
import type { InputStats } from '../ingest/lines.ts';
import type { Playbook } from '../playbook/schema.ts';
import { type CaseDiagnosis, diagnoseBookGroup, formatCite } from './diagnose-case.ts';
import { type CaseGroup, joinKeys, type KeyCites } from './join.ts';
import { parseContainerId } from './keys/yarn.ts';
import type { LeftOut, ReadCase } from './read-case.ts';
import { contradictions } from './refine/contradictions.ts';
import { refineDiagnoses } from './refine/refine.ts';
import { type StoredInput, storedInput } from './stored.ts';
import { apartInTime } from './time.ts';
import { type Unmatched, unmatchedOf } from './unmatched.ts';

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
  /** Where its inputs disagree about one process (a kill's figure against a pmap's), each said once. */
  contradictions: string[];
  /** When no playbook matched: what its inputs show all the same, and the system that would read them. */
  unmatched?: Unmatched;
}

/** `diagnose --together --json`: what was read, what was left out, one answer per group of inputs. */
export interface CaseReport {
  inputs: { source: string; input: InputStats }[];
  leftOut: LeftOut[];
  groups: CaseGroupReport[];
  notes: string[];
  /** Inputs read apart because they were written far from the incident's window (the notes say when). */
  timeApart?: string[];
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

/** Memory samples that name no process: the input's parsed series carries no pid. */
function unnamedSamples(input: StoredInput): boolean {
  const parsed = input.book.groups.find((g) => g.kind === 'parsed.memory-samples')?.first[0];
  return parsed !== undefined && parsed.values?.pid === undefined;
}

/**
 * Why a series of samples read alone stayed alone: it names no process, so nothing joins it (a pid is
 * never guessed), and how to sample so it would.
 */
function unnamedSamplesNotes(groups: readonly CaseGroup[], inputs: readonly StoredInput[]): string[] {
  if (groups.length < 2) return [];
  const alone = groups.filter((g) => g.inputs.length === 1).flatMap((g) => members(inputs, g.inputs));
  return alone
    .filter((input) => unnamedSamples(input) && !input.keys.first.some((k) => k.key.family === 'pid'))
    .map(
      (input) =>
        `${input.name} holds memory samples that name no process (no PID column, no Pid: line, no pid in its name), so it joins no other input and its growth is read on its own. Sample with \`ps -o pid,etimes,rss -p <pid>\`, or write the loop to a file named for the process (ps-<pid>.txt), to read it with that process's other inputs.`,
    );
}

/**
 * Joins the stored inputs into groups: first apart by time (an input of another run is read on its
 * own, with why), then by the keys they share.
 */
function groupsOf(inputs: readonly StoredInput[]): {
  groups: CaseGroup[];
  notes: string[];
  timeApart: string[];
} {
  const time = apartInTime(inputs);
  const apart = new Set(time.apart.flat());
  const byKeys = joinKeys(inputs.filter((input) => !apart.has(input.name)));
  const groups = [...byKeys, ...time.apart.flatMap((names) => joinKeys(members(inputs, names)))];
  // Inputs apart in time may share a key (a pid used again): only the time note says why they are apart.
  const notes = [...unrelatedNote(byKeys), ...unnamedSamplesNotes(byKeys, inputs), ...time.notes];
  return { groups, notes, timeApart: [...apart] };
}

function report(
  inputs: CaseReport['inputs'],
  leftOut: readonly LeftOut[],
  stored: readonly StoredInput[],
  playbooks: readonly Playbook[],
  engine?: EngineHint,
): CaseReport {
  const { groups, notes, timeApart } = groupsOf(stored);
  return {
    inputs,
    leftOut: [...leftOut],
    groups: groups.map((group) => {
      const container = chooseContainer(group);
      const books = members(stored, group.inputs);
      const diagnoses = diagnoseBookGroup(books, playbooks, engine);
      const processes = { processes: group.processes, ...(container ? { container: container.used } : {}) };
      return {
        inputs: group.inputs,
        joinedBy: group.joinedBy.map(keyText),
        processes: group.processes.map(processText),
        ...(container ? { container } : {}),
        // One input alone gives the answer it gets alone; only a second input can refine it.
        diagnoses: books.length > 1 ? refineDiagnoses(diagnoses, books, processes) : diagnoses,
        contradictions: contradictions(books, group.processes),
        ...(diagnoses.length === 0 ? { unmatched: unmatchedOf(books, engine) } : {}),
      };
    }),
    notes: [...notes, ...leftOut.map((l) => `Left out ${l.source}: ${l.reason}.`)],
    ...(timeApart.length > 0 ? { timeApart } : {}),
  };
}

/** Picks the members of a group, by name, in the group's order. */
function members<T extends { name: string }>(all: readonly T[], names: readonly string[]): T[] {
  const byName = new Map(all.map((input) => [input.name, input]));
  return names.flatMap((name) => byName.get(name) ?? []);
}

/**
 * Joins the inputs of a read case by their keys (and their times) and diagnoses each group as one
 * fact set, each input read once into its keys and facts, as a stored case keeps them.
 */
export function reportCase(read: ReadCase, playbooks: readonly Playbook[], engine?: EngineHint): CaseReport {
  return report(
    read.inputs.map(({ name, stats }) => ({ source: name, input: stats })),
    read.leftOut,
    read.inputs.map(storedInput),
    playbooks,
    engine,
  );
}

/**
 * The same answer from what a case store keeps (each input's size, keys, facts and times, never
 * its text): equal to reportCase over the inputs those were read from.
 */
export function reportStoredCase(
  stored: { inputs: readonly StoredInput[]; leftOut: readonly LeftOut[] },
  playbooks: readonly Playbook[],
  engine?: EngineHint,
): CaseReport {
  return report(
    stored.inputs.map(({ name, bytes, lines }) => ({ source: name, input: { bytes, lines } })),
    stored.leftOut,
    stored.inputs,
    playbooks,
    engine,
  );
}
