import { parseArgs } from 'node:util';
import { UsageError } from '../../errors.ts';
import { parsedLines } from '../../usecases/answer-text.ts';
import { listParsers, parseDump } from '../../usecases/parse-dump.ts';
import { CHART_OPTION, shapeText, writeCharts } from '../charts.ts';
import type { Command } from '../command.ts';
import { openInput } from '../input.ts';
import { parseHeapDumpCommand } from './parse-heap-dump.ts';

/** The heap dump's entry in `parse list`: it is read by the heap analysis, not a line parser. */
const HEAP_DUMP_ENTRY = {
  id: 'heap-dump',
  title: 'Java heap dump (HPROF, .hprof or .hprof.gz)',
  howToGet: 'jcmd <pid> GC.heap_dump /tmp/heap.hprof, or -XX:+HeapDumpOnOutOfMemoryError',
};

function list(): string {
  return `${[...listParsers(), HEAP_DUMP_ENTRY]
    .map((p) => `${p.id.padEnd(24)} ${p.title} (from ${p.howToGet})`)
    .join('\n')}\n`;
}

/** `memdoctor parse <parser|auto> FILE|-`: what a dump (pmap, NMT, GC log...) shows, with its figures. */
export const parseCommand: Command = {
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args: [...args],
      allowPositionals: true,
      options: { json: { type: 'boolean', default: false }, ...CHART_OPTION },
    });
    const [parser, file] = positionals;
    if (parser === 'list') {
      io.stdout.write(list());
      return 0;
    }
    if (!parser || !file)
      throw new UsageError('parse needs a parser id (or auto) and a file (or - for stdin).');
    if (parser === HEAP_DUMP_ENTRY.id) return parseHeapDumpCommand(file, values.json === true, io);
    const out = await parseDump(parser, { source: file, open: () => openInput(file, io.stdin) });
    const { chart, ...shown } = out;
    io.stdout.write(
      values.json
        ? `${JSON.stringify(shown)}\n`
        : `${parsedLines(out, 32).join('\n')}\n` + shapeText(chart, io),
    );
    if (values.chart !== undefined) await writeCharts(values.chart, [chart], io, values.json);
    return 0;
  },
};
