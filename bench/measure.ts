import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

/** What one child process cost. */
export interface Run {
  seconds: number;
  /** Peak resident set size in bytes; undefined when it could not be measured. */
  peakRss?: number;
  /** User + system CPU seconds (GNU time only): unlike wall time, barely moved by other load. */
  cpuSeconds?: number;
  exitCode: number;
  stdout: string;
  stderr: string;
}

const GNU_TIME = '/usr/bin/time';

/** Peak RSS of a live process from /proc (VmHWM), in bytes. */
function highWaterMark(pid: number): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined;
  }
}

/**
 * Runs a command, timing its wall clock and measuring its peak RSS: with GNU time -v when present
 * (exact, read at exit), else by polling /proc/<pid>/status every 20 ms (may miss a short peak).
 */
export function measure(
  command: string,
  args: readonly string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<Run> {
  const useTime = existsSync(GNU_TIME);
  const [file, argv] = useTime ? [GNU_TIME, ['-v', command, ...args]] : [command, [...args]];
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(file, argv, {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    let polled: number | undefined;
    const poll = useTime
      ? undefined
      : setInterval(() => {
          const hwm = child.pid === undefined ? undefined : highWaterMark(child.pid);
          if (hwm !== undefined) polled = Math.max(polled ?? 0, hwm);
        }, 20);
    child.on('error', reject);
    child.on('close', (code) => {
      if (poll) clearInterval(poll);
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      let stderr = Buffer.concat(err).toString('utf8');
      let peakRss = polled;
      let cpuSeconds: number | undefined;
      if (useTime) {
        const kb = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr)?.[1];
        peakRss = kb === undefined ? undefined : Number(kb) * 1024;
        const user = /User time \(seconds\): ([\d.]+)/.exec(stderr)?.[1];
        const system = /System time \(seconds\): ([\d.]+)/.exec(stderr)?.[1];
        if (user !== undefined && system !== undefined) cpuSeconds = Number(user) + Number(system);
        // Keep the command's own stderr: GNU time appends its report after a tab-indented header.
        stderr = stderr.replace(/\tCommand being timed:[\s\S]*$/, '');
      }
      resolve({
        seconds,
        cpuSeconds,
        peakRss,
        exitCode: code ?? -1,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr,
      });
    });
  });
}

/**
 * Best of `times` runs: the least wall time and the least CPU time (the machine's other work only ever
 * adds to either), and the highest peak RSS (a peak is a bound only if it is the worst one seen). The
 * output is the fastest run's.
 */
export async function fastest(times: number, run: () => Promise<Run>): Promise<Run> {
  const runs: Run[] = [];
  for (let i = 0; i < times; i++) runs.push(await run());
  const best = runs.reduce<Run | undefined>((a, b) => (!a || b.seconds < a.seconds ? b : a), undefined);
  if (!best) throw new Error('fastest() needs at least one run');
  const least = (values: (number | undefined)[]) =>
    values.every((v) => v !== undefined) ? Math.min(...(values as number[])) : undefined;
  const most = (values: (number | undefined)[]) =>
    values.every((v) => v !== undefined) ? Math.max(...(values as number[])) : undefined;
  const cpuSeconds = least(runs.map((r) => r.cpuSeconds));
  const peakRss = most(runs.map((r) => r.peakRss));
  return {
    ...best,
    ...(cpuSeconds === undefined ? {} : { cpuSeconds }),
    ...(peakRss === undefined ? {} : { peakRss }),
  };
}
