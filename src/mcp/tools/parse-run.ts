import { openFile } from '../../file-input.ts';
import { type FactValue, formatSize, type ParsedOutput, parseDump } from '../../usecases/parse-dump.ts';
import { answer } from '../results.ts';

function show(key: string, value: FactValue): string {
  if (typeof value === 'number' && /Bytes$/.test(key)) return `${formatSize(value)} (${value})`;
  if (typeof value === 'number' && /Share$/.test(key)) return `${(value * 100).toFixed(1)}%`;
  return String(value);
}

function render(out: ParsedOutput): string {
  const lines = [`${out.format}: ${out.summary}`];
  if (out.verdict) lines.push(`verdict: ${out.verdict}`);
  for (const [key, value] of Object.entries(out.values)) lines.push(`  ${key}: ${show(key, value)}`);
  return lines.join('\n');
}

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
  return answer(render(out), shown);
}
