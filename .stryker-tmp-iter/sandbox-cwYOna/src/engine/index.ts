// @ts-nocheck
import { type DiagnoseOptions, type Diagnosis, diagnoseLines } from './diagnose.ts';
import type { FactBook } from './facts.ts';
import { type InputStats, type ReadLimits, readLines } from './ingest/lines.ts';
import type { Playbook } from './playbook/schema.ts';

/** The result for one input, in the shape of the `diagnose --json` contract. */
export interface InputReport {
  source: string;
  input: InputStats;
  diagnoses: Diagnosis[];
}

/**
 * Diagnoses one input stream: raw bytes in (plain or gzip), ranked diagnoses out. The only I/O is
 * consuming `chunks`; the same bytes always give the same report.
 */
export async function diagnoseStream(
  source: string,
  chunks: AsyncIterable<Uint8Array>,
  playbooks: readonly Playbook[],
  options: DiagnoseOptions & ReadLimits = {},
): Promise<InputReport & { book: FactBook }> {
  const input: InputStats = { bytes: 0, lines: 0 };
  const batches = await readLines(source, chunks, input, options);
  const { diagnoses, book } = await diagnoseLines(batches, playbooks, options);
  return { source, input, diagnoses, book };
}

/** Diagnoses a pasted text (chat, console). */
export function diagnoseText(
  source: string,
  text: string,
  playbooks: readonly Playbook[],
  options: DiagnoseOptions & ReadLimits = {},
): Promise<InputReport & { book: FactBook }> {
  async function* once(): AsyncGenerator<Uint8Array> {
    yield Buffer.from(text, 'utf8');
  }
  return diagnoseStream(source, once(), playbooks, options);
}

export type { DiagnoseOptions, Diagnosis, EngineHint, Evidence } from './diagnose.ts';
export { ENGINE_HINTS } from './diagnose.ts';
