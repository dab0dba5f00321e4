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

export const MINUTE_MS = 60_000;

/** A place for one fetch, given back once by `release`; or why there is none, in a sentence. */
export type FetchSlot = { release: () => void } | { refused: string };

/** Where the places are counted: this process (FetchLimiter), or every replica on one Redis. */
export interface FetchSlots {
  take(who: string): FetchSlot | Promise<FetchSlot>;
}

/** The refusals, the same whichever store counted. */
export const refusal = {
  running: (mine: number, perUser: number) =>
    `You already have ${mine} fetch${mine === 1 ? '' : 'es'} running; wait for ${mine === 1 ? 'it' : 'them'} to finish (each person may run ${perUser} at a time, so nobody's checks hold up the on-call engineer's).`,
  started: (count: number, waitMs: number, perUserPerMinute: number) =>
    `You started ${count} fetches in the last minute; try again in ${Math.max(1, Math.ceil(waitMs / 1000))} s (each person may start ${perUserPerMinute} a minute).`,
  total: (all: number) =>
    `memdoctor is already running ${all} fetches, its limit; try again in a moment, or paste the output instead.`,
};

/** Counts running and recent fetches per person in this process; `take` gives a release or the reason it cannot. */
export class FetchLimiter implements FetchSlots {
  private readonly running = new Map<string, number>();
  private readonly started = new Map<string, number[]>();
  private all = 0;

  constructor(
    private readonly limits: FetchLimits = DEFAULT_FETCH_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  /** A place for `who`'s fetch, released once by the returned function; or why there is none. */
  take(who: string): FetchSlot {
    const { perUser, perUserPerMinute, total } = this.limits;
    const mine = this.running.get(who) ?? 0;
    if (mine >= perUser) return { refused: refusal.running(mine, perUser) };
    const recent = this.recent(who);
    const oldest = recent[0];
    if (recent.length >= perUserPerMinute && oldest !== undefined)
      return { refused: refusal.started(recent.length, oldest + MINUTE_MS - this.now(), perUserPerMinute) };
    if (this.all >= total) return { refused: refusal.total(this.all) };
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
