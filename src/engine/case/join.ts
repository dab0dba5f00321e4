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

/**
 * Keys read from one input, as plain data (what a case store keeps instead of the text): the first
 * line naming each key, by id, and the pairs of key ids its lines name together (the same process,
 * e.g. executor 4 and its container), each pair once.
 */
export interface InputKeys {
  first: { id: string; key: JoinKey; line: number }[];
  links: [string, string][];
}

/**
 * Most distinct keys (and links) kept per input: far more than an incident's inputs name, and a
 * bound, so a NodeManager log naming every container of a busy cluster stays small when stored.
 */
export const MAX_KEYS_PER_INPUT = 500;

/** A bare executor id (no host) is unique within its input only: it may link there, never join inputs. */
function scoped(key: JoinKey, input: string): string {
  return key.family === 'spark-executor' && !key.value.includes('@') ? `${input}#${keyId(key)}` : keyId(key);
}

/** An application is many processes: it joins inputs into one case, never two processes into one. */
function namesOneProcess(key: JoinKey): boolean {
  return key.family !== 'yarn-application';
}

/**
 * Reads the join keys of an input line by line (pure): its lines need not be held, only the first
 * line naming each key and the pairs named together, each bounded by MAX_KEYS_PER_INPUT.
 */
export class KeyReader {
  private readonly first = new Map<string, { id: string; key: JoinKey; line: number }>();
  private readonly links = new Map<string, [string, string]>();
  /** What a key reader remembers of this input's earlier lines (a ps table's header, say). */
  private readonly memo = new Map<string, number>();

  constructor(private readonly name: string) {
    const fromName = pidInFileName(name);
    if (fromName) this.first.set(keyId(fromName), { id: keyId(fromName), key: fromName, line: 0 });
  }

  /** The keys of line `lineNo` (from 1). */
  push(text: string, lineNo: number): void {
    const ids = keysOfLine(text, lineNo, this.memo).flatMap((key) => {
      const id = scoped(key, this.name);
      if (!this.first.has(id) && this.first.size >= MAX_KEYS_PER_INPUT) return [];
      if (!this.first.has(id)) this.first.set(id, { id, key, line: lineNo });
      return [{ id, key }];
    });
    const process = ids.filter(({ key }) => namesOneProcess(key));
    const [head, ...rest] = process;
    if (head)
      for (const other of rest)
        if (this.links.size < MAX_KEYS_PER_INPUT)
          this.links.set(`${head.id}\t${other.id}`, [head.id, other.id]);
  }

  keys(): InputKeys {
    return { first: [...this.first.values()], links: [...this.links.values()] };
  }
}

/** Reads the join keys of one input's lines (pure): what joinKeys and a stored case work from. */
export function readKeys(input: CaseInput): InputKeys {
  const reader = new KeyReader(input.name);
  input.lines.forEach((text, index) => {
    reader.push(text, index + 1);
  });
  return reader.keys();
}

/** An input's keys by id, for look-ups. */
function byId(keys: InputKeys): Map<string, { key: JoinKey; line: number }> {
  return new Map(keys.first.map(({ id, key, line }) => [id, { key, line }]));
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

/** One input's keys under its name, indexed by key id. */
interface Named {
  name: string;
  first: Map<string, { key: JoinKey; line: number }>;
  links: readonly [string, string][];
}

function citesOf(id: string, read: readonly Named[]): KeyCites {
  const cites: Cite[] = [];
  let key: JoinKey | undefined;
  for (const input of read) {
    const found = input.first.get(id);
    if (!found) continue;
    key ??= found.key;
    cites.push({ input: input.name, line: found.line });
  }
  return { key: key as JoinKey, cites };
}

/** Groups input indexes by the keys they share. */
function inputGroups(read: readonly Named[]): number[][] {
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
function processesOf(read: readonly Named[]): KeyCites[][] {
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
    .map((ids) => [...ids].sort().map((id) => citesOf(id, read)))
    .filter((keys) => new Set(keys.flatMap((k) => k.cites.map((c) => c.input))).size > 1);
}

function groupOf(indexes: readonly number[], all: readonly Named[]): CaseGroup {
  const read = indexes.flatMap((i) => all[i] ?? []);
  const ids = [...new Set(read.flatMap((keys) => [...keys.first.keys()]))].sort();
  const cited = ids.map((id) => citesOf(id, read));
  return {
    inputs: read.map((input) => input.name),
    joinedBy: cited.filter((k) => k.cites.length > 1),
    processes: processesOf(read),
    containers: cited.filter((k) => k.key.family === 'yarn-container'),
  };
}

/**
 * Groups inputs by the keys they share, from keys already read (readKeys, or a stored case): facts
 * of one group are read together, inputs of different groups never (pure; same keys, same groups).
 */
export function joinKeys(inputs: readonly { name: string; keys: InputKeys }[]): CaseGroup[] {
  const read = inputs.map(({ name, keys }) => ({ name, first: byId(keys), links: keys.links }));
  return inputGroups(read).map((indexes) => groupOf(indexes, read));
}

/** Reads the join keys of every input and groups the inputs that share one (see joinKeys). */
export function joinInputs(inputs: readonly CaseInput[]): CaseGroup[] {
  return joinKeys(inputs.map((input) => ({ name: input.name, keys: readKeys(input) })));
}
