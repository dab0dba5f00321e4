import { z } from 'zod';
import {
  type CaseReport,
  type CaseRequest,
  checkCaseHeapDumps,
  type DiagnosisContext,
  diagnoseCase,
} from '../../diagnosis/index.ts';
import { UsageError } from '../../errors.ts';
import { caseLines, type EngineHintText } from '../../usecases/answer-text.ts';
import type { CliIo } from '../command.ts';
import { openInput, seekableInput } from '../input.ts';

const LIMITS = z.object({
  maxInputs: z.coerce.number().int().min(1, '--max-inputs must be at least 1').optional(),
  maxBytes: z.coerce.number().int().min(1, '--max-bytes must be at least 1 (a byte count)').optional(),
});

/** `--max-inputs N --max-bytes B`, checked; a bad value is a usage error that names the flag. */
export function caseLimits(values: { 'max-inputs'?: string; 'max-bytes'?: string }) {
  const parsed = LIMITS.safeParse({ maxInputs: values['max-inputs'], maxBytes: values['max-bytes'] });
  if (!parsed.success) throw new UsageError(z.prettifyError(parsed.error));
  return Object.fromEntries(Object.entries(parsed.data).filter(([, v]) => v !== undefined));
}

/**
 * A case's answer as text: each group, what joined it, its diagnoses citing `input:line`, the notes;
 * `hint` names the system the way the surface takes it (`--engine`, or the console's own word).
 */
export function renderCaseText(report: CaseReport, hint?: EngineHintText): string {
  return `${caseLines(report, hint).join('\n')}\n`;
}

/** Runs several files as one case and prints its answer; the exit code as for single inputs. */
export async function runTogether(
  request: { files: readonly string[]; json: boolean; engine?: CaseRequest['engine']; limits: object },
  context: DiagnosisContext,
  io: CliIo,
): Promise<{ recognised: boolean }> {
  // Every dump of the case within the budget before any input is read.
  if (context.heapDumpBudget !== undefined)
    await checkCaseHeapDumps(
      request.files.map((file) => {
        const seekable = seekableInput(file);
        return seekable ? { source: file, seekable } : { source: file };
      }),
      context.heapDumpBudget,
    );
  const inputs = request.files.map((file) => ({ source: file, chunks: openInput(file, io.stdin) }));
  const report = await diagnoseCase(
    { inputs, limits: request.limits, ...(request.engine ? { engine: request.engine } : {}) },
    context,
  );
  io.stdout.write(request.json ? `${JSON.stringify(report)}\n` : renderCaseText(report));
  return { recognised: report.groups.some((g) => g.diagnoses.length > 0) };
}
