import { applyRules, type LineRule } from './rules.ts';
import type { Extractor, MessageFamily } from './types.ts';

const NM = 'apache/hadoop hadoop-yarn-project/hadoop-yarn/hadoop-yarn-server/hadoop-yarn-server-nodemanager';
const KILLED = { resource: 'physical', manager: 'yarn' } as const;

// With cgroups memory enforcement (Hadoop 3.2+) the NodeManager does not print the procfs "running
// beyond ... memory limits" message; these are what it reports instead.
const RULES: readonly LineRule[] = [
  {
    re: /\bis under oom because it exceeded its physical memory limit/i,
    kind: 'container.killed-memory',
    values: () => KILLED,
  },
  {
    re: /\bkilled by elastic cgroups OOM handler/i,
    kind: 'container.killed-memory',
    values: () => KILLED,
  },
];

const FAMILIES: readonly MessageFamily[] = [
  {
    name: 'strict and elastic cgroups memory control: container under OOM',
    kind: 'container.killed-memory',
    source: `${NM}/.../containermanager/monitor/ContainersMonitorImpl.java (checkLimit)`,
    versions: 'Hadoop 3.2+ (yarn.nodemanager.resource.memory.enforced with elastic memory control)',
    examples: [
      'Diagnostics: container_1580000000000_0007_01_000003 is under oom because it exceeded its physical memory limit',
    ],
  },
  {
    name: 'elastic cgroups OOM handler killed a container',
    kind: 'container.killed-memory',
    source: `${NM}/.../containermanager/linux/resources/DefaultOOMHandler.java (killContainer)`,
    versions: 'Hadoop 3.2+ (yarn.nodemanager.elastic-memory-control.enabled)',
    examples: [
      '2020-01-27 10:21:44,911 WARN org.apache.hadoop.yarn.server.nodemanager.containermanager.linux.resources.DefaultOOMHandler: container container_1580000000000_0007_01_000003 killed by elastic cgroups OOM handler.',
    ],
  },
];

/** YARN containers killed for memory by the NodeManager's cgroups memory control. */
export const yarnCgroups: Extractor = {
  id: 'yarn-cgroups',
  description: 'YARN containers killed for memory under cgroups memory control (Hadoop 3.2+)',
  triggers: ['is under oom', 'cgroups oom handler'],
  extract: (line) => applyRules(RULES, line),
  families: FAMILIES,
  patterns: RULES.map((rule) => rule.re),
};
