import { diagnoseStream, diagnoseText, type EngineHint, type InputReport } from '../engine/index.ts';
import type { SlackDeps } from './deps.ts';
import { downloadSlackFile, type SlackFileRef } from './download.ts';

/** Diagnoses pasted text (slash command, modal) with the configured expanded-size limit. */
export async function diagnosePaste(
  deps: SlackDeps,
  text: string,
  engine?: EngineHint,
): Promise<InputReport> {
  const { book: _book, ...report } = await diagnoseText('paste', text, deps.playbooks, {
    engine,
    maxBytes: deps.settings.maxExpandedBytes,
  });
  return report;
}

/**
 * Downloads a shared file with the bot token and diagnoses it as it streams: the download limit
 * applies to the bytes fetched, the expanded limit to the text after gunzip.
 */
export async function diagnoseSlackFile(
  deps: SlackDeps,
  file: SlackFileRef,
  engine?: EngineHint,
): Promise<InputReport> {
  const chunks = await downloadSlackFile(file, {
    token: deps.settings.botToken,
    maxBytes: deps.settings.maxUploadBytes,
    allowedHosts: deps.settings.fileHosts,
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
  });
  const { book: _book, ...report } = await diagnoseStream(file.name ?? file.id, chunks, deps.playbooks, {
    engine,
    maxBytes: deps.settings.maxExpandedBytes,
  });
  return report;
}
