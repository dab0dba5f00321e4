/**
 * How many fetches (a `check`, a step's Fetch) one person and everyone together may have going. Each
 * fetch holds a connector's one-at-a-time queue to its target, so without a cap per person one
 * person's twenty checks sit ahead of the on-call engineer's (issue 35 finding 9).
 */
export interface FetchLimits {
  /** Fetches one person may have running at once. */
  perUser: number;
  /** Fetches one person may start in a minute. */
  perUserPerMinute: number;
  /** Fetches running at once, everyone together. */
  total: number;
}

export const DEFAULT_FETCH_LIMITS: FetchLimits = { perUser: 2, perUserPerMinute: 10, total: 8 };

const MINUTE_MS = 60_000;

/** Counts running and recent fetches per person; `take` gives a release or the reason it cannot. */
export class FetchLimiter {
  private readonly running = new Map<string, number>();
  private readonly started = new Map<string, number[]>();
  private all = 0;

  constructor(
    private readonly limits: FetchLimits = DEFAULT_FETCH_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  /** A place for `who`'s fetch, released once by the returned function; or why there is none. */
  take(who: string): { release: () => void } | { refused: string } {
    const { perUser, perUserPerMinute, total } = this.limits;
    const mine = this.running.get(who) ?? 0;
    if (mine >= perUser)
      return {
        refused: `You already have ${mine} fetch${mine === 1 ? '' : 'es'} running; wait for ${mine === 1 ? 'it' : 'them'} to finish (each person may run ${perUser} at a time, so nobody's checks hold up the on-call engineer's).`,
      };
    const recent = this.recent(who);
    const oldest = recent[0];
    if (recent.length >= perUserPerMinute && oldest !== undefined)
      return {
        refused: `You started ${recent.length} fetches in the last minute; try again in ${Math.ceil((oldest + MINUTE_MS - this.now()) / 1000)} s (each person may start ${perUserPerMinute} a minute).`,
      };
    if (this.all >= total)
      return {
        refused: `memdoctor is already running ${this.all} fetches, its limit; try again in a moment, or paste the output instead.`,
      };
    return { release: this.hold(who, recent) };
  }

  private recent(who: string): number[] {
    const since = this.now() - MINUTE_MS;
    const kept = (this.started.get(who) ?? []).filter((at) => at > since);
    this.started.set(who, kept);
    return kept;
  }

  private hold(who: string, recent: number[]): () => void {
    recent.push(this.now());
    this.running.set(who, (this.running.get(who) ?? 0) + 1);
    this.all++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.all--;
      const left = (this.running.get(who) ?? 1) - 1;
      if (left > 0) this.running.set(who, left);
      else this.running.delete(who);
      if (this.started.get(who)?.length === 0) this.started.delete(who);
    };
  }
}
