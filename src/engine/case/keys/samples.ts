import type { JoinKey, KeyMemo } from './types.ts';

/*
 * Process ids in memory samples, where the sampling tools print them (top's rows are pid.ts's):
 * - `ps -o pid,etimes,rss,cmd -p <pid>`, `ps u -p <pid>`, `ps aux`: a header line naming its columns
 *   (procps ps prints the `pid` specifier's header as "PID"), then a row per process. The pid is the
 *   row's word under PID, read only under such a header and only when it is a number, so a `ps -o
 *   rss=` loop (no header: "15:51:33 147252") names no process.
 * - `/proc/<pid>/status` (proc(5)): its `Pid:\t<pid>` line; `PPid:` and `TracerPid:` are other processes.
 * - a sampling loop's file named for the process it samples, as the loop is written with the pid in
 *   hand (`... ps -o rss= -p $PID >> ps-$PID.txt`): the sampler's name, then the pid, and nothing else.
 * Captured: test/fixtures/case/jvm-native-leak (SOURCES.md), from scripts/capture/case/native-leak-in-cgroup.sh.
 */
const STATUS_PID = /^Pid:\t(\d{1,9})\s*$/;
/** A column header ps prints: upper case, `%CPU`, `TIME+`; a table's header has a PID column. */
const HEADER_WORD = /^[A-Z%][A-Z%+_-]{0,15}$/;
/** `ps-16253.txt`, `rss_16253.log`, `status-16253.txt`: a sampler's name and a pid. */
const SAMPLES_FILE = /^(?:ps|rss|vmrss|status|mem|memory)[-_.](\d{2,9})\.(?:txt|log)$/i;
const PID_COLUMN = 'samples.ps-pid-column';
const COLUMNS = 'samples.ps-columns';

function pid(value: string): JoinKey {
  return { family: 'pid', value };
}

/** The PID column of a ps header, or -1 when the line is not one. */
function pidColumn(words: readonly string[]): number {
  if (words.length < 2 || !words.every((w) => HEADER_WORD.test(w))) return -1;
  return words.indexOf('PID');
}

/** The pid a samples file's name carries (the base name, see SAMPLES_FILE), if it carries one. */
export function pidInSamplesFileName(base: string): JoinKey | undefined {
  const named = SAMPLES_FILE.exec(base);
  return named?.[1] ? pid(named[1]) : undefined;
}

/** The pid a line of memory samples names: a ps row under its header, or a status file's `Pid:` line. */
export function sampleKeys(line: string, _lineNo: number, memo: KeyMemo): JoinKey[] {
  const status = line.startsWith('Pid:') ? STATUS_PID.exec(line) : null;
  if (status?.[1]) return [pid(status[1])];
  if (!line.trim()) {
    // A blank line ends the table: what follows is not its rows.
    memo.delete(PID_COLUMN);
    return [];
  }
  const words = line.trim().split(/\s+/);
  const header = pidColumn(words);
  if (header >= 0) {
    memo.set(PID_COLUMN, header);
    memo.set(COLUMNS, words.length);
    return [];
  }
  const column = memo.get(PID_COLUMN);
  // COMMAND may hold spaces, so a row has at least the header's words, never fewer.
  if (column === undefined || words.length < (memo.get(COLUMNS) ?? 0)) return [];
  const value = words[column] ?? '';
  return /^\d{1,9}$/.test(value) ? [pid(value)] : [];
}
