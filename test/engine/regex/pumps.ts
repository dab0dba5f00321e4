/**
 * Pathological inputs for one regex, built from its own source: a prefix that gets the pattern past
 * its first items, then a long run of one of the characters or fragments the pattern expects (where
 * backtracking multiplies), optionally followed by a character that makes the match fail at the end.
 * Not a ReDoS prover: a generator wide enough that every quadratic pattern found in this code base
 * (leading `\s*` before `.+?`, a digit run before a unit, `[A-Za-z]+` before `[^\n]*?`, a fragment
 * repeated so every start scans to the end) is caught by one of its inputs.
 */

/** A piece of the pattern: the strings it matches once, the text of one match, how often it repeats. */
interface Item {
  /** Characters (or short strings) this item accepts, to repeat. */
  reps: string[];
  /** One match of the item, to build prefixes. */
  witness: string;
  /** Whether the item may repeat without bound (`*`, `+`, `{n,}`) or many times (`{n,m}`, m > 1). */
  repeats: boolean;
}

/** One case: a label for the failure message and the input of a given length. */
export interface Case {
  label: string;
  make: (length: number) => string;
}

const POOL = [
  ...Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)),
  '\t',
  '\r',
  'é',
  '\u00a0',
];

/** Up to three pool characters a class accepts (a negated class gets what it lets through). */
function classReps(body: string, flags: string): string[] {
  const re = new RegExp(`^[${body}]$`, flags.replace(/[gy]/g, ''));
  const accepted = POOL.filter((c) => re.test(c));
  const preferred = ['a', '0', ' ', 'Z', '.', '-', ':', 'x'].filter((c) => accepted.includes(c));
  return [...new Set([...preferred, ...accepted])].slice(0, 3);
}

const ESCAPES: Readonly<Record<string, string[]>> = {
  d: ['0', '9'],
  D: ['a', ' '],
  s: [' ', '\t'],
  S: ['a', '0'],
  w: ['a', '0', '_'],
  W: [' ', '-'],
  n: ['\n'],
  t: ['\t'],
  r: ['\r'],
};

class Reader {
  pos = 0;
  constructor(
    readonly src: string,
    readonly flags: string,
  ) {}

  /** Parses alternatives up to a `)` or the end: each a sequence of items. */
  alternatives(): Item[][] {
    const branches: Item[][] = [[]];
    while (this.pos < this.src.length && this.src[this.pos] !== ')') {
      if (this.src[this.pos] === '|') {
        this.pos++;
        branches.push([]);
        continue;
      }
      const item = this.item();
      if (item) branches[branches.length - 1]?.push(item);
    }
    return branches;
  }

  private item(): Item | undefined {
    const atom = this.atom();
    const quantified = this.quantifier();
    if (!atom) return undefined;
    const times = Math.max(1, quantified.min);
    return {
      reps: atom.reps,
      witness: atom.witness.repeat(Math.min(times, 64)),
      repeats: quantified.repeats,
    };
  }

  private quantifier(): { min: number; repeats: boolean } {
    const c = this.src[this.pos];
    let q = { min: 1, repeats: false };
    if (c === '*' || c === '+' || c === '?') {
      this.pos++;
      q = { min: c === '+' ? 1 : 0, repeats: c !== '?' };
    } else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.pos));
      if (m) {
        this.pos += m[0].length;
        const max = m[2] === undefined ? Number(m[1]) : m[3] === '' ? Number.POSITIVE_INFINITY : Number(m[3]);
        q = { min: Number(m[1]), repeats: max > 1 };
      }
    }
    if (this.src[this.pos] === '?') this.pos++;
    return q;
  }

  private atom(): { reps: string[]; witness: string } | undefined {
    const c = this.src[this.pos++] ?? '';
    if (c === '^' || c === '$') return undefined;
    if (c === '.') return { reps: ['a', ' '], witness: 'a' };
    if (c === '[') return this.charClass();
    if (c === '(') return this.group();
    if (c === '\\') return this.escape();
    return { reps: [c], witness: c };
  }

  private escape(): { reps: string[]; witness: string } | undefined {
    const c = this.src[this.pos++] ?? '';
    if (c === 'b' || c === 'B') return undefined;
    if (c === 'k') {
      this.pos = this.src.indexOf('>', this.pos) + 1;
      return undefined;
    }
    if (/\d/.test(c)) return undefined;
    if (c === 'u' || c === 'x') {
      const hex = this.src.slice(this.pos, this.pos + (c === 'u' ? 4 : 2));
      this.pos += hex.length;
      const ch = String.fromCharCode(Number.parseInt(hex, 16));
      return { reps: [ch], witness: ch };
    }
    const reps = ESCAPES[c] ?? [c];
    return { reps, witness: reps[0] ?? c };
  }

  private charClass(): { reps: string[]; witness: string } {
    let end = this.pos;
    if (this.src[end] === '^') end++;
    if (this.src[end] === ']') end++;
    while (end < this.src.length && this.src[end] !== ']') end += this.src[end] === '\\' ? 2 : 1;
    const body = this.src.slice(this.pos, end);
    this.pos = end + 1;
    const reps = classReps(body, this.flags);
    return { reps, witness: reps[0] ?? '' };
  }

  private group(): { reps: string[]; witness: string } | undefined {
    const head = /^\?(?:<[=!]|[=!:]|<[A-Za-z_]\w*>)?/.exec(this.src.slice(this.pos))?.[0] ?? '';
    this.pos += head.length;
    const branches = this.alternatives();
    this.pos++;
    if (/^\?(?:<[=!]|[=!])$/.test(head)) return undefined;
    const reps = [...new Set(branches.flat().flatMap((i) => i.reps))];
    const first = branches[0] ?? [];
    return { reps, witness: first.map((i) => i.witness).join('') };
  }
}

