/** A value a fact carries: a size in bytes, a config value, an exit code, a process name... */
export type FactValue = string | number | boolean;

/** What an extractor reports for one line, before the engine attaches where it came from. */
export interface Finding {
  /** Dotted kind, e.g. `oom.java-heap`, `container.killed-memory`, `engine.spark`. */
  kind: string;
  values?: Readonly<Record<string, FactValue>>;
}

/** A typed fact with the input line it came from (line 0: given by the user, e.g. `--engine`). */
export interface Fact extends Finding {
  line: number;
  text: string;
}

/** How many facts of one kind are kept: enough to cite, bounded so memory stays flat. */
const KEPT_PER_KIND = 6;
/**
 * How many distinct config keys are remembered. Far more than any real job sets, and a bound: a log
 * that prints a new key on every line (generated names, ids) must not grow memory with its size.
 */
const MAX_CONFIG_KEYS = 1000;

/** Facts of one kind: how often it was seen and the first few occurrences. */
export interface FactGroup {
  kind: string;
  count: number;
  first: Fact[];
}

/**
 * What a book holds, as plain data a worker thread can send back: its groups in the order their
 * kinds first appeared, and its config keys in the order they first appeared, each with its last fact.
 */
export interface BookContents {
  groups: FactGroup[];
  configs: [string, Fact][];
  /** True when the book stopped taking new config keys (MAX_CONFIG_KEYS). */
  configsCapped: boolean;
}

/**
 * Collects facts in input order, keeping the count of every kind but only the first few of each,
 * and for `config` facts the last value seen per key (later settings override earlier ones).
 */
export class FactBook {
  private readonly groups = new Map<string, FactGroup>();
  private readonly configs = new Map<string, Fact>();
  private full = 0;
  /** Kinds another book already keeps in full: none of them is kept or looked for here. */
  private readonly keptElsewhere = new Set<string>();

  /**
   * A book for lines that follow those of another book, which keeps these kinds in full already
   * (blocks.ts): this one keeps none of them, so its readers stop looking for them at once.
   */
  static after(keptInFull: readonly string[]): FactBook {
    const book = new FactBook();
    for (const kind of keptInFull) if (kind !== 'config') book.keptElsewhere.add(kind);
    book.full = book.keptElsewhere.size;
    return book;
  }

  /** The kinds kept in full, in no particular order. */
  keptInFull(): string[] {
    const kinds = [...this.keptElsewhere];
    for (const kind of this.groups.keys())
      if (this.isFull(kind) && !this.keptElsewhere.has(kind)) kinds.push(kind);
    return kinds;
  }

  /** How many kinds are kept in full; it only grows, so a change means fewer facts are still wanted. */
  get fullKinds(): number {
    return this.full;
  }

  add(fact: Fact): void {
    if (this.keptElsewhere.has(fact.kind)) return;
    const key = fact.kind === 'config' ? fact.values?.key : undefined;
    if (typeof key === 'string' && (this.configs.size < MAX_CONFIG_KEYS || this.configs.has(key))) {
      this.configs.set(key, fact);
    }
    const group = this.groups.get(fact.kind);
    if (!group) {
      this.groups.set(fact.kind, { kind: fact.kind, count: 1, first: [fact] });
      return;
    }
    group.count++;
    if (group.first.length >= KEPT_PER_KIND) return;
    group.first.push(fact);
    if (this.isFull(fact.kind)) this.full++;
  }

  /** The book as plain data (see absorb). */
  contents(): BookContents {
    return {
      groups: [...this.groups.values()].map((g) => ({ kind: g.kind, count: g.count, first: [...g.first] })),
      configs: [...this.configs],
      configsCapped: this.configs.size >= MAX_CONFIG_KEYS,
    };
  }

  /**
   * Takes in what another book read from the lines that follow this book's, numbered from 1 there
   * and `offset` here: afterwards this book is what reading those lines itself would have made it,
   * as far as any diagnosis can tell (counts of kinds kept in full may differ; nothing reads them).
   * Exact as long as the other book took every config key it saw (configsCapped false).
   */
  absorb(part: BookContents, offset: number): void {
    const moved = (fact: Fact): Fact => ({ ...fact, line: fact.line + offset });
    for (const { kind, count, first } of part.groups) {
      const group = this.groups.get(kind);
      if (!group) {
        this.groups.set(kind, { kind, count, first: first.map(moved) });
        if (this.isFull(kind)) this.full++;
        continue;
      }
      group.count += count;
      if (this.isFull(kind)) continue;
      group.first.push(...first.slice(0, KEPT_PER_KIND - group.first.length).map(moved));
      if (this.isFull(kind)) this.full++;
    }
    for (const [key, fact] of part.configs)
      if (this.configs.size < MAX_CONFIG_KEYS || this.configs.has(key)) this.configs.set(key, moved(fact));
  }

  /** True once the book keeps as many facts of this kind as it ever will (config never fills). */
  isFull(kind: string): boolean {
    if (this.keptElsewhere.has(kind)) return true;
    const group = this.groups.get(kind);
    return kind !== 'config' && group !== undefined && group.first.length >= KEPT_PER_KIND;
  }

  /**
   * Counts a fact of `kind` without storing it when the book already keeps enough of that kind, and
   * says so; false means the caller must `add` the fact (config facts always are: the last one wins).
   */
  tally(kind: string): boolean {
    if (this.keptElsewhere.has(kind)) return true;
    const group = this.groups.get(kind);
    if (kind === 'config' || !group || group.first.length < KEPT_PER_KIND) return false;
    group.count++;
    return true;
  }

  /** Facts whose kind equals `pattern`, or starts with it when it ends in `.*`. */
  find(pattern: string): Fact[] {
    // A copy: callers sort and filter what they get, and the kept facts must stay as they were.
    if (!pattern.endsWith('.*')) return [...(this.groups.get(pattern)?.first ?? [])];
    const prefix = pattern.slice(0, -1);
    const found: Fact[] = [];
    for (const [kind, group] of this.groups) if (kind.startsWith(prefix)) found.push(...group.first);
    return found.sort((a, b) => a.line - b.line);
  }

  has(pattern: string): boolean {
    return this.find(pattern).length > 0;
  }

  count(kind: string): number {
    return this.groups.get(kind)?.count ?? 0;
  }

  /** The last value of a config key seen in the input, with its fact. */
  config(key: string): Fact | undefined {
    return this.configs.get(key);
  }

  allConfigs(): ReadonlyMap<string, Fact> {
    return this.configs;
  }

  kinds(): string[] {
    return [...this.groups.keys()].sort();
  }

  /**
   * Every kept fact without its line, each distinct one once, by kind: what a walkthrough starts
   * from. Bounded like the book itself (a few per kind).
   */
  findings(): Finding[] {
    const seen = new Set<string>();
    const out: Finding[] = [];
    for (const kind of this.kinds()) {
      for (const fact of this.groups.get(kind)?.first ?? []) {
        const finding: Finding = fact.values ? { kind, values: { ...fact.values } } : { kind };
        const key = JSON.stringify(finding);
        if (!seen.has(key)) out.push(finding);
        seen.add(key);
      }
    }
    return out;
  }
}
