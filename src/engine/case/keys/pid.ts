import { pidInSamplesFileName } from './samples.ts';
import type { JoinKey } from './types.ts';

/*
 * Process ids, where the tools print them:
 * - `jcmd <pid> VM.native_memory summary`: line 1 is `<pid>:` (jcmd prints the pid it attached to)
 * - `pmap [-x] <pid>`: line 1 is `<pid>:   <command line>` (procps pmap.c, printf("%u:   %s\n"))
 * - JDK unified logging with the `pid` decorator: `[2026-12-03T12:42:38.464+0000][23908][info][gc] ...`
 *   (-Xlog decorators, JEP 158); the `%p` in a file name (`gc-%p.log`) is the pid too
 * - YARN ContainersMonitorImpl: `Container [pid=8296,containerID=container_...] is running beyond ...`,
 *   the line that says which process a container is
 * - HotSpot's heap dump on OutOfMemoryError: `Dumping heap to java_pid<pid>.hprof ...` (its default
 *   name, heapDumper.cpp: "java_pid%d.hprof"); the dump itself joins by that file name
 * - the kernel's OOM killer: `Memory cgroup out of memory: Killed process 11304 (python3) total-vm:...`
 *   and `oom-kill:constraint=...,task=python3,pid=11304,uid=0` (mm/oom_kill.c, as dmesg prints them)
 * - `top -b -p <pid>`: each process row starts with its PID, then USER, PR, NI, VIRT, RES, SHR, S
 *   (procps top's default fields); the row's shape, not the header, says it is one
 * - a tracemalloc statistics file named by the pid of the process that wrote it (`tracemalloc-<pid>.txt`,
 *   as a program names it with os.getpid(): tracemalloc's output itself names no process)
 * A pid is only unique on one host at one time; inputs of one incident are that.
 */
const HEADER = /^(\d{1,9}):(?:\s|$)/;
const UNIFIED_DECORATOR = /^\[[^\]]*\]\[(\d{1,9})\]\[/;
const CONTAINER_PID = /\[pid=(\d{1,9}),containerID=/g;
const FILE_NAME_PID = /(?:^|[-_.])(\d{2,9})\.log$/;
const HPROF_PID = /\bjava_pid(\d{1,9})\.hprof\b/;
const OOM_KILLED = /\bKilled process (\d{1,9}) \(/;
const OOM_KILL_TASK = /^(?:\[[^\]]*\]\s*)?oom-kill:.*,pid=(\d{1,9}),/;
/** PID USER PR NI VIRT RES SHR S: PR is a number or "rt"; sizes are KiB or scaled ("1.2g"). */
const TOP_ROW =
  /^\s*(\d{1,9})\s+\S+\s+(?:-?\d+|rt)\s+-?\d+(?:\s+\d+(?:[.,]\d+)?[kmgtpe]?){3}\s+[RSDZTtIX]\s+\d/;
/** The pid at a tracemalloc file's end (`tracemalloc-<pid>.txt`), read once the name says tracemalloc. */
const TRACEMALLOC_FILE_PID = /[-_.](\d{2,9})\.(?:txt|log)$/i;

function pid(value: string): JoinKey {
  return { family: 'pid', value };
}

/** The process ids a line names (a header counts only on line 1, where the tools print it). */
export function pidKeys(line: string, lineNo: number): JoinKey[] {
  const keys: JoinKey[] = [];
  const header = lineNo === 1 ? HEADER.exec(line) : null;
  if (header?.[1]) keys.push(pid(header[1]));
  const decorated = UNIFIED_DECORATOR.exec(line);
  if (decorated?.[1]) keys.push(pid(decorated[1]));
  for (const [, id = ''] of line.matchAll(CONTAINER_PID)) keys.push(pid(id));
  const dumped = line.includes('java_pid') ? HPROF_PID.exec(line) : null;
  if (dumped?.[1]) keys.push(pid(dumped[1]));
  const killed = line.includes('Killed process') ? OOM_KILLED.exec(line) : null;
  if (killed?.[1]) keys.push(pid(killed[1]));
  const task = line.includes('oom-kill:') ? OOM_KILL_TASK.exec(line) : null;
  if (task?.[1]) keys.push(pid(task[1]));
  const row = TOP_ROW.exec(line);
  if (row?.[1]) keys.push(pid(row[1]));
  return keys;
}

/**
 * The pid a file name carries, if it carries one: a GC log's (`-Xlog:gc:file=gc-%p.log`), or a
 * heap dump's under HotSpot's default name (`java_pid<pid>.hprof`, gzipped or not), a tracemalloc
 * statistics file named by its process (`tracemalloc-<pid>.txt`), or a sampling loop's file named
 * for the process it samples (`ps-<pid>.txt`, samples.ts; top names its pid in its rows).
 */
export function pidInFileName(name: string): JoinKey | undefined {
  const base = name.split(/[\\/]/).pop() ?? name;
  const dump = /^java_pid(\d{1,9})\.hprof(?:\.gz)?$/.exec(base);
  if (dump?.[1]) return pid(dump[1]);
  const traced = /tracemalloc/i.test(base) ? TRACEMALLOC_FILE_PID.exec(base) : null;
  if (traced?.[1]) return pid(traced[1]);
  const sampled = pidInSamplesFileName(base);
  if (sampled) return sampled;
  if (!/gc/i.test(base)) return undefined;
  const match = FILE_NAME_PID.exec(base);
  return match?.[1] ? pid(match[1]) : undefined;
}
