// @ts-nocheck
import { type Config, loadConfig } from '../config.ts';
import type { InputReport } from '../engine/index.ts';
import type { Playbook } from '../engine/playbook/schema.ts';
import { asMemdoctorError } from '../errors.ts';
import { type AssistOptions, createLlmAssist, type LlmAssist } from './assist.ts';
import type { Selection } from './select.ts';
import { SelectionTap } from './tap.ts';
import { needsSuggestion, type Suggestion } from './triage.ts';

/** Where the notes go: the command's stderr, so `--json` on stdout stays clean. */
interface NoteSink {
  write(text: string): unknown;
}

/**
 * The model's part of `memdoctor diagnose`, in one object so the command needs three calls:
 * `input()` around the byte stream, `suggestion()` after the report, `close()` at the end. When no
 * model is configured every call is a no-op and nothing else changes.
 */
export class DiagnoseAssist {
  private readonly taps = new Map<string, SelectionTap>();

  private constructor(
    private readonly assist: LlmAssist | undefined,
    private readonly playbooks: readonly Playbook[],
    private readonly notes: NoteSink,
  ) {}

  /** Reads the configuration; a configuration error turns the assist off with a note, not a failure. */
  static create(
    playbooks: readonly Playbook[],
    notes: NoteSink,
    readConfig: () => Config = loadConfig,
    options: AssistOptions = {},
  ): DiagnoseAssist {
    try {
      return new DiagnoseAssist(createLlmAssist(readConfig(), options), playbooks, notes);
    } catch (error) {
      notes.write(`memdoctor: model assist off: ${asMemdoctorError(error).message}\n`);
      return new DiagnoseAssist(undefined, playbooks, notes);
    }
  }

  /** The input stream for the engine; with a model configured, the lines are also selected on the way. */
  input(source: string, chunks: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
    if (!this.assist) return chunks;
    const tap = new SelectionTap(source);
    this.taps.set(source, tap);
    return tap.wrap(chunks);
  }

  /** The model's suggestion for a report, when a model is configured and the engine was unsure. */
  async suggestion(report: InputReport, hint?: string): Promise<Suggestion | undefined> {
    const tap = this.taps.get(report.source);
    this.taps.delete(report.source);
    if (!this.assist || !tap || !needsSuggestion(report.diagnoses)) return undefined;
    const selection = await tap.selection();
    if (!selection) return undefined;
    const outcome = await this.assist.suggest({
      workspace: 'cli',
      playbooks: this.playbooks,
      diagnoses: report.diagnoses,
      selection,
      hint,
    });
    if (outcome.value === undefined) this.notes.write(`memdoctor: no model suggestion: ${outcome.note}\n`);
    return outcome.value;
  }

  async close(): Promise<void> {
    await this.assist?.close();
  }
}

const percent = (n: number): string => `${Math.round(n * 100)}%`;

/** The human-readable block for a suggestion, set apart and labelled as a model's, not memdoctor's. */
export function renderSuggestion(suggestion: Suggestion | undefined): string {
  if (!suggestion) return '';
  const out = ['', "-- A model's suggestion (not one of memdoctor's rules; check it before acting) --"];
  if (suggestion.playbook === 'none') {
    out.push(`The model found no playbook that fits (model confidence ${percent(suggestion.confidence)}).`);
  } else {
    out.push(`Playbook: ${suggestion.playbook}  [model confidence ${percent(suggestion.confidence)}]`);
  }
  out.push(`Why: ${suggestion.rationale}`);
  if (suggestion.evidence.length > 0) {
    out.push('Lines it relied on:');
    for (const e of suggestion.evidence) out.push(`  line ${e.line}: ${e.text}`);
  }
  if (suggestion.playbook !== 'none') out.push(`Walk through it: memdoctor walk ${suggestion.playbook}`);
  return `${out.join('\n')}\n`;
}

/** What `suggestIfUnsure` needs besides the assist: the engine's result and the input's selected lines. */
export interface UnsureRequest {
  workspace: string;
  playbooks: readonly Playbook[];
  report: InputReport;
  /** The selected lines, read only when a suggestion is needed (a tap's selection waits for the input). */
  selection: () => Promise<Selection | undefined>;
  hint?: string;
}

/**
 * The model's suggestion for the chat surfaces: asked only when a model is configured and the engine
 * recognised nothing or little. Never throws: a failed model call or selection is `undefined`, so
 * the deterministic diagnosis always goes out.
 */
export async function suggestIfUnsure(
  assist: LlmAssist | undefined,
  request: UnsureRequest,
): Promise<{ suggestion?: Suggestion; note?: string }> {
  if (!assist || !needsSuggestion(request.report.diagnoses)) return {};
  try {
    const selection = await request.selection();
    if (!selection) return { note: 'the input could not be read a second time for the model' };
    const outcome = await assist.suggest({
      workspace: request.workspace,
      playbooks: request.playbooks,
      diagnoses: request.report.diagnoses,
      selection,
      ...(request.hint ? { hint: request.hint } : {}),
    });
    return outcome.value ? { suggestion: outcome.value } : { note: outcome.note };
  } catch (error) {
    return { note: asMemdoctorError(error).message };
  }
}
