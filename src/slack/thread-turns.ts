/**
 * One turn at a time per thread, within this process: files dropped together in a thread (one
 * message with several, or several messages within a second) would otherwise each find no case
 * yet and each get an answer of their own. Each waits for the one before it, so the first starts
 * the case and the others are added to it. Across replicas the case store's version check decides.
 */
export class ThreadTurns {
  private readonly tails = new Map<string, Promise<unknown>>();

  /** Runs `work` after every earlier turn of `thread` has ended (failed ones included). */
  async take<T>(thread: string, work: () => Promise<T>): Promise<T> {
    const before = this.tails.get(thread) ?? Promise.resolve();
    const turn = before.then(work);
    const tail = turn.catch(() => undefined);
    this.tails.set(thread, tail);
    try {
      return await turn;
    } finally {
      // The last turn of a thread leaves no entry behind.
      if (this.tails.get(thread) === tail) this.tails.delete(thread);
    }
  }

  /** Threads with a turn running or waiting (tests check nothing is left behind). */
  get size(): number {
    return this.tails.size;
  }
}

/** The turns of each case store: the threads of one Slack app share one, tests get their own. */
const turnsOf = new WeakMap<object, ThreadTurns>();

/** The turns kept for `owner` (the Slack app's case store). */
export function threadTurns(owner: object): ThreadTurns {
  let turns = turnsOf.get(owner);
  if (!turns) {
    turns = new ThreadTurns();
    turnsOf.set(owner, turns);
  }
  return turns;
}
