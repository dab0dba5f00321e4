/**
 * When an input's lines were written: the first and last timestamps it prints, so a case can line
 * its inputs up and keep apart one from another day. Formats, as the tools print them:
 * - ISO 8601 with a space or `T` (log4j's ISO8601 layout in YARN/Hadoop `2020-09-04 11:43:51,536`,
 *   JDK unified logging's `time` decorator `[2026-12-03T12:42:38.464+0000]`, JDK 8's
 *   -XX:+PrintGCDateStamps `2019-03-04T10:11:12.123+0100:`, Kubernetes' `finishedAt: "2024-02-12T10:00:00Z"`)
 * - Spark's default log4j pattern `yy/MM/dd HH:mm:ss` (`24/05/12 10:31:02 ERROR ...`)
 * - kubectl describe's RFC 1123 `Finished: Mon, 12 Feb 2024 10:00:00 +0000`
 * A time without a zone is read as UTC and marked unzoned: it may be off by up to 14 hours.
 */
export interface TimeSpan {
  first: string;
  last: string;
  /** False when any time read had no zone (local time of an unknown place). */
  zoned: boolean;
}

const ISO =
  /\b(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:[.,](\d{1,9}))?(Z|[+-]\d{2}:?\d{2})?(?![\d:])/;
const SPARK = /^(\d{2})\/(\d{2})\/(\d{2}) (\d{2}):(\d{2}):(\d{2})\b/;
const RFC1123 =
  /\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\d{1,2}) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) (\d{4}) (\d{2}):(\d{2}):(\d{2}) ([+-]\d{4}|GMT|UTC)\b/;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Minutes east of UTC of `+0100`, `+01:00`, `Z`, `GMT`. */
function offsetMinutes(zone: string): number {
  if (zone === 'Z' || zone === 'GMT' || zone === 'UTC') return 0;
  const digits = zone.replace(':', '');
  const sign = digits.startsWith('-') ? -1 : 1;
  return sign * (Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5)));
}

function utc(parts: readonly number[], millis: number, zone: string | undefined): number | undefined {
  const [year = 0, month = 1, day = 1, hour = 0, minute = 0, second = 0] = parts;
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60)
    return undefined;
  const at = Date.UTC(year, month - 1, day, hour, minute, second, millis);
  return zone ? at - offsetMinutes(zone) * 60_000 : at;
}

/** The time one line names first, in ms since the epoch, and whether it had a zone. */
export function timeOfLine(line: string): { at: number; zoned: boolean } | undefined {
  if (line.length < 14) return undefined;
  const iso = ISO.exec(line);
  if (iso) {
    const millis = Number((iso[7] ?? '0').padEnd(3, '0').slice(0, 3));
    const at = utc(iso.slice(1, 7).map(Number), millis, iso[8]);
    return at === undefined ? undefined : { at, zoned: iso[8] !== undefined };
  }
  const spark = SPARK.exec(line);
  if (spark) {
    const [yy, ...rest] = spark.slice(1, 7).map(Number);
    const at = utc([2000 + (yy ?? 0), ...rest], 0, undefined);
    return at === undefined ? undefined : { at, zoned: false };
  }
  const rfc = RFC1123.exec(line);
  if (rfc) {
    const month = MONTHS.indexOf(rfc[2] ?? '') + 1;
    const at = utc(
      [Number(rfc[3]), month, Number(rfc[1]), Number(rfc[4]), Number(rfc[5]), Number(rfc[6])],
      0,
      rfc[7],
    );
    return at === undefined ? undefined : { at, zoned: true };
  }
  return undefined;
}

/** The span of times lines name, read line by line: an input's lines need not be held to know it. */
export class TimeSpanReader {
  private first = Number.POSITIVE_INFINITY;
  private last = Number.NEGATIVE_INFINITY;
  private zoned = true;
  private seen = false;

  push(line: string): void {
    const time = timeOfLine(line);
    if (!time) return;
    this.seen = true;
    this.first = Math.min(this.first, time.at);
    this.last = Math.max(this.last, time.at);
    this.zoned &&= time.zoned;
  }

