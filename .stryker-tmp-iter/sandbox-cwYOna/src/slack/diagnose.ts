// @ts-nocheck
import type { FactBook } from '../engine/facts.ts';
import { diagnoseStream, diagnoseText, type EngineHint, type InputReport } from '../engine/index.ts';
import { readLines } from '../engine/ingest/lines.ts';
import { suggestIfUnsure } from '../llm/diagnose-assist.ts';
import { type Selection, selectLines } from '../llm/select.ts';
import { SelectionTap } from '../llm/tap.ts';
import type { Suggestion } from '../llm/triage.ts';
import { type DiagnosisFacts, diagnosisFacts } from '../walkthrough/index.ts';
import type { SlackDeps } from './deps.ts';
import { downloadSlackFile, type SlackFileRef } from './download.ts';

/** The parts of SlackDeps a diagnosis uses. */
export type DiagnoseDeps = Pick<SlackDeps, 'settings' | 'playbooks' | 'fetch' | 'assist'> &
  Partial<Pick<SlackDeps, 'log'>>;

/** A report and what its top diagnosis knows, for the walkthrough it may start. */
export interface SlackDiagnosis {
  report: InputReport;
  known?: DiagnosisFacts;
  /** A model's suggestion, when one is configured and the engine was unsure; shown apart. */
  suggestion?: Suggestion;
}

function withKnown({ book, ...report }: InputReport & { book: FactBook }): SlackDiagnosis {
  const top = report.diagnoses[0];
  return top ? { report, known: diagnosisFacts(book, top) } : { report };
}

function download(deps: DiagnoseDeps, file: SlackFileRef) {
  return downloadSlackFile(file, {
    token: deps.settings.botToken,
    maxBytes: deps.settings.maxUploadBytes,
    allowedHosts: deps.settings.fileHosts,
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
  });
}

/** Diagnoses pasted text (slash command, modal) with the configured expanded-size limit. */
export async function diagnosePaste(
  deps: DiagnoseDeps,
  text: string,
  engine?: EngineHint,
  workspace = 'slack',
): Promise<SlackDiagnosis> {
  const maxBytes = deps.settings.maxExpandedBytes;
  const result = withKnown(await diagnoseText('paste', text, deps.playbooks, { engine, maxBytes }));
  return withSuggestion(deps, result, workspace, engine, async () => selectLines(text));
}

/** Adds the model's suggestion when the engine was unsure; a model failure is logged, never thrown. */
async function withSuggestion(
  deps: DiagnoseDeps,
  result: SlackDiagnosis,
  workspace: string,
  hint: EngineHint | undefined,
  selection: () => Promise<Selection | undefined>,
): Promise<SlackDiagnosis> {
  const { playbooks, assist } = deps;
  const { suggestion, note } = await suggestIfUnsure(assist, {
    workspace,
    playbooks,
    report: result.report,
    selection,
    ...(hint ? { hint } : {}),
  });
  if (note) deps.log?.info({ source: result.report.source, note }, 'no model suggestion');
  return suggestion ? { ...result, suggestion } : result;
}

/**
 * Downloads a shared file with the bot token and diagnoses it as it streams: the download limit
 * applies to the bytes fetched, the expanded limit to the text after gunzip.
 */
export async function diagnoseSlackFile(
  deps: DiagnoseDeps,
  file: SlackFileRef,
  engine?: EngineHint,
  workspace = 'slack',
): Promise<SlackDiagnosis> {
  const source = file.name ?? file.id;
  const downloaded = await download(deps, file);
  // With a model configured, the lines it may see are selected as the engine reads: one download.
  const tap = deps.assist ? new SelectionTap(source) : undefined;
  const chunks = tap ? tap.wrap(downloaded) : downloaded;
  const maxBytes = deps.settings.maxExpandedBytes;
  const result = withKnown(await diagnoseStream(source, chunks, deps.playbooks, { engine, maxBytes }));
  return withSuggestion(deps, result, workspace, engine, async () => tap?.selection());
}

/** Largest file accepted as the answer to a paste step: parsers read text that fits in memory. */
export const PASTE_FILE_MAX_BYTES = 8 * 1024 * 1024;

/** Downloads a shared file (gunzipping it) as text, to answer a walkthrough's paste step. */
export async function readSlackFileText(deps: DiagnoseDeps, file: SlackFileRef): Promise<string> {
  const chunks = await download(deps, file);
  const stats = { bytes: 0, lines: 0 };
  const maxBytes = Math.min(deps.settings.maxExpandedBytes, PASTE_FILE_MAX_BYTES);
  const lines: string[] = [];
  for await (const batch of await readLines(file.name ?? file.id, chunks, stats, { maxBytes }))
    lines.push(...batch);
  return lines.join('\n');
}
