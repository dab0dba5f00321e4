/**
 * The literal runs every match of a regex must contain, per way of matching it: the regex is split
 * into its alternatives (inner alternations of groups expanded), and in each, the runs of plain
 * characters that are not optional. Enough for the engine's patterns (literals, groups, classes,
 * quantifiers, anchors, lookarounds); anything else ends a run, which only makes the check stricter.
 */
export function literalRuns(re: RegExp): string[][] {
  const parser = new Parser(re.source);
  const ways = parser.alternation();
  return ways.map((way) => way.filter((run) => run.length > 0).map((run) => run.toLowerCase()));
}

/** A way of matching: literal runs separated by anything that is not a required literal. */
type Way = string[];

const MAX_WAYS = 512;

type Repeat = 'once' | 'optional' | 'many' | 'any';

/** An atom's ways under its quantifier. Absent: what is before and after it meet. Repeated: nothing is known to follow one copy. */
function repeated(atom: Way[], repeat: Repeat): Way[] {
  if (repeat === 'once') return atom;
  if (repeat === 'optional') return [...atom, ['']];
  const once = atom.map((way) => [...way, '']);
  return repeat === 'many' ? once : [['', ''], ...once];
}

class Parser {
  private at = 0;
  constructor(private readonly source: string) {}

  alternation(): Way[] {
    const ways: Way[] = [];
    for (;;) {
      ways.push(...this.sequence());
      if (this.source[this.at] !== '|') return ways;
      this.at++;
    }
  }

  /** The ways of one alternative: a cross product of its atoms' ways. */
  private sequence(): Way[] {
    let ways: Way[] = [['']];
    while (this.at < this.source.length && this.source[this.at] !== '|' && this.source[this.at] !== ')') {
      const atom = this.atom();
      const repeat = this.quantifier();
      if (atom === 'break') {
        ways = ways.map((way) => [...way, '']);
        continue;
      }
      const options = repeated(atom, repeat);
      const next: Way[] = [];
      for (const way of ways) {
        for (const option of options) {
          const [first = '', ...rest] = option;
          next.push([...way.slice(0, -1), (way.at(-1) ?? '') + first, ...rest]);
        }
      }
      if (next.length > MAX_WAYS) throw new Error(`too many ways to match ${this.source}`);
      ways = next;
    }
    return ways;
  }

  /** One atom: its ways (each a list of runs), or 'break' for anything that is not a literal. */
  private atom(): Way[] | 'break' {
    const c = this.source[this.at++] as string;
    if (c === '\\') return this.escape();
    if (c === '[') {
      const end = this.source.indexOf(']', this.at);
      const members = this.source.slice(this.at, end);
      this.at = end + 1;
      // A short class of plain characters ([1248]) is an alternation; anything else ends a run.
      const plain = /^[\w./_]{1,10}$/.test(members.replace(/^-|-$/g, '')) && !/^\^/.test(members);
      return plain ? [...members].map((m) => [m]) : 'break';
    }
    if (c === '(') {
      if (this.source.startsWith('?:', this.at)) this.at += 2;
      else if (/^\?<?[=!]/.test(this.source.slice(this.at))) {
        this.skipGroup();
        return [['']];
      } else if (this.source.startsWith('?<', this.at)) this.at = this.source.indexOf('>', this.at) + 1;
      const inner = this.alternation();
      this.at++; // ')'
      return inner.length > MAX_WAYS ? 'break' : inner;
    }
    if (c === '^' || c === '$') return [['']];
    if (c === '.') return 'break';
    return [[c]];
  }

  private escape(): Way[] | 'break' {
    const c = this.source[this.at++] as string;
    if (c === 'b' || c === 'B') return [['']];
    if (/[dDwWsSnrtfv0]/.test(c)) return 'break';
    if (c === 'u') {
      this.at += 4;
      return 'break';
    }
    if (c === 'x') {
      this.at += 2;
      return 'break';
    }
    return [[c]];
  }

  private skipGroup(): void {
    let depth = 1;
    while (this.at < this.source.length && depth > 0) {
      const c = this.source[this.at++];
      if (c === '\\') this.at++;
      else if (c === '(') depth++;
      else if (c === ')') depth--;
    }
  }

  /** Reads a quantifier after an atom: once, optional (0-1), many (1+) or any (0+) times. */
  private quantifier(): Repeat {
    const c = this.source[this.at];
    let repeat: Repeat = 'once';
    if (c === '?') repeat = 'optional';
    else if (c === '*') repeat = 'any';
    else if (c === '+') repeat = 'many';
    if (repeat !== 'once') this.at++;
    else if (c === '{') {
      const end = this.source.indexOf('}', this.at);
      const [min = '', max = min] = this.source.slice(this.at + 1, end).split(',');
      this.at = end + 1;
      if (min === '0') repeat = max === '1' ? 'optional' : 'any';
      else repeat = min === '1' && max === '1' ? 'once' : 'many';
    }
    if (this.source[this.at] === '?') this.at++; // lazy
    return repeat;
  }
}
