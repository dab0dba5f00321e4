import type { Fact } from '../facts.ts';
import { formatSize, parseSize } from '../units.ts';
import { fact, output, parseFailed } from './common.ts';
import type { Parser, ParserRun } from './types.ts';

const BEYOND =
  /Container \[pid=(\d+),\s*containerID=([\w-]+)\] is running (?:[\d.]+\s?[KMGT]?B )?beyond (?:the ')?(physical|virtual)'? memory limits?\. Current usage: ([\d.]+ [KMGT]?B) of ([\d.]+ [KMGT]?B) physical memory used; ([\d.]+ [KMGT]?B) of ([\d.]+ [KMGT]?B) virtual memory used/i;
// Spark's YarnAllocator: "exceeding memory limits" before 3.0, "exceeding physical/virtual memory limits" since.
const KILLED_BY_YARN =
  /Container killed by YARN for exceeding (?:physical |virtual )?memory limits\.\s+([\d.]+ [KMGT]?B) of ([\d.]+ [KMGT]?B) (physical|virtual) memory used/;
const EXIT = /exit(?:Status| code|Code)[=:\s]+(-?\d+)/i;
/**
 * A diagnostic wrapped by a terminal, a mail or a blog spans up to this many lines ("... exited with
 * exitCode: 143 due to: Container" / "[pid=4733,...] is running beyond physical memory limits." /
 * "Current usage: ..."); it is read joined, as YARN wrote it.
 */
const MAX_WRAPPED_LINES = 3;
/** Whole or wrapped, a diagnostic ends with its figures: only such a line starts a look back. */
const FIGURES_END = /memory used/i;

/** The kill in the lines that end at `end`, joined one, two or three at a time; with where it starts. */
function wrappedKill(lines: readonly string[], end: number): { text: string; from: number } | undefined {
  if (!FIGURES_END.test(lines[end] ?? '')) return undefined;
  for (let n = 1; n <= MAX_WRAPPED_LINES && end - n + 1 >= 0; n++) {
    const from = end - n + 1;
    const text =
      n === 1
        ? (lines[end] ?? '')
        : lines
            .slice(from, end + 1)
            .map((l) => l.trim())
            .join(' ');
    if (BEYOND.test(text) || KILLED_BY_YARN.test(text)) return { text, from };
  }
  return undefined;
}
/**
 * Process-tree rows: "|- PID PPID PGRPID SESSID (name) utime stime VMEM_BYTES RSS_PAGES cmd". The command
 * starts on a non-space, so it never shares a run of spaces with the `\s+` before it (quadratic).
 */
const TREE = /^\s*\|-\s+(\d+)\s+\d+\s+\d+\s+\d+\s+\(([^)]+)\)\s+\d+\s+\d+\s+(\d+)\s+(\d+)\s+(\S.*)?$/;
const PAGE = 4096;

const size = (text?: string) => (text ? parseSize(text.replace(' ', '')) : undefined);

interface Kill {
  resource: 'physical' | 'virtual';
  used?: number;
  limit?: number;
  virtualUsed?: number;
  virtualLimit?: number;
  container: string;
  line: number;
  text: string;
}

/**
 * The figures the kill was decided by, first. ContainersMonitorImpl kills for virtual memory when the
 * process tree's vmem passes the physical limit x yarn.nodemanager.vmem-pmem-ratio: the message's
 * second pair ("2.8 GB of 2.1 GB virtual memory used") is the one over its limit, the physical pair only
 * context. Spark's "exceeding virtual memory limits" line already gives the virtual pair alone.
 */
function usage(k: Kill): string {
  const physical = `${formatSize(k.used ?? 0)} used of ${formatSize(k.limit ?? 0)}`;
  if (k.resource !== 'virtual' || k.virtualUsed === undefined) return physical;
  return `${formatSize(k.virtualUsed)} virtual used of ${formatSize(k.virtualLimit ?? 0)} (physical ${physical})`;
}

class YarnRun implements ParserRun {
  private kill?: Kill;
  private exitStatus?: number;
  private biggest?: { name: string; rss: number; cmd: string };
  private recent: string[] = [];