  /** The span of the lines pushed so far (undefined: they name no time). */
  span(): TimeSpan | undefined {
    if (!this.seen) return undefined;
    return {
      first: new Date(this.first).toISOString(),
      last: new Date(this.last).toISOString(),
      zoned: this.zoned,
    };
  }
}

/**
 * Inputs of one incident overlap in time or nearly: a gap of more than 6 hours between one input's
 * times and all the others' is another run. An unzoned time may be off by up to 14 hours (UTC-12 to
 * UTC+14), so a gap involving one must also pass that.
 */
const GAP_MS = 6 * 3600_000;
const ZONE_SLACK_MS = 14 * 3600_000;

interface Timed {
  name: string;
  first: number;
  last: number;
  zoned: boolean;
}

interface Cluster {
  members: Timed[];
  first: number;
  last: number;
  zoned: boolean;
}

function clusters(timed: readonly Timed[]): Cluster[] {
  const sorted = [...timed].sort((a, b) => a.first - b.first || a.name.localeCompare(b.name));
  const out: Cluster[] = [];
  for (const t of sorted) {
    const current = out[out.length - 1];
    const slack = current && (!current.zoned || !t.zoned) ? ZONE_SLACK_MS : 0;
    if (current && t.first - current.last <= GAP_MS + slack) {
      current.members.push(t);
      current.last = Math.max(current.last, t.last);
      current.zoned &&= t.zoned;
    } else out.push({ members: [t], first: t.first, last: t.last, zoned: t.zoned });
  }
  return out;
}

function hoursText(ms: number): string {
  const hours = ms / 3600_000;
  return hours >= 48 ? `${Math.round(hours / 24)} days` : `${Math.round(hours)} hours`;
}

function spanText(first: number, last: number): string {
  const f = new Date(first).toISOString().slice(0, 16).replace('T', ' ');
  const l = new Date(last).toISOString().slice(0, 16).replace('T', ' ');
  return f === l ? f : `${f} to ${l}`;
}

/** Inputs kept out of the incident's window, each with why. */
export interface ApartInTime {
  /** Groups of inputs of other times (each read on its own, as inputs that share no key are). */
  apart: string[][];
  notes: string[];
}

/**
 * Lines the timed inputs up: the incident's window is the run of overlapping inputs holding the
 * most (ties: the one holding the first input given); inputs of other runs are kept apart, with
 * their times and how far they are from the window. Untimed inputs (pmap, NMT) stay in. Pure.
 */
export function apartInTime(inputs: readonly { name: string; time?: TimeSpan }[]): ApartInTime {
  const timed = inputs.flatMap(({ name, time }) =>
    time ? [{ name, first: Date.parse(time.first), last: Date.parse(time.last), zoned: time.zoned }] : [],
  );
  const runs = clusters(timed);
  if (runs.length < 2) return { apart: [], notes: [] };
  const order = new Map(inputs.map((input, i) => [input.name, i]));
  const firstGiven = (c: Cluster) => Math.min(...c.members.map((m) => order.get(m.name) ?? 0));
  const main = [...runs].sort(
    (a, b) => b.members.length - a.members.length || firstGiven(a) - firstGiven(b),
  )[0] as Cluster;
  const others = runs.filter((c) => c !== main);
  const window = `${spanText(main.first, main.last)} UTC in ${main.members.map((m) => m.name).join(', ')}`;
  return {
    apart: others.map((c) => c.members.map((m) => m.name)),
    notes: others.map((c) => {
      const distance = c.first > main.last ? c.first - main.last : main.first - c.last;
      const side = c.first > main.last ? 'after' : 'before';
      const zone = c.zoned && main.zoned ? '' : ' (times without a zone read as UTC)';
      return `${c.members.map((m) => m.name).join(', ')} ${c.members.length > 1 ? 'were' : 'was'} written ${spanText(c.first, c.last)} UTC, ${hoursText(distance)} ${side} the incident's window (${window})${zone}: another run, so it is read apart and its facts are not combined with the incident's.`;
    }),
  };
}
