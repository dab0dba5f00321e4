import { MAX_LINE_CHARS } from '../engine/ingest/lines.ts';
import { isFence, normalise } from '../engine/ingest/normalise.ts';

/** One input line picked for the model, with its number in the original input (1-based). */
export interface SelectedLine {
  line: number;
  text: string;
}

/** What the selector kept, and how much it saw. */
export interface Selection {
  lines: SelectedLine[];
  /** Lines read in total. */
  seen: number;
  /** Informative lines left out because of the bounds. */
  dropped: number;
}

export interface SelectLimits {
  /** Most lines kept: half from the start of the input, half from the end. */
  maxLines?: number;
  /** Each kept line is cut to this many characters. */
  maxLineChars?: number;
  /** Frames kept after each exception header (the first frames say where it failed). */
  framesPerStack?: number;
}

const DEFAULTS: Required<SelectLimits> = { maxLines: 120, maxLineChars: 300, framesPerStack: 4 };

// Class names end in Exception/Error (IllegalStateException, OutOfMemoryError), so no \b before those.
const ERROR =
  /(?:exception|error|errors)\b|\b(?:fatal|severe|killed|oomkilled|oom|failed|failure|lost|exceeded|exceeding|beyond|exit (?:code|status)|exited|panic|traceback|caused by|terminated|evicted|timeout|timed out)\b/i;
const FRAME = /^[\s>`]*(?:at [\w$.<>/-]+\(|File ".*", line \d+|\.\.\. \d+ more)/;
const MEMORY_FIGURE = /\b\d+(?:\.\d+)?\s?(?:[KMGT]i?B|bytes)\b|-Xm[xs]\d/i;
const MEMORY_WORD = /\b(?:memory|heap|metaspace|overhead|rss)\b/i;

/**
 * A memory figure, or a memory word with a digit after it. The digit is searched after the first
 * word only: as `\bmemory\b.*\d` every repeated word scanned the rest of the line again (quadratic).
 */
function hasMemoryFigure(text: string): boolean {
  if (MEMORY_FIGURE.test(text)) return true;
  const word = MEMORY_WORD.exec(text);
  return word !== null && /\d/.test(text.slice(word.index + word[0].length));
}
const PEM_BEGIN = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY/;
const PEM_END = /-----END [A-Z0-9 ]*PRIVATE KEY/;
const SEEN_CAP = 10_000;

/**
 * Picks the informative lines of an input as it streams past: error lines, the first frames of
 * each stack, lines with memory figures. Deterministic and bounded: it keeps the first half of its
 * budget from the start of the input and a ring of the last half, so both how a job began failing
 * and how it ended are shown. Repeated lines are kept once. Private-key blocks are never kept.
 */
export class LineSelector {
  private readonly limits: Required<SelectLimits>;
  private readonly head: SelectedLine[] = [];
  private readonly tail: SelectedLine[] = [];
  private readonly seenTexts = new Set<string>();
  private lineNo = 0;
  private framesLeft = 0;
  private inPem = false;
  private informative = 0;

  constructor(limits: SelectLimits = {}) {
    this.limits = { ...DEFAULTS, ...limits };
  }

  /** Feeds the next lines of the input, in order. */
  push(lines: readonly string[]): void {
    for (const raw of lines) {
      this.lineNo++;
      if (this.skipPem(raw) || raw.trim() === '' || isFence(raw)) continue;
      // Classify the raw line (cheap); only kept lines pay for normalising.
      if (this.isInformative(raw)) this.keep(normalise(raw).trim());
    }
  }

  private skipPem(raw: string): boolean {
    if (this.inPem) {
      if (PEM_END.test(raw)) this.inPem = false;
      return true;
    }
    if (PEM_BEGIN.test(raw) && !PEM_END.test(raw)) this.inPem = true;
    return false;
  }

  private isInformative(text: string): boolean {
    if (FRAME.test(text)) {
      if (this.framesLeft <= 0) return false;
      this.framesLeft--;
      return true;
    }
    const error = ERROR.test(text);
    // A new exception header (or any error line) opens a fresh frame allowance.
    if (error) this.framesLeft = this.limits.framesPerStack;
    return error || hasMemoryFigure(text);
  }

  private keep(text: string): void {
    const cut = text.length > this.limits.maxLineChars ? `${text.slice(0, this.limits.maxLineChars)}…` : text;
    if (this.seenTexts.has(cut)) return;
    if (this.seenTexts.size < SEEN_CAP) this.seenTexts.add(cut);
    this.informative++;
    const entry = { line: this.lineNo, text: cut };
    const headSize = Math.ceil(this.limits.maxLines / 2);
    if (this.head.length < headSize) {
      this.head.push(entry);
      return;
    }
    this.tail.push(entry);
    if (this.tail.length > this.limits.maxLines - headSize) this.tail.shift();
  }

  /** The kept lines in input order. */
  result(): Selection {
    const lines = [...this.head, ...this.tail];
    return { lines, seen: this.lineNo, dropped: this.informative - lines.length };
  }
}

/** Selects from a whole text at once (pasted chat text, tests). */
export function selectLines(text: string, limits: SelectLimits = {}): Selection {
  const selector = new LineSelector(limits);
  // Cut like the engine's reader cuts, so a pasted text costs what the same file would.
  const lines = text
    .split('\n')
    .map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l))
    .map((l) => (l.length > MAX_LINE_CHARS ? l.slice(0, MAX_LINE_CHARS) : l));
  // Like the engine's reader: a final newline does not start another line.
  if (lines.at(-1) === '') lines.pop();
  selector.push(lines);
  return selector.result();
}
