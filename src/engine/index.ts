import type { ChartData } from './charts/types.ts';
import { triggerScanner } from './collector.ts';
import {
  type DiagnoseOptions,
  type Diagnosis,
  diagnoseBytes,
  diagnoseLines,
  type LinesDiagnosis,
  type StageFailure,
} from './diagnose.ts';
import type { Finding } from './facts.ts';
import { type InputStats, type ReadLimits, readLines, textInput } from './ingest/lines.ts';
import type { CutLines } from './ingest/long-line.ts';
import type { Playbook } from './playbook/schema.ts';

/** The result for one input, in the shape of the `diagnose --json` contract. */
export interface InputReport {
  source: string;
  input: { bytes: number; lines: number };
  diagnoses: Diagnosis[];
}

/** What the engine gives for one input: the report, and beside it what is not part of the contract. */
export interface EngineResult {
  report: InputReport;
  /** The facts found, without their lines: what a walkthrough can start from. */
  findings: Finding[];
  /** Parsers and extractors that failed on this input; the rest of the diagnosis went on. */
  failures: StageFailure[];
  /** Lines longer than the engine reads: it read part of each (see ingest/long-line.ts). */
  cut?: CutLines;
  /** What to draw of a recognised dump, not part of the contract (see src/engine/charts). */
  chart?: ChartData;
}

/**
 * Diagnoses one input stream: raw bytes in (plain or gzip), ranked diagnoses out. The only I/O is
 * consuming `chunks`; the same bytes always give the same result. A chunk is read before the next
 * is asked for, and nothing of it is kept past the one after (what is kept longer is copied), so the
 * source may read into a chunk's memory again once it has handed over two more.
 */
export async function diagnoseStream(
  source: string,
  chunks: AsyncIterable<Uint8Array>,
  playbooks: readonly Playbook[],
  options: DiagnoseOptions & ReadLimits = {},
): Promise<EngineResult> {
  const stats: InputStats = { bytes: 0, lines: 0 };
  const { diagnoses, findings, failures, chart } =
    options.skim === false
      ? await diagnoseLines(await everyLine(source, chunks, stats, options), playbooks, options)
      : await diagnoseInputBytes(source, chunks, stats, playbooks, options);
  const { cut, ...input } = stats;
  return {
    report: { source, input, diagnoses },
    findings,
    failures,
    ...(cut ? { cut } : {}),
    ...(chart ? { chart } : {}),
  };
}

/**
 * diagnoseBytes over an input's text. Other threads may read a seekable input's ranges from the input
 * itself only when its bytes are the text: a gunzipped input's offsets are not the text's.
 */
async function diagnoseInputBytes(
  source: string,
  chunks: AsyncIterable<Uint8Array>,
  stats: InputStats,
  playbooks: readonly Playbook[],
  options: DiagnoseOptions & ReadLimits,
): Promise<LinesDiagnosis> {
  const { bytes, gunzipped } = await textInput(source, chunks);
  if (!gunzipped || !options.blocks?.seekable) return diagnoseBytes(source, bytes, stats, playbooks, options);
  const { seekable: _, ...blocks } = options.blocks;
  return diagnoseBytes(source, bytes, stats, playbooks, { ...options, blocks });
}

function everyLine(
  source: string,
  chunks: AsyncIterable<Uint8Array>,
  stats: InputStats,
  options: DiagnoseOptions & ReadLimits,
): Promise<AsyncGenerator<string[]>> {
  return readLines(source, chunks, stats, options, triggerScanner(options.extractors));
}

/** Diagnoses a pasted text (chat, console). */
export function diagnoseText(
  source: string,
  text: string,
  playbooks: readonly Playbook[],
  options: DiagnoseOptions & ReadLimits = {},
): Promise<EngineResult> {
  async function* once(): AsyncGenerator<Uint8Array> {
    yield Buffer.from(text, 'utf8');
  }
  return diagnoseStream(source, once(), playbooks, options);
}

export type { DiagnoseOptions, Diagnosis, EngineHint, Evidence, StageFailure } from './diagnose.ts';
export { ENGINE_HINTS } from './diagnose.ts';
export type { Finding } from './facts.ts';
export type { ReadLimits } from './ingest/lines.ts';
export { MAX_LINE_CHARS } from './ingest/lines.ts';
