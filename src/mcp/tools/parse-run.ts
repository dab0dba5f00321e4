import { openFile } from '../../file-input.ts';
import { parsedLines } from '../../usecases/answer-text.ts';
import { parseDump } from '../../usecases/parse-dump.ts';
import { answer } from '../results.ts';

/** One chunk of pasted text, as a stream the parser reads. */
async function* textChunks(text: string): AsyncGenerator<Uint8Array> {
  yield Buffer.from(text, 'utf8');
}

/** `parse --json`'s answer for the pasted text or the file (read only, plain or .gz). */
export async function runParse(
  parser: string,
  input: { text?: string | undefined; path?: string | undefined },
) {
  const { text, path } = input;
  const out = await parseDump(parser, {
    source: path ?? 'paste',
    open: () => (path !== undefined ? openFile(path) : textChunks(text ?? '')),
  });
  // What to draw is not part of `parse --json`'s answer, which this one matches.
  const { chart: _chart, ...shown } = out;
  return answer(parsedLines(out).join('\n'), shown);
}
