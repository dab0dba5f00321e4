import { type EngineResult, MAX_LINE_CHARS, type StageFailure } from '../engine/index.ts';

function lines(failure: StageFailure): string {
  const more = failure.count > 1 ? ` and ${failure.count - 1} more line${failure.count > 2 ? 's' : ''}` : '';
  return failure.line === undefined ? '' : ` on line ${failure.line}${more}`;
}

/** A failed engine stage as a sentence: what failed, where, and that the diagnosis went on. */
export function failureNote(failure: StageFailure): string {
  if (failure.stage === 'parser')
    return `the dump in this input could not be parsed (${failure.message}); the extractors still read every line`;
  return `extractor ${failure.id ?? '?'} failed${lines(failure)} (${failure.message}); the rest of the input was diagnosed without it there`;
}

export function failureNotes(failures: readonly StageFailure[]): string[] {
  return failures.map(failureNote);
}

/**
 * Lines longer than the engine reads, as a sentence: which, and what was read of them (their start,
 * or the part around a known message past it), so a "no known problem" is not taken as final.
 */
export function cutNote(cut: NonNullable<EngineResult['cut']>, limit = MAX_LINE_CHARS): string {
  const more = cut.count > 1 ? ` and ${cut.count - 1} more line${cut.count > 2 ? 's' : ''}` : '';
  return `line ${cut.first}${more} had more than ${limit} characters: memdoctor read ${limit} of each (the start, or the part around the first known message past it); split such lines to have all of them read`;
}

/** The notes the engine's result calls for: failed stages, then cut lines. */
export function engineNotes({ failures, cut }: Pick<EngineResult, 'failures' | 'cut'>): string[] {
  return [...failureNotes(failures), ...(cut ? [cutNote(cut)] : [])];
}
