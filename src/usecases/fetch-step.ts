import type { ConnectorName, ConnectorsConfig, ConnectorTargets } from '../connectors/config.ts';
import { CONNECTORS, fetchWith } from '../connectors/registry.ts';
import type { Fetched } from '../connectors/types.ts';
import { parseText } from '../engine/parsers/parse-text.ts';
import { ConnectorError } from '../errors.ts';
import type { WalkthroughEvent, WalkthroughRecord } from '../walkthrough/index.ts';
import { knownValues } from '../walkthrough/known.ts';
import { stepById } from '../walkthrough/prefill.ts';
import type { FetchSpec } from '../walkthrough/steps/step-schemas.ts';
import { type AnswerContext, type AnswerResult, answerStep } from './answer-step.ts';

/** What fetching a step needs: answering it, and the connectors the operator configured. */
export interface FetchStepContext extends AnswerContext {
  connectors: ConnectorsConfig;
  now?: () => Date;
}

export interface FetchStepRequest {
  walkthrough: string;
  actor: string;
  expectedVersion?: number;
  /** Ids typed with the request (`fetch <job-id>`), used where the walkthrough does not know them. */
  ids?: Readonly<Record<string, string>>;
  mayAnswer?: (owner: string) => Promise<boolean>;
}

/** What a surface offers on a step: "Fetch from Flink JobManager", and the ids a person must still give. */
export interface FetchOffer {
  connector: string;
  title: string;
  missingIds: string[];
}

/** The fetch a step offers, when its connector is configured; nothing unconfigured, so nothing changes. */
export function fetchOffer(
  record: WalkthroughRecord,
  connectors: ConnectorsConfig | undefined,
): FetchOffer | undefined {
  if (record.status !== 'active' || !record.current || !connectors) return undefined;
  const step = stepById(record, record.current);
  const spec = 'fetch' in step ? (step.fetch as FetchSpec | undefined) : undefined;
  if (!spec || !connectors[spec.connector]) return undefined;
  const known = idsFromKnown(spec, knownValues(record));
  const missingIds = neededIds(spec).filter((id) => !known[id]);
  return { connector: spec.connector, title: CONNECTORS[spec.connector].title, missingIds };
}

/** Every id the step's resources need, in order, once. */
function neededIds(spec: FetchSpec): string[] {
  const connector = CONNECTORS[spec.connector];
  return [...new Set(spec.resources.flatMap((r) => connector.resources[r]?.ids ?? []))];
}

function idsFromKnown(spec: FetchSpec, known: Readonly<Record<string, string>>): Record<string, string> {
  const ids: Record<string, string> = {};
  for (const [id, value] of Object.entries(spec.ids)) if (known[value]) ids[id] = known[value];
  return ids;
}

export type FetchStepResult =
  | (AnswerResult & { fetched?: Fetched[] })
  /** Nothing was answered: the connector's message says why; the step still takes a paste. */
  | { kind: 'not-fetched'; error: ConnectorError };

async function fetchAll<K extends ConnectorName>(
  system: K,
  resources: readonly string[],
  ids: Record<string, string>,
  context: FetchStepContext,
) {
  const target: ConnectorTargets[K] | undefined = context.connectors[system];
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
function measured(spec: FetchSpec, fetched: readonly Fetched[]): number {
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

/** The event the fetched answer is: the joined text for a paste step, the parsed number for a measurement. */
function eventOf(
  kind: string,
  spec: FetchSpec,
  fetched: readonly Fetched[],
  step: string,
  from: { connector: string; paths: string[]; fetchedAt: string },
): WalkthroughEvent {
  if (kind === 'measurement') return { type: 'measure', value: measured(spec, fetched), step, from };
  return { type: 'paste', text: fetched.map((f) => f.paste).join('\n'), step, from };
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
  const ids = { ...idsFromKnown(spec, knownValues(record)), ...request.ids };
  let fetched: Fetched[];
  let event: WalkthroughEvent;
  try {
    fetched = await fetchAll(spec.connector, spec.resources, ids, context);
    const from = {
      connector: spec.connector,
      paths: fetched.map((f) => f.from.path),
      fetchedAt: fetched.at(-1)?.from.fetchedAt ?? new Date().toISOString(),
    };
    event = eventOf(step.kind, spec, fetched, step.id, from);
  } catch (error) {
    if (error instanceof ConnectorError) return { kind: 'not-fetched', error };
    throw error;
  }
  const answered = await answerStep(context, {
    walkthrough: request.walkthrough,
    event,
    actor: request.actor,
    ...(request.expectedVersion !== undefined ? { expectedVersion: request.expectedVersion } : {}),
    ...(request.mayAnswer ? { mayAnswer: request.mayAnswer } : {}),
  });
  return { ...answered, fetched };
}
