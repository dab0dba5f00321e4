// @ts-nocheck
import type { Fact } from '../facts.ts';
import { formatSize } from '../units.ts';
import { fact, output, parseFailed, percent } from './common.ts';
import type { Parser, ParserRun } from './types.ts';

const ROW = /^\s*(\d+):\s+(\d+)\s+(\d+)\s+(\S+)(?:\s+\((.+)\))?\s*$/;
const TOTAL = /^\s*Total\s+(\d+)\s+(\d+)\s*$/;
const HEADER = /num\s+#instances\s+#bytes\s+class name/;
/** A class holding more than this share of the histogram dominates the heap. */
const DOMINANT = 0.4;

const ARRAY: Readonly<Record<string, string>> = {
  B: 'byte',
  C: 'char',
  I: 'int',
  J: 'long',
  S: 'short',
  Z: 'boolean',
  D: 'double',
  F: 'float',
};

/** JVM descriptors as Java spells them: `[B` -> `byte[]`, `[Ljava.lang.Object;` -> `java.lang.Object[]`. */
export function readableClass(name: string): string {
  const dims = /^\[+/.exec(name)?.[0].length ?? 0;
  if (dims === 0) return name;
  const rest = name.slice(dims);
  const base = rest.startsWith('L') && rest.endsWith(';') ? rest.slice(1, -1) : (ARRAY[rest] ?? rest);
  return `${base}${'[]'.repeat(dims)}`;
}

interface Row {
  rank: number;
  instances: number;
  bytes: number;
  name: string;
  line: number;
  text: string;
}

class HistogramRun implements ParserRun {
  private readonly top: Row[] = [];
  private rows = 0;
  private sumBytes = 0;
  private sumInstances = 0;
  private total?: { instances: number; bytes: number };
  private mostInstances?: Row;

  push(line: string, lineNo: number): void {
    const r = ROW.exec(line);
    if (r) {
      const row: Row = {
        rank: Number(r[1]),
        instances: Number(r[2]),
        bytes: Number(r[3]),
        name: readableClass(r[4] ?? ''),
        line: lineNo,
        text: line,
      };
      this.rows++;
      this.sumBytes += row.bytes;
      this.sumInstances += row.instances;
      // jmap sorts by bytes, so the first rows are the top ones; keep a few, never the whole list.
      if (this.top.length < 10) this.top.push(row);
      if (!this.mostInstances || row.instances > this.mostInstances.instances) this.mostInstances = row;
      return;
    }
    const t = TOTAL.exec(line);
    if (t) this.total = { instances: Number(t[1]), bytes: Number(t[2]) };
  }

  finish() {
    const first = this.top[0];
    if (!first)
      throw parseFailed(
        'histogram rows like "   1:   1134597   5834904800  [B" (run jmap -histo:live <pid>).',
      );
    const totalBytes = this.total?.bytes ?? this.sumBytes;
    const share = totalBytes > 0 ? first.bytes / totalBytes : 0;
    const values = {
      classes: this.rows,
      totalBytes,
      totalInstances: this.total?.instances ?? this.sumInstances,
      complete: this.total !== undefined,
      topClass: first.name,
      topClassBytes: first.bytes,
      topClassInstances: first.instances,
      topClassShare: Number(share.toFixed(4)),
      mostInstancesClass: this.mostInstances?.name ?? first.name,
      mostInstances: this.mostInstances?.instances ?? first.instances,
    };
    const facts: Fact[] = this.top
      .slice(0, 3)
      .map((r) =>
        fact('heap.top-class', r.line, r.text, { className: r.name, bytes: r.bytes, instances: r.instances }),
      );
    const verdict =
      share >= DOMINANT
        ? `one class dominates: ${first.name} holds ${percent(share)}`
        : 'no single class dominates';
    const list = this.top
      .slice(0, 3)
      .map((r) => `${r.name} ${formatSize(r.bytes)}`)
      .join(', ');
    const summary = `${formatSize(totalBytes)} in ${values.totalInstances} objects of ${this.rows} classes${this.total ? '' : ' (no Total line: list cut short)'}; largest: ${list}.`;
    return output('class-histogram', values, summary, facts, verdict, first.line);
  }
}

/** `jmap -histo` and `jcmd <pid> GC.class_histogram`: the classes holding the most heap. */
export const classHistogramParser: Parser = {
  id: 'class-histogram',
  title: 'jmap -histo / GC.class_histogram',
  howToGet: '`jmap -histo:live <pid>` or `jcmd <pid> GC.class_histogram`',
  detect: (head) => head.some((l) => HEADER.test(l)) || head.filter((l) => ROW.test(l)).length >= 5,
  create: () => new HistogramRun(),
};
