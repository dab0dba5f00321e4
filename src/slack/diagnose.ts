import type { FactBook } from '../engine/facts.ts';
import { diagnoseStream, diagnoseText, type EngineHint, type InputReport } from '../engine/index.ts';
import { readLines } from '../engine/ingest/lines.ts';
import { type DiagnosisFacts, diagnosisFacts } from '../walkthrough/index.ts';
import type { SlackDeps } from './deps.ts';
import { downloadSlackFile, type SlackFileRef } from './download.ts';

/** The parts of SlackDeps a diagnosis uses. */
export type DiagnoseDeps = Pick<SlackDeps, 'settings' | 'playbooks' | 'fetch'>;

/** A report and what its top diagnosis knows, for the walkthrough it may start. */
export interface SlackDiagnosis {
  report: InputReport;
  known?: DiagnosisFacts;
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
): Promise<SlackDiagnosis> {
  const maxBytes = deps.settings.maxExpandedBytes;
  return withKnown(await diagnoseText('paste', text, deps.playbooks, { engine, maxBytes }));
}

/**
 * Downloads a shared file with the bot token and diagnoses it as it streams: the download limit
 * applies to the bytes fetched, the expanded limit to the text after gunzip.
 */
export async function diagnoseSlackFile(
  deps: DiagnoseDeps,
  file: SlackFileRef,
  engine?: EngineHint,
): Promise<SlackDiagnosis> {
  const chunks = await download(deps, file);
  const maxBytes = deps.settings.maxExpandedBytes;
  return withKnown(await diagnoseStream(file.name ?? file.id, chunks, deps.playbooks, { engine, maxBytes }));
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
