import {
  type ConnectorsConfig,
  type FetchGate,
  type FetchPerson,
  requestText,
  type TerminalFetching,
} from '../../usecases/connectors.ts';
import { type FetchOffer, type FetchStepResult, fetchOffer, fetchStep } from '../../usecases/fetch-step.ts';
import type { WalkthroughRecord, WalkthroughService } from '../../walkthrough/index.ts';

/** The line under a step a connector can answer: what to type, with the ids it still needs. */
export function renderFetchPrompt(offer: FetchOffer): string {
  const ids = offer.missingIds.map((id) => ` <${id}>`).join('');
  return `  or type \`fetch${ids}\` to fetch it from ${offer.title}\n`;
}

/** What was fetched, one line per answer with the fields it cites, above the step's new state. */
export function renderFetched(result: FetchStepResult): string {
  if (result.kind === 'not-fetched')
    return `! ${result.error.message}\n  The step can still be answered by hand.\n`;
  const lines: string[] = [];
  for (const answer of result.fetched ?? []) {
    lines.push(
      `  fetched ${requestText(answer.from.path)} from ${answer.from.connector} at ${answer.from.fetchedAt}`,
    );
    for (const citation of answer.citations) lines.push(`    ${citation}`);
  }
  return lines.length ? `${lines.join('\n')}\n` : '';
}

/**
 * The typed words as the ids, in order; words beyond the ids' count belong to the first, so a Glue
 * job name with spaces can be typed before its run id (`fetch nightly rollup jr_0123...`).
 */
export function typedIds(missing: readonly string[], words: readonly string[]): Record<string, string> {
  const extra = Math.max(0, words.length - missing.length);
  const values = extra ? [words.slice(0, extra + 1).join(' '), ...words.slice(extra + 1)] : words;
  return Object.fromEntries(missing.flatMap((id, i) => (values[i] ? [[id, values[i]]] : [])));
}

/** What the console fetches with: the connectors, their gate, and whom the caps count. */
export type ConsoleFetching = Pick<TerminalFetching, 'connectors' | 'gate' | 'person'>;

/** The console's side of fetching a step: the offer to show, and `fetch <ids>` as a request. */
export class ConsoleFetch {
  private readonly connectors: ConnectorsConfig;
  /** The gate a console's fetches pass: its caps; the access rules name Slack people, not a terminal's. */
  private readonly gate: FetchGate;
  /** Whom the caps count these fetches against: the same person as the terminal's `check`. */
  private readonly person: FetchPerson;

  constructor(
    private readonly service: WalkthroughService,
    fetching: ConsoleFetching,
  ) {
    this.connectors = fetching.connectors;
    this.gate = fetching.gate;
    this.person = fetching.person;
  }

  offer(record: WalkthroughRecord): FetchOffer | undefined {
    return fetchOffer(record, this.connectors);
  }

  /** `fetch` or `fetch <id> ...`: the typed words fill the ids the walkthrough does not know, in order. */
  async run(record: WalkthroughRecord, line: string, actor: string): Promise<FetchStepResult> {
    const offer = this.offer(record);
    const ids = typedIds(offer?.missingIds ?? [], line.trim().split(/\s+/).slice(1));
    const context = { walkthroughs: this.service, connectors: this.connectors, gate: this.gate };
    const asker = { surface: 'console' as const, ...this.person };
    return fetchStep(context, {
      walkthrough: record.id,
      actor,
      asker,
      expectedVersion: record.version,
      ids,
    });
  }
}