  push(line: string, lineNo: number): void {
    if (!this.kill) this.findKill(line, lineNo);
    // Usually one diagnostic inside a long log: only lines naming memory, exits or the tree are read.
    if (!/memory|exit|\|-/i.test(line)) return;
    const exit = EXIT.exec(line);
    if (exit && this.exitStatus === undefined) this.exitStatus = Number(exit[1]);
    const t = TREE.exec(line);
    if (t) {
      const rss = Number(t[4]) * PAGE;
      if (!this.biggest || rss > this.biggest.rss) this.biggest = { name: t[2] ?? '', rss, cmd: t[5] ?? '' };
    }
  }

  /** The diagnostic on this line, or on this line joined to the lines before it that it was wrapped from. */
  private findKill(line: string, lineNo: number): void {
    this.recent = [...this.recent, line].slice(-MAX_WRAPPED_LINES);
    const found = wrappedKill(this.recent, this.recent.length - 1);
    if (found) this.readKill(found.text, lineNo - (this.recent.length - 1 - found.from));
  }

  /** The kill in one whole diagnostic text, cited at the line it starts on. */
  private readKill(text: string, lineNo: number): void {
    const b = BEYOND.exec(text);
    if (b) {
      this.kill = {
        resource: (b[3] ?? '').toLowerCase() as 'physical' | 'virtual',
        used: size(b[4]),
        limit: size(b[5]),
        virtualUsed: size(b[6]),
        virtualLimit: size(b[7]),
        container: b[2] ?? '',
        line: lineNo,
        text,
      };
      return;
    }
    const k = KILLED_BY_YARN.exec(text);
    if (k)
      this.kill = {
        resource: k[3] as 'physical' | 'virtual',
        used: size(k[1]),
        limit: size(k[2]),
        container: '',
        line: lineNo,
        text,
      };
  }

  finish() {
    const k = this.kill;
    if (!k)
      throw parseFailed(
        'a YARN diagnostic like "Container [pid=...,containerID=...] is running beyond physical memory limits. Current usage: ..."',
      );
    const xmx = /-Xmx(\d+[kmgKMG]?)/.exec(this.biggest?.cmd ?? '')?.[1];
    const values = {
      resource: k.resource,
      containerId: k.container,
      usedBytes: k.used ?? 0,
      limitBytes: k.limit ?? 0,
      ...(k.virtualUsed !== undefined
        ? { virtualUsedBytes: k.virtualUsed, virtualLimitBytes: k.virtualLimit ?? 0 }
        : {}),
      ...(this.exitStatus !== undefined ? { exitStatus: this.exitStatus } : {}),
      ...(this.biggest
        ? { largestProcess: this.biggest.name, largestProcessRssBytes: this.biggest.rss }
        : {}),
      ...(xmx ? { largestProcessXmxBytes: parseSize(xmx, 'b') ?? 0 } : {}),
    };
    const facts: Fact[] = [
      fact('container.killed-memory', k.line, k.text, {
        resource: k.resource,
        manager: 'yarn',
        ...(k.used !== undefined ? { usedBytes: k.used } : {}),
        ...(k.limit !== undefined ? { limitBytes: k.limit } : {}),
      }),
    ];
    const verdict =
      k.resource === 'virtual'
        ? 'killed for virtual memory: raise yarn.nodemanager.vmem-pmem-ratio or disable the vmem check'
        : 'killed for physical memory: the process outgrew its container';
    const exit = this.exitStatus !== undefined ? `exit status ${this.exitStatus}` : 'exit status absent';
    const largest = this.biggest
      ? `; largest process ${this.biggest.name} with ${formatSize(this.biggest.rss)} resident`
      : '';
    const summary = `YARN killed ${k.container || 'the container'} for ${k.resource} memory: ${usage(k)}; ${exit}${largest}.`;
    return output('yarn-container', values, summary, facts, verdict, k.line);
  }
}

/** YARN container diagnostics: "is running beyond physical memory limits" with the process tree. */
export const yarnContainerParser: Parser = {
  id: 'yarn-container',
  title: 'YARN container diagnostics',
  howToGet: 'the container diagnostics from `yarn logs -applicationId <app>` or the ResourceManager UI',
  emptyAnswer:
    'the diagnostics are empty: YARN recorded no reason, so they name no container kill. The kill of an executor or task container is in its own diagnostics: paste them from `yarn logs -applicationId <app>`, or the "Container ... is running beyond ... memory limits" line of the driver log.',
  detect: (head) => head.some((_, i) => wrappedKill(head, i) !== undefined),
  create: () => new YarnRun(),
};
