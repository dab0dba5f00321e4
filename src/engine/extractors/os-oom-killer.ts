import { applyRules, type LineRule } from './rules.ts';
import type { Extractor, MessageFamily } from './types.ts';

const OOM_KILL_C = 'torvalds/linux mm/oom_kill.c';

const UNLIMITED_KIB = 2 ** 40;

function memcgLimit(usedKiB: string, limitKiB: string) {
  const limit = Number(limitKiB);
  return {
    usedBytes: Number(usedKiB) * 1024,
    ...(limit < UNLIMITED_KIB ? { limitBytes: limit * 1024 } : {}),
  };
}

// Provenance of each rule is in FAMILIES below (kernel file and versions per wording).
const RULES: readonly LineRule[] = [
  {
    // "Out of memory: Kill process N (comm) score S or sacrifice child" (before 5.0), "Out of memory:
    // Killed process N (comm) total-vm:..." (5.0+), each also behind "Memory cgroup".
    re: /Out of memory: Kill(?:ed)? process \d{1,10} \(([^)]{1,64})\)/i,
    kind: 'os.oom-kill',
    values: (m) => ({ process: m[1] ?? 'unknown' }),
  },
  {
    // The second line before 5.0: "Killed process N (comm) total-vm:..." (RHEL 6: "Killed process N,
    // UID U, (comm) total-vm:"), and the reaper's "oom_reaper: reaped process N (comm), now anon-rss".
    re: /\b(?:Killed|oom_reaper: reaped) process \d{1,10},?(?: UID \d{1,10},)? \(([^)]{1,64})\),? (?:total-vm|now anon-rss)/i,
    kind: 'os.oom-kill',
    values: (m) => ({ process: m[1] ?? 'unknown' }),
  },
  {
    re: /invoked oom-killer|oom-kill:|\bOOM killer\b|\bkilled as a result of limit of\b/i,
    kind: 'os.oom-kill',
    values: () => ({ process: 'unknown' }),
  },
  // A memory cgroup's OOM report: its usage and its limit, in KiB ("memory+swap:" and "kmem:" are
  // other counters). Above 2^40 KiB the limit is the kernel's "unlimited" (PAGE_COUNTER_MAX).
  {
    re: /(?:^|[\]\s])memory: usage (\d{1,16})kB, limit (\d{1,16})kB, failcnt \d/,
    kind: 'os.memcg-limit',
    values: (m) => memcgLimit(m[1] ?? '', m[2] ?? ''),
  },
  // The kubelet's node event for a kernel OOM kill it saw ("SystemOOM"), naming the victim from 1.9 on.
  {
    re: /System OOM encountered(?:, victim process: ([^,\s]{1,64}))?/,
    kind: 'os.oom-kill',
    values: (m) => ({ process: m[1] ?? 'unknown' }),
  },
  // Dataflow's worker log when the VM's OOM killer ended an SDK or harness process.
  {
    re: /had to shut down one or more processes due to lack of memory/i,
    kind: 'os.oom-kill',
    values: () => ({ process: 'dataflow-worker' }),
  },
  // What a shell prints when its child got SIGKILL, alone on a line (maybe behind a docker-compose
  // service prefix); most often the OOM killer.
  { re: /^\s*(?:[\w.-]{1,64}\s+\|\s*)?Killed(?::\s*9)?\s*$/, kind: 'process.killed' },
  {
    re: /\b(?:died|exited|terminated|killed) (?:with|by|from) signal (?:9|SIGKILL)\b|\bSIGKILL\b/i,
    kind: 'process.killed',
  },
];

