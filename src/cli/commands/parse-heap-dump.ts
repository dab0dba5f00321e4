import { loadConfigLeniently } from '../../config.ts';
import { formatSize } from '../../usecases/parse-dump.ts';
import { type ParsedHeapDump, parseHeapDump } from '../../usecases/parse-heap-dump.ts';
import type { CliIo } from '../command.ts';
import { openInput, seekableInput } from '../input.ts';
import { progressLine } from '../render/progress.ts';

/** Classes shown by shallow size in the text output; --json has them all. */
const HISTOGRAM_ROWS = 10;

function render(out: ParsedHeapDump): string {
  const { dump } = out.heap;
  const state = dump.complete ? 'complete' : `cut short at byte ${dump.bytesRead}`;
  const lines = [`heap-dump: ${out.source}: HPROF ${dump.version}, ${dump.idSize}-byte ids, ${state}`, ''];
  for (const [i, line] of out.lines.entries()) lines.push(`  ${String(i + 1).padStart(2)}. ${line}`);
  lines.push('', 'biggest classes by shallow size:');
  for (const row of out.heap.histogram.slice(0, HISTOGRAM_ROWS))
    lines.push(
      `  ${row.className.padEnd(48)} ${String(row.instances).padStart(10)} instances ${formatSize(row.shallowBytes).padStart(10)}`,
    );
  return `${lines.join('\n')}\n`;
}

/**
 * `memdoctor parse heap-dump FILE`: what `diagnose` reads in a heap dump (the same lines and facts),
 * within MEMDOCTOR_HEAP_DUMP_BUDGET, with the biggest classes; `--json` gives the whole report.
 */
export async function parseHeapDumpCommand(file: string, json: boolean, io: CliIo): Promise<number> {
  const { config } = loadConfigLeniently();
  const seekable = seekableInput(file);
  const input = { source: file, chunks: openInput(file, io.stdin), ...(seekable ? { seekable } : {}) };
  const progress = progressLine(file === '-' ? 'stdin' : file, io.stderr);
  const out = await parseHeapDump(input, {
    budgetBytes: config.MEMDOCTOR_HEAP_DUMP_BUDGET,
    ...(progress ? { onProgress: progress.onRead } : {}),
  }).finally(() => progress?.end());
  io.stdout.write(json ? `${JSON.stringify(out)}\n` : render(out));
  return 0;
}
