import type { ChartData } from '../engine/charts/types.ts';
import { stepContext } from './known.ts';
import { stepById } from './prefill.ts';
import type { PathEntry, WalkthroughRecord } from './record.ts';
import { chartOfKept } from './steps/chart-schema.ts';
import { fillKnown } from './steps/step-rules.ts';

/** A chart a walkthrough's answers draw, and the file name the transcript refers to it by. */
export interface WalkthroughChart {
  /** The step whose answer it draws. */
  step: string;
  /** `<step>-narrowing.png`, `<step>-gc-heap.png`: relative, beside the transcript (or in the same thread). */
  file: string;
  data: ChartData;
  /**
   * Posted as soon as its step is answered (a paste's chart); else with the transcript at the end
   * (a bisection's narrowing, which its last round completes).
   */
  atAnswer: boolean;
}

/** The name a drawn chart goes by (drawChart's `id`): its kind, or the id of kinds drawn several ways. */
function chartName(data: ChartData): string {
  return 'id' in data ? data.id : data.kind;
}

/** How many candidates a bisection started from: its fixed list, or the lines given at its step. */
function candidateCount(record: WalkthroughRecord, stepId: string): number {
  const step = stepById(record, stepId);
  if (step.kind !== 'bisection') return 0;
  return Array.isArray(step.candidates)
    ? step.candidates.length
    : stepContext(record).linesOf(step.candidates.from_step).length;
}

function narrowingChart(record: WalkthroughRecord, entry: PathEntry): WalkthroughChart[] {
  const answer = entry.answer;
  if (answer.kind !== 'bisection' || answer.rounds.length === 0) return [];
  const step = stepById(record, entry.step);
  const symptom = step.kind === 'bisection' ? fillKnown(step.symptom, stepContext(record).values) : undefined;
  const data: ChartData = {
    kind: 'narrowing',
    id: `${entry.step}-narrowing`,
    title: `Bisection: ${step.title}`,
    total: candidateCount(record, entry.step),
    rounds: answer.rounds,
    found: answer.found,
    ...(symptom ? { symptom } : {}),
  };
  return [{ step: entry.step, file: `${entry.step}-narrowing.png`, data, atAnswer: false }];
}

/** The chart of a pasted output, from the figures its answer kept (none in records from before them). */
function pasteChart(entry: PathEntry): WalkthroughChart[] {
  const answer = entry.answer;
  if (answer.kind !== 'paste' || !answer.chart) return [];
  const data = chartOfKept(answer.chart);
  return [{ step: entry.step, file: `${entry.step}-${chartName(data)}.png`, data, atAnswer: true }];
}

/**
 * The charts of a walkthrough's answers, derived from its record alone so the transcript and the
 * surfaces that post or write the files name the same ones: each pasted output's picture (a GC log,
 * memory samples, NMT, pmap) and each bisection's narrowing, round by round. At most one per step.
 */
export function walkthroughCharts(record: WalkthroughRecord): WalkthroughChart[] {
  const charts = record.path.flatMap((entry) => [...pasteChart(entry), ...narrowingChart(record, entry)]);
  // A step the path went through twice is drawn once, from its latest answer: the file has one name.
  return charts.filter((c, i) => !charts.slice(i + 1).some((later) => later.step === c.step));
}

/** The charts of the steps answered since the path was `from` entries long: what an answer just added. */
export function chartsAnsweredSince(record: WalkthroughRecord, from: number): WalkthroughChart[] {
  const added = new Set(record.path.slice(from).map((e) => e.step));
  return walkthroughCharts(record).filter((c) => c.atAnswer && added.has(c.step));
}
