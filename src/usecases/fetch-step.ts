import type { ConnectorName, ConnectorsConfig, ConnectorTargets } from '../connectors/config.ts';
import { CONNECTORS, fetchWith } from '../connectors/registry.ts';
import type { Fetched } from '../connectors/types.ts';
import type { Asker, FetchGate } from '../diagnosis/fetch-access.ts';
import { isEmptyAnswer, parseText } from '../engine/parsers/parse-text.ts';
import { PARSERS } from '../engine/parsers/registry.ts';
import { ConnectorError, FetchRefusedError, messageOf, WalkthroughForbiddenError } from '../errors.ts';
import type { WalkthroughEvent, WalkthroughRecord } from '../walkthrough/index.ts';
import { knownValues } from '../walkthrough/known.ts';
import { stepById } from '../walkthrough/prefill.ts';
import type { FetchSource, FetchSpec } from '../walkthrough/steps/step-schemas.ts';
import { type AnswerContext, type AnswerResult, answerStep } from './answer-step.ts';

/** What fetching a step needs: answering it, and the connectors the operator configured. */
export interface FetchStepContext extends AnswerContext {
  connectors: ConnectorsConfig;
  /** Who may fetch what, and how many at once: checked before any request. */
  gate: FetchGate;
  now?: () => Date;
}

export interface FetchStepRequest {
  walkthrough: string;
  actor: string;
  expectedVersion?: number;
  /** Ids typed with the request (`fetch <job-id>`), used where the walkthrough does not know them. */
  ids?: Readonly<Record<string, string>>;
  /** Whether the actor may answer the walkthrough's steps; asked before anything is fetched. */
  mayAnswer?: (owner: string) => Promise<boolean>;
  /** Who asks, from where (the actor, and the channel the walkthrough's thread is in). */
  asker: Asker;
}

/** What a surface offers on a step: "Fetch from Flink JobManager", and the ids a person must still give. */
export interface FetchOffer {
  connector: string;
  title: string;
  missingIds: string[];
}

/** The step's sources whose connector the operator configured, in the order the procedure gives them. */
function configuredSources(spec: FetchSpec, connectors: ConnectorsConfig): FetchSource[] {
  return [spec, ...(spec.or ? [spec.or] : [])].filter((source) => connectors[source.connector]);
}

/** The fetch a step offers, when its connector is configured; nothing unconfigured, so nothing changes. */
export function fetchOffer(
  record: WalkthroughRecord,
  connectors: ConnectorsConfig | undefined,
): FetchOffer | undefined {
  if (record.status !== 'active' || !record.current || !connectors) return undefined;
  const step = stepById(record, record.current);
  const spec = 'fetch' in step ? (step.fetch as FetchSpec | undefined) : undefined;
  const sources = spec ? configuredSources(spec, connectors) : [];
  const first = sources[0];
  if (!first) return undefined;
  const soFar = idsSoFar(record);
  const missingIds = [
    ...new Set(
      sources.flatMap((source) => {
        const ids = idsFor(source, soFar);
        return neededIds(source).filter((id) => !ids[id]);
      }),
    ),
  ];
  const title = sources.map((source) => CONNECTORS[source.connector].title).join(' or ');
  return { connector: first.connector, title, missingIds };
}

/** Every id the source's resources need, in order, once. */
function neededIds(source: FetchSource): string[] {
  const connector = CONNECTORS[source.connector];
  return [...new Set(source.resources.flatMap((r) => connector.resources[r]?.ids ?? []))];
}

/**
 * The ids earlier fetches of this walkthrough used, typed or known: an application id given for
 * YARN's diagnostics serves the History Server's executors and settings too, without asking again.
 */
function idsFetchedBefore(record: WalkthroughRecord): Record<string, string> {
  const ids: Record<string, string> = {};
  for (const entry of record.path)
    if ('fetched' in entry.answer && entry.answer.fetched?.ids) Object.assign(ids, entry.answer.fetched.ids);
  return ids;
}

/** What a walkthrough knows that may give a source its ids: its known values, and earlier fetches' ids. */
interface IdsSoFar {
  known: Readonly<Record<string, string>>;
  earlier: Readonly<Record<string, string>>;
}

function idsSoFar(record: WalkthroughRecord): IdsSoFar {
  return { known: knownValues(record), earlier: idsFetchedBefore(record) };
}

