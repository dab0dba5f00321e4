import type { StageFailure } from '../engine/index.ts';

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
