/**
 * An id from a sender's payload, kept whole but with no brace (a second `{...}` would not move the
 * key's slot, but keys are read more easily with one pair): `%`, `{`, `}` escaped as in a URL.
 */
function braceless(id: string): string {
  return id.replace(/[%{}]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** Where keys of one conversation belong: a Slack workspace and channel, or `local` / `console`. */
interface Conversation {
  workspace: string;
  conversation: string;
}

/**
 * Every key memdoctor keeps in Redis, built here and nowhere else. Each key carries one hash tag
 * (`{...}`): the keys a script or a request uses together share it, so they land in one Redis
 * Cluster slot. All keys start with the prefix (MEMDOCTOR_REDIS_PREFIX), so tests and shared servers
 * keep apart.
 */
export class RedisKeys {
  constructor(readonly prefix = 'memdoctor') {}

  /** `memdoctor:{tag}`: what every key starts with; a brace inside a tag would end it early. */
  private tagged(...parts: string[]): string {
    return `${this.prefix}:{${parts.map((p) => p.replace(/[{}]/g, '_')).join(':')}}`;
  }

  /** A conversation's keys share `{workspace:conversation}`: the walkthrough scripts touch all four. */
  private conversation(where: Conversation): string {
    return this.tagged(where.workspace, where.conversation);
  }

  /** Hash: `v` (version) and `data` (the walkthrough record as JSON). */
  walkthrough(where: Conversation, id: string): string {
    return `${this.conversation(where)}:wt:${id}`;
  }

  /** List: a walkthrough's earlier audit entries (JSON each, oldest first), written with the record. */
  walkthroughAudit(where: Conversation, id: string): string {
    return `${this.conversation(where)}:wt:${id}:audit`;
  }

  /** Sorted set: ids of a conversation's active walkthroughs, scored by last activity (ms). */
  activeWalkthroughs(where: Conversation): string {
    return `${this.conversation(where)}:active`;
  }

  /** String: the id of the latest walkthrough in a thread; `-` stands for "no thread". */
  threadWalkthrough(where: Conversation, thread: string | undefined): string {
    return `${this.conversation(where)}:thread:${thread ?? '-'}`;
  }

  /**
   * Hash: a case (the inputs of one Slack thread or console session, facts only), under its
   * conversation's hash tag: `v`, `n`, `bytes`, `in:<i>` (JSON), `out:<i>` (JSON)... (addCaseInput-1.lua).
   */
  case(where: Conversation & { thread: string }): string {
    return `${this.conversation(where)}:case:${where.thread}`;
  }

  /** String: the owner allowed to post a case's first answer, while its claim lasts (a TTL). */
  caseAnswerClaim(where: Conversation & { thread: string }): string {
    return `${this.case(where)}:claim`;
  }

  /** String: a cached model answer, by the sha256 of everything that shaped the request. */
  modelAnswer(hash: string): string {
    return `${this.tagged('llm', hash)}:cache`;
  }

  /** Counter: a workspace's model requests in one fixed window (window = epoch seconds / length). */
  modelRequests(workspace: string, window: number): string {
    return `${this.tagged('llm', workspace)}:rate:${window}`;
  }

  /** Hash: a workspace's outcome figures, `playbook\tcause\tmetric` -> count (src/stats). */
  outcomeCounts(workspace: string): string {
    return `${this.tagged('outcomes', workspace)}:counts`;
  }

  /** Hash: walkthrough id -> the counts field its "Did this fix it?" answer went to. */
  outcomeAnswers(workspace: string): string {
    return `${this.tagged('outcomes', workspace)}:answers`;
  }

  /** Hash: walkthrough id -> the note given with its answer. */
  outcomeNotes(workspace: string): string {
    return `${this.tagged('outcomes', workspace)}:notes`;
  }

  /** List: a workspace's recent diagnoses and walkthroughs (JSON, newest first), for App Home. */
  outcomeActivity(workspace: string): string {
    return `${this.tagged('outcomes', workspace)}:activity`;
  }

  /**
   * Sorted set: the lease id of every running fetch from the connectors, on every replica, scored by
   * when its lease lapses (ms). The fetch keys share one tag: takeFetchSlot-3.lua reads them together.
   */
  fetchesRunning(): string {
    return `${this.tagged('fetches')}:running`;
  }

  /** Sorted set: one person's running fetches (`who`: workspace and user), as fetchesRunning. */
  fetchesRunningBy(who: string): string {
    return `${this.tagged('fetches')}:running:${who}`;
  }

  /** Sorted set: one person's fetch starts in the last window, lease id scored by its start (ms). */
  fetchesStartedBy(who: string): string {
    return `${this.tagged('fetches')}:started:${who}`;
  }

  /**
   * The alert intake's keys (issue 38) share one hash tag, `{alerts}`: accepting an alert writes its
   * delivery mark, its stream entry and its incident in one script. One slot takes every alert; a
   * burst of alerts is small next to what one Redis node serves.
   */
  private alerts(): string {
    return this.tagged('alerts');
  }

  /** Stream: accepted alerts not yet done (fields `alert`, `attempts`), read by the consumer group. */
  alertStream(): string {
    return `${this.alerts()}:stream`;
  }

  /** Sorted set: alerts waiting to be tried again (JSON `{alert, attempts}`), scored by when (ms). */
  alertRetries(): string {
    return `${this.alerts()}:retry`;
  }

  /** List: alerts given up on (JSON, newest first), at most MAX_DEAD_LETTERS. */
  alertDeadLetters(): string {
    return `${this.alerts()}:dead`;
  }

  /** String: a delivery id seen, so the same delivery again is a duplicate. */
  alertDelivery(deliveryId: string): string {
    return `${this.alerts()}:delivery:${braceless(deliveryId)}`;
  }

  /** String: what memdoctor has done for one incident (JSON IncidentState). */
  incident(incidentKey: string): string {
    return `${this.alerts()}:incident:${braceless(incidentKey)}`;
  }

  /** String: the worker that holds an incident, while its claim lasts (a TTL). */
  incidentClaim(incidentKey: string): string {
    return `${this.incident(incidentKey)}:claim`;
  }

  /** String: a claim taken once (a Slack event delivery, a thread's start click), kept for a while. */
  claim(id: string): string {
    return `${this.tagged('slack', id)}:seen`;
  }
}

/** The hash tag of a key as Redis Cluster reads it: between the first `{` and the next `}`, if not empty. */
export function hashTag(key: string): string | undefined {
  const open = key.indexOf('{');
  const close = open === -1 ? -1 : key.indexOf('}', open + 1);
  return close > open + 1 ? key.slice(open + 1, close) : undefined;
}
