import { pidInFileName } from './keys/pid.ts';
import { keysOfLine } from './keys/registry.ts';
import { type JoinKey, keyId } from './keys/types.ts';

/** Where an input names a key: `driver.log:812` (line 0: its file name). */
export interface Cite {
  input: string;
  line: number;
}

/** A key and where each input first names it. */
export interface KeyCites {
  key: JoinKey;
  cites: Cite[];
}

/** One input's lines, under the name its evidence cites. */
export interface CaseInput {
  name: string;
  lines: readonly string[];
}

/** Keys read from one input: the first line naming each, and which keys its lines name together. */
interface InputKeys {
  first: Map<string, { key: JoinKey; line: number }>;
  /** Pairs of key ids named on one line (the same process, e.g. executor 4 and its container). */
  links: [string, string][];
}

/** A bare executor id (no host) is unique within its input only: it may link there, never join inputs. */
function scoped(key: JoinKey, input: string): string {
  return key.family === 'spark-executor' && !key.value.includes('@') ? `${input}#${keyId(key)}` : keyId(key);
}

/** An application is many processes: it joins inputs into one case, never two processes into one. */
function namesOneProcess(key: JoinKey): boolean {
  return key.family !== 'yarn-application';
}

function readKeys(input: CaseInput): InputKeys {
  const first = new Map<string, { key: JoinKey; line: number }>();
  const links: [string, string][] = [];
  const fromName = pidInFileName(input.name);
  if (fromName) first.set(keyId(fromName), { key: fromName, line: 0 });
  input.lines.forEach((text, index) => {
    const ids = keysOfLine(text, index + 1).map((key) => {
      const id = scoped(key, input.name);
      if (!first.has(id)) first.set(id, { key, line: index + 1 });
      return { id, key };
    });
    const process = ids.filter(({ key }) => namesOneProcess(key));
    const [head, ...rest] = process;
    if (head) for (const other of rest) links.push([head.id, other.id]);
  });
  return { first, links };
}

/** Union-find over string ids, smallest root first so results do not depend on call order. */
class Groups {
  private readonly parent = new Map<string, string>();
  find(id: string): string {
    const up = this.parent.get(id);
    if (up === undefined || up === id) return id;
    const root = this.find(up);
    this.parent.set(id, root);
    return root;
  }
  union(a: string, b: string): void {
    const [ra, rb] = [this.find(a), this.find(b)];
    if (ra === rb) return;
    const [root, child] = ra < rb ? [ra, rb] : [rb, ra];
    this.parent.set(child, root);
  }
}

/** Inputs that share a key: one case group, with what joined them and the processes they agree on. */
export interface CaseGroup {
  /** Input names, in input order. */
  inputs: string[];
  /** Keys named by two inputs of the group or more. */
  joinedBy: KeyCites[];
  /** Each: the keys that name one process (named on one line together, or the same key in two inputs). */
  processes: KeyCites[][];
  /** Every YARN container the group names (a case about two containers says which one it used). */
  containers: KeyCites[];
}

function citesOf(id: string, inputs: readonly CaseInput[], read: readonly InputKeys[]): KeyCites {
  const cites: Cite[] = [];
  let key: JoinKey | undefined;
  read.forEach((keys, i) => {
    const found = keys.first.get(id);
    if (!found) return;
    key ??= found.key;
    cites.push({ input: inputs[i]?.name ?? '', line: found.line });
  });
  return { key: key as JoinKey, cites };
}

/** Groups input indexes by the keys they share. */
function inputGroups(read: readonly InputKeys[]): number[][] {
  const groups = new Groups();
  read.forEach((keys, i) => {
    for (const id of keys.first.keys()) if (!id.includes('#')) groups.union(`in:${i}`, `key:${id}`);
  });
  const byRoot = new Map<string, number[]>();
  read.forEach((_, i) => {
    const root = groups.find(`in:${i}`);
    byRoot.set(root, [...(byRoot.get(root) ?? []), i]);
  });
  // Map order is first-seen order: input 0's group first, then the next input not yet grouped.
  return [...byRoot.values()];
}

/** The processes the group's lines name: keys linked on a line, joined across inputs by equal keys. */
function processesOf(inputs: readonly CaseInput[], read: readonly InputKeys[]): KeyCites[][] {
  const groups = new Groups();
  for (const keys of read) for (const [a, b] of keys.links) groups.union(a, b);
  const members = new Map<string, Set<string>>();
  for (const keys of read)
    for (const [id, { key }] of keys.first) {
      if (key.family === 'yarn-application') continue;
      const root = groups.find(id);
      members.set(root, (members.get(root) ?? new Set()).add(id));
    }
  return [...members.values()]
    .map((ids) => [...ids].sort().map((id) => citesOf(id, inputs, read)))
    .filter((keys) => new Set(keys.flatMap((k) => k.cites.map((c) => c.input))).size > 1);
}

function groupOf(
  indexes: readonly number[],
  inputs: readonly CaseInput[],
  all: readonly InputKeys[],
): CaseGroup {
  const members = indexes.flatMap((i) => inputs[i] ?? []);
  const read = indexes.flatMap((i) => all[i] ?? []);
  const ids = [...new Set(read.flatMap((keys) => [...keys.first.keys()]))].sort();
  const cited = ids.map((id) => citesOf(id, members, read));
  return {
    inputs: members.map((input) => input.name),
    joinedBy: cited.filter((k) => k.cites.length > 1),
    processes: processesOf(members, read),
    containers: cited.filter((k) => k.key.family === 'yarn-container'),
  };
}

/**
 * Reads the join keys of every input and groups the inputs that share one: facts of one group are
 * read together, inputs of different groups never (pure; same inputs, same groups).
 */
export function joinInputs(inputs: readonly CaseInput[]): CaseGroup[] {
  const read = inputs.map(readKeys);
  return inputGroups(read).map((indexes) => groupOf(indexes, inputs, read));
}
