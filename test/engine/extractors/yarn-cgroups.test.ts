import { describe, expect, it } from 'vitest';
import { yarnCgroups } from '../../../src/engine/extractors/yarn-cgroups.ts';
import { findingsOf, kindsOf } from './run-extractor.ts';

describe('yarn-cgroups', () => {
  it.each([
    // ContainersMonitorImpl.checkLimit with strict and elastic memory control (Hadoop 3.2+).
    'Diagnostics: container_1580000000000_0007_01_000003 is under oom because it exceeded its physical memory limit',
    // DefaultOOMHandler.killContainer.
    '2020-01-27 10:21:44,911 WARN org.apache.hadoop.yarn.server.nodemanager.containermanager.linux.resources.DefaultOOMHandler: container container_1580000000000_0007_01_000003 killed by elastic cgroups OOM handler.',
  ])("a cgroups memory kill ('container.killed-memory'): %s", (line) => {
    expect(findingsOf(yarnCgroups, line)).toEqual([
      { kind: 'container.killed-memory', values: { resource: 'physical', manager: 'yarn' } },
    ]);
  });

  it.each([
    // The handler's other messages say nothing was killed (or nothing could be).
    'WARN DefaultOOMHandler: Found no running containers to kill in order to release memory',
    'Could not find any containers but CGroups reserved for containers ran out of memory. I am giving up',
    'INFO CGroupsMemoryResourceHandlerImpl: Memory is under oom? false',
  ])('finds nothing in %s', (line) => {
    expect(kindsOf(yarnCgroups, line)).toEqual([]);
  });
});
