import type { BlockOptions } from '../engine/blocks.ts';
import type { ChartData } from '../engine/charts/types.ts';
import type { Extractor } from '../engine/extractors/types.ts';
import type { HeapReport } from '../engine/heap/index.ts';
import {
  diagnoseStream,
  diagnoseText,
  type EngineHint,
  type EngineResult,
  type Finding,
  type InputReport,
  type ReadLimits,
} from '../engine/index.ts';
import type { Playbook } from '../engine/playbook/schema.ts';
import type { SeekableInput } from '../engine/ranges.ts';
import { type Selection, selectLines } from '../llm/select.ts';
import { SelectionTap } from '../llm/tap.ts';
import type { Suggestion } from '../llm/triage.ts';
import type { EngineOffload } from './engine-job.ts';
import { diagnoseHeapDump, type HeapDumpRead, looksLikeHeapDump, peekInput } from './heap-dump.ts';
import { namedLikeHeapDump } from './heap-dump-file.ts';
import { engineNotes } from './notes.ts';
import { reportingReads } from './reads.ts';
import { type SuggestionAssist, suggestWhenUnsure } from './suggest.ts';

/**
 * What to diagnose: pasted text, or a byte stream (a file, stdin, a download; plain or gzip). A
 * stream's `onRead` is told the bytes of each chunk once the engine has read it (the Slack app's
 * in-flight cap counts what is still held).
 */
export type DiagnosisInput =
  | { source: string; text: string }
  | {
      source: string;
      chunks: AsyncIterable<Uint8Array>;
      onRead?: (bytes: number) => void;
      /** The same bytes, readable from any offset (a file): the block threads may read its ranges from it. */
      seekable?: SeekableInput;
    };

export type { SeekableInput } from '../engine/ranges.ts';

/** One diagnosis request, as a surface parsed it from its own input. */
export interface DiagnosisRequest {
  input: DiagnosisInput;
  /** The system the user named (`--engine glue`, `/memdoctor glue ...`). */
  engine?: EngineHint;
  limits?: ReadLimits;
  /** Who asks, for the model's hourly limit: `cli`, `console`, a Slack team id. */
  workspace: string;
  /** Called with the engine's result before any model is asked, so a terminal can show it at once. */
  onReport?: (result: DiagnosisResult) => void;
  /** Told how far the first read of a heap dump has gone (a terminal's progress bar); not for logs. */
  onHeapDumpRead?: (read: HeapDumpRead) => void;
}

export type { HeapDumpRead } from './heap-dump.ts';

/** What every diagnosis uses: the playbooks, and the model's help when one is configured. */
export interface DiagnosisContext {
  playbooks: readonly Playbook[];
  assist?: SuggestionAssist;
  /** The engine's extractors; the registry when unset (tests inject failing ones). */
  extractors?: readonly Extractor[];
  /** Runs the engine off this thread (the Slack app's worker pool); in-line when unset. */
  offload?: EngineOffload;
  /** Threads that read the blocks of a large input (the CLI's, see setup/block-pool.ts). */
  blocks?: BlockOptions;
  /** MEMDOCTOR_HEAP_DUMP_BUDGET: a heap dump whose analysis would need more is refused (heap-budget.ts). */
  heapDumpBudget?: number;
}

/** A diagnosis, ready to render: the contract's report, what a walkthrough starts from, the model's word. */
export interface DiagnosisResult {
  /** The `diagnose --json` contract: deterministic, never touched by a model. */
  report: InputReport;
  /** Every fact found, without its line (see walkthroughStart). */
  findings: Finding[];
  /** A model's suggestion, when one is configured and the engine recognised nothing or little. */
  suggestion?: Suggestion;
  /** What a person may want to know besides the result (a model that could not help, a failed parser). */
  notes: string[];
  /** When the input was a Java heap dump: what holds its memory (names, counts and sizes only). */
  heap?: HeapReport;
  /** What to draw of a recognised dump (see src/usecases/chart-images.ts); never part of the report. */
  chart?: ChartData;
}

/** Runs the engine; with a model configured, the lines it may see are selected as the engine reads. */
async function runEngine(
  request: DiagnosisRequest,
  context: DiagnosisContext,
): Promise<{ engine: EngineResult; selection: () => Promise<Selection | undefined> }> {
  const { input } = request;
  const options = {
    ...request.limits,
    ...(request.engine ? { engine: request.engine } : {}),
    ...(context.extractors ? { extractors: context.extractors } : {}),
    // The threads have the shipped extractors only.
    ...(context.blocks && !context.extractors ? { blocks: context.blocks } : {}),
  };
  if (context.offload && !context.extractors) return offloaded(request, context, context.offload);
  if ('text' in input) {
    const engine = await diagnoseText(input.source, input.text, context.playbooks, options);
    return { engine, selection: async () => selectLines(input.text) };
  }
  const tap = context.assist ? new SelectionTap(input.source) : undefined;
  const chunks = reportingReads(tap ? tap.wrap(input.chunks) : input.chunks, input.onRead);
  // Ranges read by other threads pass neither the model's selection nor onRead: only without them.
  const seekable = tap || input.onRead ? undefined : input.seekable;
  const blocks = options.blocks && seekable ? { blocks: { ...options.blocks, seekable } } : {};
  const engine = await diagnoseStream(input.source, chunks, context.playbooks, { ...options, ...blocks });
  return { engine, selection: async () => tap?.selection() };
}

