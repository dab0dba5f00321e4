import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { z } from 'zod';
import { parseText } from '../engine/parsers/parse-text.ts';
import { PARSERS } from '../engine/parsers/registry.ts';
import type { Parser } from '../engine/parsers/types.ts';
import type { Playbook } from '../engine/playbook/schema.ts';
import { PlaybookInvalidError, WalkthroughInvalidEventError, WalkthroughNotFoundError } from '../errors.ts';
import { childFor } from '../log.ts';
import type { ParseFn } from './answer.ts';
import { keepRecentAudit } from './audit.ts';
import { type WalkthroughEvent, WalkthroughEventSchema } from './events.ts';
import { checkProcedure } from './lint.ts';
import { createRecord, transition } from './machine.ts';
import type { Procedure } from './procedure-schema.ts';
import { DEFAULT_RECENT_RECORDS, RecentRecords } from './recent-records.ts';
import { type Conversation, type Finding, makeWalkthroughId, type WalkthroughRecord } from './record.ts';
import { conflictError } from './store/conflict.ts';
import type { WalkthroughStore } from './store/types.ts';
import { renderTranscript } from './transcript.ts';
import { type StepView, viewOf } from './view.ts';

/** What the service needs; everything but the store has a default. */
export interface WalkthroughServiceOptions {
  store: WalkthroughStore;
  /** Parsers by id, for pastes and for step views (tests inject small ones). Default: the registry. */
  parsers?: Readonly<Record<string, Parser>>;
  /** How pastes are parsed. Default: parseText over the registry. */
  parse?: ParseFn;
  now?: () => Date;
  /** The random part of new ids. */
  randomId?: () => string;
  logger?: Logger;
  /**
   * How many records this process keeps to answer a click without reading first (a shared store
   * only: the memory store is read without a round trip). 0: none. Default DEFAULT_RECENT_RECORDS.
   */
  recentRecords?: number;
}

/** What a walkthrough keeps from a diagnosis: its facts (without source lines) and named values. */
export interface DiagnosisFacts {
  facts: Finding[];
  values: Record<string, string>;
}

/** What a walkthrough starts from. */
export interface StartWalkthrough {
  playbook: Playbook;
  where: Conversation;
  owner: string;
  /** The chat thread it lives in (Slack `thread_ts`). */
  thread?: string;
  /** What the diagnosis found (see the use case's `walkthroughStart`); it answers steps already known. */
  diagnosis?: DiagnosisFacts;
  /**
   * False: not listed as active until its next event (a chat thread linked once its first message
   * is posted), so a start that stops half-way leaves nothing anyone sees. Default true.
   */
  listed?: boolean;
}

/** The procedure of a loaded playbook, checked again because a Playbook may be built in code. */
export function procedureOf(playbook: Playbook, parsers: ReadonlySet<string>): Procedure {
  if (playbook.procedure === undefined)
    throw new WalkthroughInvalidEventError(
      `playbook "${playbook.id}" has no step-by-step procedure yet; follow the actions its diagnosis lists.`,
    );
  const check = checkProcedure(playbook.procedure, parsers);
  if (!check.ok) throw new PlaybookInvalidError(`${playbook.dir}/procedure.yaml`, check.message);
  return check.procedure;
}

/**
 * The one entry point for walkthroughs, used by the Slack layer and the console alike: start, read,
 * apply an event (optimistic concurrency: exactly one of two simultaneous answers wins), list,
 * render. Every method validates its input and throws MemdoctorErrors a person can act on.
 */
export class WalkthroughService {
  private readonly store: WalkthroughStore;
  private readonly parsers: Readonly<Record<string, Parser>>;
  private readonly parse: ParseFn;
  private readonly now: () => Date;
  private readonly randomId: () => string;
  private readonly logger: Logger | undefined;
  private readonly recent: RecentRecords | undefined;

  constructor(options: WalkthroughServiceOptions) {
    this.store = options.store;
    this.parsers = options.parsers ?? PARSERS;
    this.parse = options.parse ?? parseText;
    this.now = options.now ?? (() => new Date());
    this.randomId = options.randomId ?? (() => randomBytes(6).toString('hex'));
    this.logger = options.logger ? childFor(options.logger, 'walkthrough') : undefined;
    const recent = options.recentRecords ?? DEFAULT_RECENT_RECORDS;
    this.recent = this.store.kind === 'redis' && recent > 0 ? new RecentRecords(recent) : undefined;
  }

  /** Which store holds the walkthroughs (the console says whether they survive a restart). */
  get storeKind(): WalkthroughStore['kind'] {
    return this.store.kind;
  }