/** A string of `length` characters made by repeating `unit`. */
export function fill(unit: string, length: number): string {
  if (unit.length === 0) return '';
  return unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
}

/** Nested parentheses of a given total length: ((((a)))). */
export function nested(length: number): string {
  const depth = Math.floor((length - 1) / 2);
  return `${'('.repeat(depth)}a${')'.repeat(depth)}`;
}

/** Character classes and short units that drive backtracking in log patterns: digits, dots, spaces... */
export const GENERIC_UNITS = [
  ...['a', 'Z', '0', '9', '.', ' ', '\t', '(', ')', '-', '_', ':', '=', '"', "'", '/', '\\', '&', ';'],
  ...['`', '{', '}', '[', ']', '>', '<', '%', '$', '#', ',', 'é', '\u001b', '0.', '1 ', '1.', '1 GB of '],
  ...['a.', 'a ', '-1', '&gt;', '\u001b[', '\u001b]', '```', 'at a.b(', 'File "', 'container_1_'],
  ...['application_1', 'G.1', '{"a":', '[[', '{{', '\u0000', '\r'],
];

/** A run of each generic unit, and nested parentheses: inputs any line-reading code must take in stride. */
export function genericCases(): Case[] {
  return [
    { label: 'nested parentheses', make: nested },
    ...GENERIC_UNITS.map((unit) => ({
      label: `run of ${JSON.stringify(unit)}`,
      make: (n: number) => fill(unit, n),
    })),
  ];
}

/** Runs of consecutive single-character literals, e.g. `Pause `, `GC(`: fragments to repeat. */
function fragments(items: readonly Item[]): string[] {
  const out: string[] = [];
  let run = '';
  for (const item of items) {
    const literal = item.reps.length === 1 && item.reps[0] === item.witness && !item.repeats;
    if (literal) run += item.witness;
    else {
      if (run.length > 1) out.push(run);
      run = '';
    }
  }
  if (run.length > 1) out.push(run);
  return out;
}

/** Items after a cut whose characters are pumped there: enough to reach the next repetition or two. */
const LOOKAHEAD_ITEMS = 4;
/**
 * Ends every input: NUL is in no pattern's literals, so the match fails at the end and backtracks;
 * CR is whitespace that `.` refuses, so `\s+(.*)$`-style overlaps fail there too.
 */
const TAIL = '\u0000\r';

/** The pathological cases for one regex, deduplicated by the input they make. */
export function pumpCases(source: string, flags: string): Case[] {
  const seen = new Set<string>();
  const cases: Case[] = [];
  const add = (head: string, unit: string) => {
    const c: Case = {
      label: `${JSON.stringify(head)} + run of ${JSON.stringify(unit)} + ${JSON.stringify(TAIL)}`,
      make: (n) => head + fill(unit, Math.max(0, n - head.length - TAIL.length)) + TAIL,
    };
    const key = c.make(96);
    if (unit.length === 0 || seen.has(key)) return;
    seen.add(key);
    cases.push(c);
  };
  for (const items of new Reader(source, flags).alternatives()) {
    const whole = items.map((i) => i.witness).join('');
    const anywhere = [
      ...fragments(items),
      whole,
      ...items.flatMap((i) => (i.witness.length > 1 ? [i.witness] : [])),
    ];
    for (const unit of [...items.flatMap((i) => i.reps), ...anywhere]) {
      add('', unit);
      add('\u0000', unit);
    }
    for (let cut = 1; cut <= items.length; cut++) {
      const head = items
        .slice(0, cut)
        .map((i) => i.witness)
        .join('');
      // Repeated, also with a space between, so each copy starts a new word for a leading `\b`.
      add('', head);
      add('', `${head} `);
      for (const item of items.slice(cut, cut + LOOKAHEAD_ITEMS))
        for (const unit of item.reps) add(head, unit);
    }
  }
  return cases;
}