/**
 * The engine in another thread: text goes as it is; a stream is read here (a download is I/O,
 * which the event loop does well) and its chunks go to the thread as the thread reads them.
 */
async function offloaded(
  request: DiagnosisRequest,
  context: DiagnosisContext,
  offload: EngineOffload,
): Promise<{ engine: EngineResult; selection: () => Promise<Selection | undefined> }> {
  const { input } = request;
  const job = {
    source: input.source,
    ...(request.engine ? { engine: request.engine } : {}),
    ...(request.limits?.maxBytes !== undefined ? { maxBytes: request.limits.maxBytes } : {}),
  };
  if ('text' in input) {
    const engine = await offload({ ...job, text: input.text });
    return { engine, selection: async () => selectLines(input.text) };
  }
  const tap = context.assist ? new SelectionTap(input.source) : undefined;
  const chunks = tap ? tap.wrap(input.chunks) : input.chunks;
  const engine = await offload({ ...job, chunks, ...(input.onRead ? { onRead: input.onRead } : {}) });
  return { engine, selection: async () => tap?.selection() };
}

/**
 * A stream whose first bytes are a heap dump's goes to the heap analysis; anything else comes back as
 * the request to run, its first chunk put back in front.
 */
async function routeHeapDump(
  request: DiagnosisRequest,
  context: DiagnosisContext,
): Promise<DiagnosisRequest | DiagnosisResult> {
  const { input } = request;
  // With an engine pool (the Slack app) nothing of an input is read before its thread is free: the
  // in-flight cap counts those bytes, and reads started early held the cap that the inputs with a
  // thread were waiting for. The heap analysis does not run in the pool yet, and must not run on the
  // event loop that answers Slack, so there a dump still gets the engine's "not a text log" answer.
  if ('text' in input || context.offload) return request;
  const { head, all } = await peekInput(input.chunks);
  if (!looksLikeHeapDump(head)) return { ...request, input: { ...input, chunks: all } };
  // No model sees any part of a heap dump: passwords, tokens and personal data live in them.
  const result = await diagnoseHeapDump(
    {
      source: input.source,
      head,
      all: reportingReads(all, input.onRead),
      ...(input.seekable ? { seekable: input.seekable } : {}),
    },
    context.playbooks,
    {
      ...(context.heapDumpBudget !== undefined ? { budgetBytes: context.heapDumpBudget } : {}),
      ...(request.onHeapDumpRead ? { onProgress: request.onHeapDumpRead } : {}),
    },
  );
  request.onReport?.(result);
  return result;
}

/** A text read as a log although its name says heap dump: said, so nobody thinks the dump was read. */
function misnamedDumpNote(source: string): string[] {
  if (!namedLikeHeapDump(source)) return [];
  return [
    `${source} is named like a heap dump but is not one (an HPROF file starts with "JAVA PROFILE 1.0"), so it was read as a text log`,
  ];
}

/**
 * The one diagnosis every surface runs (CLI, console, Slack): the engine over the input, then, when
 * a model is configured and the engine was unsure, the model's suggestion beside the report. Throws
 * only for input that cannot be read (InputUnreadableError, InputTooLargeError...); everything the
 * model or a failing engine stage does becomes a note.
 */
export async function diagnose(given: DiagnosisRequest, context: DiagnosisContext): Promise<DiagnosisResult> {
  const routed = await routeHeapDump(given, context);
  if ('report' in routed) return routed;
  const request = routed;
  const { engine, selection } = await runEngine(request, context);
  const result: DiagnosisResult = {
    report: engine.report,
    findings: engine.findings,
    notes: [...engineNotes(engine), ...misnamedDumpNote(request.input.source)],
    ...(engine.chart ? { chart: engine.chart } : {}),
  };
  request.onReport?.(result);
  const model = await suggestWhenUnsure(context, {
    workspace: request.workspace,
    diagnoses: result.report.diagnoses,
    selection,
    ...(request.engine ? { hint: request.engine } : {}),
  });
  return {
    ...result,
    ...(model.suggestion ? { suggestion: model.suggestion } : {}),
    notes: [...result.notes, ...(model.note ? [model.note] : [])],
  };
}