  /** Starts a walkthrough: saves it at the first step that needs a person (known steps are skipped). */
  async start(input: StartWalkthrough): Promise<WalkthroughRecord> {
    const at = this.now().toISOString();
    const draft = createRecord({
      id: makeWalkthroughId(input.where, this.randomId()),
      ...input.where,
      ...(input.thread ? { thread: input.thread } : {}),
      playbook: { id: input.playbook.id, version: input.playbook.version, title: input.playbook.title },
      procedure: procedureOf(input.playbook, new Set(Object.keys(this.parsers))),
      facts: input.diagnosis?.facts ?? [],
      values: input.diagnosis?.values ?? {},
      owner: input.owner,
      at,
    });
    const started = transition(draft, { type: 'start' }, { actor: input.owner, at, parse: this.parse });
    if (!started.ok) throw started.error;
    const { record, archived } = keepRecentAudit(started.record);
    await this.store.create(record, { archived, listed: input.listed ?? true });
    this.recent?.remember(record);
    this.logger?.info({ walkthrough: record.id, playbook: input.playbook.id }, 'walkthrough started');
    return record;
  }

  /** The walkthrough; throws WalkthroughNotFoundError (with a hint about the store) when there is none. */
  async get(id: string): Promise<WalkthroughRecord> {
    const record = await this.store.get(id);
    if (record) {
      this.recent?.remember(record);
      return record;
    }
    this.recent?.forget(id);
    throw this.notFound(id);
  }

  private notFound(id: string): WalkthroughNotFoundError {
    const hint =
      this.store.kind === 'memory'
        ? 'walkthroughs are kept in memory and end with the process; set REDIS_URL to keep them across restarts.'
        : 'it may have expired (walkthroughs are kept for a while after the last answer) or the id is mistyped.';
    return new WalkthroughNotFoundError(id, hint);
  }

  /**
   * Applies one event by `actor` to the stored walkthrough `id`: reads it, then {@link applyTo}.
   * With `expectedVersion` (the version the person saw), an event arriving after someone else's
   * answer fails with "already answered by X" instead of answering the next step by accident.
   * `check` sees the record read before anything is written, and refuses by throwing (who may answer).
   */
  async apply(
    id: string,
    event: WalkthroughEvent,
    actor: string,
    expectedVersion?: number,
    check?: (current: WalkthroughRecord) => Promise<void>,
  ): Promise<WalkthroughRecord> {
    const fromHere = await this.applyToRecent(id, event, actor, expectedVersion, check);
    if (fromHere) return fromHere;
    const current = await this.get(id);
    // Who may answer depends on the stored owner, so it is checked on the record this call read.
    await check?.(current);
    return this.applyTo(current, event, actor, expectedVersion);
  }

  /**
   * The click without a read: applied to the record this process last saw, at the version the person
   * saw. The store accepts the write only if that is still its version, so a record another replica
   * changed (an answer, a hand-over that changed who may answer) is refused there; then, as on any
   * refusal here, the caller reads the stored record and decides on that. Undefined: not applied.
   */
  private async applyToRecent(
    id: string,
    event: WalkthroughEvent,
    actor: string,
    expectedVersion: number | undefined,
    check?: (current: WalkthroughRecord) => Promise<void>,
  ): Promise<WalkthroughRecord | undefined> {
    const cached = this.recent?.get(id);
    if (!cached || (expectedVersion !== undefined && cached.version !== expectedVersion)) return undefined;
    try {
      await check?.(cached);
      return await this.applyTo(cached, event, actor, expectedVersion);
    } catch {
      this.recent?.forget(id);
      return undefined;
    }
  }

  /**
   * Applies one event by `actor` to a walkthrough the caller has read (a record this service
   * returned): one round trip to the store, which writes only if nobody changed it since. Refused
   * events change nothing. Resolves to the record as stored.
   */
  async applyTo(
    record: WalkthroughRecord,
    event: WalkthroughEvent,
    actor: string,
    expectedVersion = record.version,
  ): Promise<WalkthroughRecord> {
    const parsed = WalkthroughEventSchema.safeParse(event);
    if (!parsed.success)
      throw new WalkthroughInvalidEventError(`not a walkthrough event:\n${z.prettifyError(parsed.error)}`);
    if (record.version !== expectedVersion) throw conflictError(record);
    const result = transition(record, parsed.data, {
      actor,
      at: this.now().toISOString(),
      parse: this.parse,
    });
    if (!result.ok) throw result.error;
    const { record: next, archived } = keepRecentAudit(result.record);
    await this.store.replace(next, record.version, archived);
    this.recent?.remember(next);
    this.logger?.debug(
      { walkthrough: record.id, event: event.type, version: next.version, actor },
      'walkthrough event',
    );
    return next;
  }

  /** Active walkthroughs of a conversation (e.g. "status" in a Slack channel), oldest first. */
  listActive(where: Conversation): Promise<WalkthroughRecord[]> {
    return this.store.listActive(where);
  }

  /** The latest walkthrough of a chat thread, if any. */
  findByThread(where: Conversation, thread: string): Promise<WalkthroughRecord | undefined> {
    return this.store.findByThread(where, thread);
  }

  /** The current step as a UI shows it (texts filled, choices as events). */
  view(record: WalkthroughRecord): StepView | undefined {
    return viewOf(record, this.parsers);
  }

  /** The Markdown transcript of a walkthrough, for incident notes, with its whole audit trail. */
  async transcript(id: string): Promise<string> {
    const found = await this.store.getWithAudit(id);
    if (!found) throw this.notFound(id);
    return renderTranscript(found.record, found.audit);
  }

  close(): Promise<void> {
    return this.store.close();
  }
}
