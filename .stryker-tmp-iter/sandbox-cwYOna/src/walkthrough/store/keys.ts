// @ts-nocheck
import type { Conversation } from '../record.ts';

/**
 * Every Redis key memdoctor's walkthroughs use, built here and nowhere else. All keys of one
 * conversation share the hash tag `{workspace:conversation}`, so the keys a script touches are in
 * one Redis Cluster slot.
 */
export class WalkthroughKeys {
  constructor(readonly prefix = 'memdoctor') {}

  /** `memdoctor:{T1:C1}`: the part every key of a conversation starts with. */
  private base(where: Conversation): string {
    return `${this.prefix}:{${where.workspace}:${where.conversation}}`;
  }

  /** Hash: `v` (version) and `data` (the record as JSON). */
  record(where: Conversation, id: string): string {
    return `${this.base(where)}:wt:${id}`;
  }

  /** Sorted set: ids of the active walkthroughs, scored by last activity (ms). */
  active(where: Conversation): string {
    return `${this.base(where)}:active`;
  }

  /** String: the id of the latest walkthrough in a thread; `-` stands for "no thread". */
  thread(where: Conversation, thread: string | undefined): string {
    return `${this.base(where)}:thread:${thread ?? '-'}`;
  }
}