const FAMILIES: readonly MessageFamily[] = [
  {
    name: 'kernel OOM killer, "Kill process ... or sacrifice child"',
    kind: 'os.oom-kill',
    source: `${OOM_KILL_C} (oom_kill_process); memcontrol.c for the "Memory cgroup out of memory" prefix`,
    versions: 'Linux 2.6-4.x',
    examples: [
      '[12345.678] Out of memory: Kill process 4321 (java) score 951 or sacrifice child',
      '[6710784.698347] Memory cgroup out of memory: Kill process 215701 (java) score 854 or sacrifice child',
      '[  617.820631] Out of memory: Kill process 2279 (Web Content) score 426 or sacrifice child',
    ],
  },
  {
    name: 'kernel OOM killer, "Killed process" with its memory',
    kind: 'os.oom-kill',
    source: `${OOM_KILL_C} (__oom_kill_process)`,
    versions:
      'Linux 2.6-4.x as a second line; Linux 5.0+ as "Out of memory: Killed process" with UID, pgtables, oom_score_adj',
    examples: [
      'Mar 27 01:15:36 ip-10-0-1-103 kernel: Killed process 16883 (oomApp) total-vm:4575664kB, anon-rss:57784kB, file-rss:1240kB, shmem-rss:0kB',
      '[6710784.707978] Killed process 215701, UID 679, (java) total-vm:11017300kB, anon-rss:7152432kB, file-rss:1232kB',
      'Out of memory: Killed process 1882 (python) total-vm:6041764kB, anon-rss:3290928kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:6800kB oom_score_adj:0',
      'Memory cgroup out of memory: Killed process 4182 (order-worker) total-vm:812044kB, anon-rss:518420kB, file-rss:1240kB, shmem-rss:0kB, UID:0 pgtables:1400kB oom_score_adj:0',
    ],
  },
  {
    name: 'OOM reaper freeing the killed process',
    kind: 'os.oom-kill',
    source: `${OOM_KILL_C} (oom_reap_task_mm)`,
    versions: 'Linux 4.6+',
    examples: [
      '[  618.020277] oom_reaper: reaped process 2279 (Web Content), now anon-rss:0kB, file-rss:0kB, shmem-rss:0kB',
    ],
  },
  {
    name: 'OOM killer invoked / constraint summary / memcg limit',
    kind: 'os.oom-kill',
    source: `${OOM_KILL_C} (dump_header, dump_oom_summary); mm/memcontrol.c (mem_cgroup_print_oom_info before 4.19)`,
    versions:
      'Linux 2.6+ ("invoked oom-killer"), 4.19+ ("oom-kill:constraint="), before 4.19 ("Task in ... killed as a result of limit of")',
    examples: [
      'kernel: java invoked oom-killer: gfp_mask=0x201da, order=0, oom_score_adj=0',
      '[ 1234.5] oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=/,mems_allowed=0',
      '[14808.063986] Task in /docker/34186d9bd077 killed as a result of limit of /docker/34186d9bd077',
    ],
  },
  {
    name: "a memory cgroup's usage and limit in the OOM report",
    kind: 'os.memcg-limit',
    source:
      'torvalds/linux mm/memcontrol.c (mem_cgroup_print_oom_meminfo: "memory: usage %llukB, limit %llukB, failcnt %lu")',
    versions: 'Linux 3.x+ (cgroup v1 and v2, printed when a memory cgroup runs out)',
    examples: ['[  461.392465] memory: usage 196608kB, limit 196608kB, failcnt 51'],
  },
  {
    name: "the kubelet's SystemOOM node event",
    kind: 'os.oom-kill',
    source: 'kubernetes/kubernetes pkg/kubelet/oom/oom_watcher_linux.go (systemOOMEvent)',
    versions: 'Kubernetes 1.x ("System OOM encountered"), later with ", victim process: %s, pid: %d"',
    examples: [
      'default   57m   Warning   SystemOOM   node/nlk8s-node04   System OOM encountered, victim process: prometheus, pid: 967770',
      '  Warning  SystemOOM  {kubelet gke-cluster-1-default-pool-312d7520-c4db}  System OOM encountered',
    ],
  },
  {
    name: 'Dataflow worker VM ended processes for lack of memory',
    kind: 'os.oom-kill',
    source: 'cloud.google.com/dataflow/docs/guides/troubleshoot-oom (worker log message)',
    versions: 'Dataflow (Beam Java and Python workers)',
    examples: ['The worker VM had to shut down one or more processes due to lack of memory.'],
  },
  {
    name: 'a shell reporting its child killed by SIGKILL',
    kind: 'process.killed',
    source:
      'GNU bash jobs.c (prints strsignal(SIGKILL), "Killed" in glibc); BSD/macOS shells print "Killed: 9"; docker-compose prefixes the service; apache/spark ExecutorExitCode.scala ("died from signal 9?")',
    versions: 'bash, zsh, sh on Linux and macOS',
    examples: [
      'Killed',
      'Killed: 9',
      'taskmanager_1  | Killed',
      'Process finished: terminated by signal SIGKILL',
      'Reason: Unknown executor exit code (137) (died from signal 9?)',
    ],
  },
];

/** The operating system's OOM killer ending a process, and the shell's bare "Killed". */
export const osOomKiller: Extractor = {
  id: 'os-oom-killer',
  description:
    'Linux OOM killer messages, Dataflow "lack of memory" worker messages, and a bare "Killed" line',
  triggers: [
    'out of memory',
    'oom-kill',
    'oom killer',
    'oom_reaper',
    'as a result of limit of',
    'lack of memory',
    'system oom',
    'killed',
    'signal',
    'sigkill',
    'failcnt',
  ],
  extract: (line) => applyRules(RULES, line),
  families: FAMILIES,
  patterns: RULES.map((rule) => rule.re),
};