/** The ids a source gets without asking: an earlier fetch's, overridden by the known values it names. */
function idsFor(source: FetchSource, { known, earlier }: IdsSoFar): Record<string, string> {
  const ids: Record<string, string> = { ...earlier };
  for (const [id, value] of Object.entries(source.ids)) if (known[value]) ids[id] = known[value];
  return ids;
}

export type FetchStepResult =
  | (AnswerResult & { fetched?: Fetched[] })
  /** Nothing was answered: the connector's or the access rule's message says why; the step still takes a paste. */
  | { kind: 'not-fetched'; error: ConnectorError | FetchRefusedError };

async function fetchAll<K extends ConnectorName>(
  system: K,
  resources: readonly string[],
  ids: Record<string, string>,
  context: FetchStepContext,
) {
  const target: ConnectorTargets[K] | undefined = (context.connectors as Partial<ConnectorTargets>)[system];
  if (!target)
    throw new ConnectorError(
      `${system} is not configured: add a "${system}:" entry to connectors.yaml (docs/connectors.md), or paste the output.`,
    );
  const fetched: Fetched[] = [];
  // One request at a time: the target is a production JobManager, ResourceManager or API server.
  for (const resource of resources)
    fetched.push(await fetchWith(system, target, { resource, ids }, context.now));
  return fetched;
}

/**
 * The number a measurement step asks for, read from the fetched answer by the parser a paste of it
 * gets; an answer that does not hold it answers nothing and says what it held.
 */
function measured(spec: FetchSource, fetched: readonly Fetched[]): number {
  const title = CONNECTORS[spec.connector].title;
  const parser = fetched.at(-1)?.parser;
  const key = spec.value ?? '';
  const handBack = 'enter the figure by hand.';
  if (!parser) throw new ConnectorError(`${title} answered, but no parser reads the answer: ${handBack}`);
  let parsed: ReturnType<typeof parseText>;
  try {
    parsed = parseText(parser, fetched.map((f) => f.paste).join('\n'));
  } catch (error) {
    throw new ConnectorError(`${title} answered, but ${(error as Error).message} So ${handBack}`);
  }
  const value = parsed.values[key];
  if (typeof value !== 'number')
    throw new ConnectorError(
      `${title} answered, but its answer holds no ${key}: ${parsed.summary} So ${handBack}`,
    );
  return value;
}

/**
 * A paste answer a later source could still give: one the step's parser cannot read is handed on
 * (YARN's application diagnostics without the executor's kill) rather than recorded.
 */
function readable(parser: string | undefined, text: string, title: string): void {
  if (!parser) return;
  try {
    parseText(parser, text);
  } catch (error) {
    throw new ConnectorError(`${title} answered, but ${messageOf(error)}`);
  }
}

/**
 * An answer that holds nothing (YARN's empty diagnostics, Flink's `[]` for a TaskManager it has no
 * metrics of) answers nothing: it is said for what it means, and the next source is tried.
 */
function refuseEmpty(source: FetchSource, fetched: readonly Fetched[], parser: string | undefined): void {
  if (!isEmptyAnswer(fetched.map((f) => f.paste).join('\n'))) return;
  const connector = CONNECTORS[source.connector];
  const meanings = source.resources.flatMap((r) => connector.resources[r]?.empty ?? []);
  const meaning = meanings.join('; ') || (parser && PARSERS[parser]?.emptyAnswer) || 'with nothing in it';
  throw new ConnectorError(`${connector.title} answered, but ${meaning}.`.replace(/\.\.$/, '.'));
}

/** The event the fetched answer is: the joined text for a paste step, the parsed number for a measurement. */
function eventOf(
  step: { id: string; kind: string; parser?: string },
  source: FetchSource,
  fetched: readonly Fetched[],
  check: boolean,
  ids: Readonly<Record<string, string>>,
): WalkthroughEvent {
  const used = Object.fromEntries(neededIds(source).flatMap((id) => (ids[id] ? [[id, ids[id]]] : [])));
  const from = {
    connector: source.connector,
    paths: fetched.map((f) => f.from.path),
    fetchedAt: fetched.at(-1)?.from.fetchedAt ?? new Date().toISOString(),
    ...(Object.keys(used).length ? { ids: used } : {}),
  };
  refuseEmpty(source, fetched, step.parser ?? fetched.at(-1)?.parser);
  if (step.kind === 'measurement')
    return { type: 'measure', value: measured(source, fetched), step: step.id, from };
  const text = fetched.map((f) => f.paste).join('\n');
  if (check) readable(step.parser, text, CONNECTORS[source.connector].title);
  return { type: 'paste', text, step: step.id, from };
}

