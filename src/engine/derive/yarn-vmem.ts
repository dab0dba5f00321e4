import type { FactBook } from '../facts.ts';
import { formatSize } from '../units.ts';
import type { Derivation } from './types.ts';

/** yarn.nodemanager.vmem-pmem-ratio when unset (YarnConfiguration.DEFAULT_NM_VMEM_PMEM_RATIO = 2.1f). */
export const DEFAULT_VMEM_PMEM_RATIO = 2.1;

/** The first container YARN killed for virtual memory, with its figures. */
function vmemKill(book: FactBook) {
  return book.find('container.killed-memory').find((f) => f.values?.resource === 'virtual')?.values;
}

function configuredRatio(book: FactBook): number | undefined {
  const raw = book.config('yarn.nodemanager.vmem-pmem-ratio')?.values?.value;
  const ratio = Number(raw);
  return typeof raw === 'string' && Number.isFinite(ratio) && ratio >= 1 ? ratio : undefined;
}

/** One decimal, as yarn-site.xml values are written (2.1, 4.5). */
function ratioText(ratio: number): string {
  return String(Math.round(ratio * 10) / 10);
}

/**
 * The figures of a virtual-memory kill and the vmem-pmem ratio that would have let the container
 * live. The NodeManager allows physical limit x ratio of virtual memory (ContainersMonitorImpl); the
 * physical limit comes from the kill line, or from the virtual limit and the ratio in force. The
 * suggestion gives half again of what this container needed, rounded up to a whole number: JVMs
 * reserve address space in steps (thread stacks, 64 MB glibc arenas), so the next run can need more.
 */
export const yarnVmem: Derivation = (book): Record<string, string> => {
  const kill = vmemKill(book);
  const used = kill?.usedBytes;
  const limit = kill?.limitBytes;
  if (typeof used !== 'number' || typeof limit !== 'number') return {};
  const ratio = configuredRatio(book) ?? DEFAULT_VMEM_PMEM_RATIO;
  const stated = kill?.physicalLimitBytes;
  const physical = typeof stated === 'number' && stated > 0 ? stated : limit / ratio;
  const needed = used / physical;
  return {
    'vmem.used': formatSize(used),
    'vmem.limit': formatSize(limit),
    'vmem.physical-limit': formatSize(physical),
    'vmem.ratio': ratioText(limit / physical),
    'vmem.ratio.needed': ratioText(needed),
    'vmem.ratio.suggested': String(Math.max(Math.ceil(needed * 1.5), Math.ceil(limit / physical) + 1)),
  };
};
