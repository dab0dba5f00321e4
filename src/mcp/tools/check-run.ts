import { type CheckResult, type ConnectorName, check, requestText } from '../../usecases/connectors.ts';
import type { McpDeps } from '../deps.ts';
import { reportText } from '../render.ts';
import { answer } from '../results.ts';

/** Each fetched answer (where from, when, its parser's judgement, the fields it cites), then the report. */
function render(result: CheckResult, lookedFor: readonly string[]): string {
  const lines: string[] = [];
  for (const a of result.fetched) {
    lines.push(`fetched ${a.connector} ${requestText(a.path)} at ${a.fetchedAt}`);
    if (a.judgement) lines.push(`  ${a.parser}: ${a.judgement.summary}`);
    for (const c of a.citations) lines.push(`  - ${c}`);
  }
  lines.push(reportText(result.report, lookedFor));
  for (const note of result.notes) lines.push(`Note: ${note}`);
  return lines.join('\n');
}

/** `check`'s use case over the configured connectors; its answer as `check --json` prints it. */
export async function runCheck(deps: McpDeps, request: { system: ConnectorName; id?: string | undefined }) {
  const { connectors, gate, person } = await deps.connectors();
  const playbooks = await deps.playbooks();
  const { system, id } = request;
  // The agent runs as the local user, who holds connectors.yaml and its credentials, as in a terminal;
  // its fetches count against the same person as that user's `check` (docs/connectors.md).
  const asker = { surface: 'mcp' as const, ...person };
  const asked = { system, workspace: 'mcp', asker, ...(id !== undefined ? { id } : {}) };
  const result = await check(asked, { connectors, playbooks, gate });
  const lookedFor = playbooks.map((p) => p.id);
  return answer(render(result, lookedFor), { ...result.report, fetched: result.fetched });
}