/**
 * The first configured source that answers: each in turn, the next one tried when the one before
 * faulted or answered nothing the step reads. Every source failing answers nothing, with each reason.
 */
async function firstAnswer(
  context: FetchStepContext,
  step: { id: string; kind: string; parser?: string },
  spec: FetchSpec,
  request: FetchStepRequest,
  record: WalkthroughRecord,
): Promise<{ fetched: Fetched[]; event: WalkthroughEvent } | ConnectorError | FetchRefusedError> {
  const soFar = idsSoFar(record);
  const sources = configuredSources(spec, context.connectors);
  const reasons: string[] = [];
  let refused: FetchRefusedError | undefined;
  for (const [i, source] of (sources.length ? sources : [spec]).entries()) {
    const ids = { ...idsFor(source, soFar), ...request.ids };
    try {
      const fetched = await admittedFetch(context, request, record, source, ids);
      // After a source that failed, a last answer the parser cannot read is told with that failure.
      const check = i < sources.length - 1 || reasons.length > 0;
      return { fetched, event: eventOf(step, source, fetched, check, ids) };
    } catch (error) {
      if (error instanceof FetchRefusedError) refused ??= error;
      else if (!(error instanceof ConnectorError)) throw error;
      reasons.push(error.message);
    }
  }
  // Refused everywhere: the refusal says what to do; a fault after a refusal says both.
  return refused && reasons.length === 1 ? refused : new ConnectorError(reasons.join(' '));
}

/**
 * One source's fetch, let through by the gate first: the access rule for its connector (and the
 * walkthrough's thread is where the answer is shown, unless it is a DM with memdoctor), the caps.
 */
async function admittedFetch(
  context: FetchStepContext,
  request: FetchStepRequest,
  record: WalkthroughRecord,
  source: FetchSource,
  ids: Record<string, string>,
): Promise<Fetched[]> {
  const sharedPlace = request.asker.surface === 'slack' && !record.conversation.startsWith('D');
  const admission = await context.gate.admit(
    { connector: source.connector, kind: 'step', ids, sharedPlace },
    request.asker,
  );
  try {
    const fetched = await fetchAll(source.connector, source.resources, ids, context);
    admission.done({ paths: fetched.map((f) => f.from.path) });
    return fetched;
  } catch (error) {
    admission.done({ paths: [], failed: messageOf(error) });
    throw error;
  }
}

/**
 * Answers the walkthrough's current paste or measurement step from its connector: fetches the
 * resources its `fetch:` names, gives the step's parser the fetched text exactly as a paste (a
 * measurement takes the parsed value its `fetch:` names), and records the answer as fetched, with the
 * paths and the time. A fault answers nothing and says why.
 */
export async function fetchStep(
  context: FetchStepContext,
  request: FetchStepRequest,
): Promise<FetchStepResult> {
  const record = await context.walkthroughs.get(request.walkthrough);
  const step = record.current ? stepById(record, record.current) : undefined;
  const spec = step && 'fetch' in step ? (step.fetch as FetchSpec | undefined) : undefined;
  if (!step || !spec)
    return {
      kind: 'not-fetched',
      error: new ConnectorError('This step has nothing to fetch: paste the output.'),
    };
  // Who may answer is asked before anything is fetched: a refused person's fetch would still have
  // read production (issue 35 finding 6).
  if (request.mayAnswer && !(await request.mayAnswer(record.owner)))
    return { kind: 'not-allowed', error: new WalkthroughForbiddenError(record.owner) };
  const answer = await firstAnswer(context, step, spec, request, record);
  if (answer instanceof ConnectorError || answer instanceof FetchRefusedError)
    return { kind: 'not-fetched', error: answer };
  const { fetched, event } = answer;
  const answered = await answerStep(context, {
    walkthrough: request.walkthrough,
    event,
    actor: request.actor,
    ...(request.expectedVersion !== undefined ? { expectedVersion: request.expectedVersion } : {}),
    ...(request.mayAnswer ? { mayAnswer: request.mayAnswer } : {}),
  });
  return { ...answered, fetched };
}
