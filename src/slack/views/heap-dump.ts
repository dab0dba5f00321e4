import type { DiagnosisResult } from '../../diagnosis/index.ts';
import { capBlocks, fitLines, type MessageView, mrkdwn, section } from './blocks.ts';
import { LIMITS } from './limits.ts';

/**
 * A heap dump's answer with what memdoctor read in the dump that the answer does not already cite
 * (where a cut dump ends, the holders of a peak...): a dump with no known problem still says what
 * holds its memory. The first note names the dump; the others are its evidence lines.
 */
export function withHeapReading(view: MessageView, result: DiagnosisResult): MessageView {
  if (!result.heap) return view;
  const cited = new Set(result.report.diagnoses.flatMap((d) => d.evidence.map((e) => e.text)));
  const uncited = result.notes.slice(1).filter((line) => !cited.has(line));
  if (uncited.length === 0) return view;
  const text = `*Read in the heap dump:*\n${fitLines(
    uncited.map((line) => `• ${mrkdwn(line)}`),
    LIMITS.sectionText - 40,
  )}`;
  return { ...view, blocks: capBlocks([...view.blocks, section(text)]) };
}
