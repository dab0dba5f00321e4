import { ErrorCode, MemdoctorError } from '../errors.ts';

/**
 * What a heap dump's analysis needs, estimated before it starts, against MEMDOCTOR_HEAP_DUMP_BUDGET.
 *
 * The analysis keeps about 54 bytes per object (its identifier, class, kind, size and reference offset,
 * then the dominator tree's arrays) and 12 per stored reference, read into exact-size typed arrays
 * (src/engine/heap). Measured (peak RSS of `node bin/memdoctor.mjs diagnose --json <dump>` under GNU time
 * -v, 2 cores, Node 22, 2026-12-07, load 13-20): bench/heap/SessionCache.java dumps of 1,108,921,044
 * bytes (19.5M objects, 64-byte payloads) 1,509 MiB, and of 855,543,851 bytes (20.0M objects, 8-byte
 * payloads: the denser case, 43 bytes of dump per object) 1,523 MiB, i.e. 1.3 and 1.7 bytes per dump
 * byte past the fixed cost; the same 1 GB dump read once from a pipe 1,534 MiB; dumps of 58-68 MB
 * 98-136 MiB. Hence 160 MiB plus 2.5 bytes per dump byte: room for denser dumps (smaller objects,
 * identifiers out of address order, which need a hash table) and for collection that lags. An
 * estimate that refuses a dump it could have read is a nuisance; one that lets the machine swap is an
 * outage.
 */
export const HEAP_FIXED_BYTES = 160 * 1024 ** 2;
export const HEAP_BYTES_PER_DUMP_BYTE = 2.5;

/** The memory the analysis of a dump of `dumpBytes` (decompressed) is estimated to need. */
export function heapNeedEstimate(dumpBytes: number): number {
  return HEAP_FIXED_BYTES + HEAP_BYTES_PER_DUMP_BYTE * dumpBytes;
}

/** The largest decompressed dump the budget allows. */
export function largestDumpWithin(budgetBytes: number): number {
  return Math.max(0, Math.floor((budgetBytes - HEAP_FIXED_BYTES) / HEAP_BYTES_PER_DUMP_BYTE));
}

function gib(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(1)} GiB`;
  return `${Math.max(1, Math.round(bytes / 1024 ** 2))} MiB`;
}

/** The setting to ask for: the need, rounded up to a whole GiB. */
function settingFor(needBytes: number): string {
  return `MEMDOCTOR_HEAP_DUMP_BUDGET=${Math.ceil(needBytes / 1024 ** 3)}g`;
}

/**
 * What is known of the dump's size before the read: exact for a plain file; for gzip only a floor
 * (the compressed size: an HPROF dump never shrinks when decompressed). gzip's ISIZE trailer is not
 * used: it is the size mod 2^32 of the last member only, and `jcmd GC.heap_dump -gz` writes many.
 */
export interface DumpSize {
  bytes: number;
  exact: boolean;
}

/** A heap dump whose analysis would need more memory than MEMDOCTOR_HEAP_DUMP_BUDGET allows. */
export class HeapDumpOverBudgetError extends MemdoctorError {
  constructor(source: string, detail: string, needBytes: number, budgetBytes: number) {
    super(
      ErrorCode.InputTooLarge,
      `${source}: ${detail}, so its analysis would need at least ${gib(needBytes)} of memory, over the budget of ${gib(budgetBytes)} (MEMDOCTOR_HEAP_DUMP_BUDGET). On a machine with that much memory free, raise it: ${settingFor(needBytes)} memdoctor diagnose ${source}. Or copy the dump to a bigger machine (a cloud VM with ${gib(needBytes)} or more) and run \`npx memdoctor diagnose ${source}\` there: nothing else is needed, and nothing leaves that machine.`,
    );
    this.name = 'HeapDumpOverBudgetError';
  }
}

/** Refuses, before any of the analysis, a dump whose known size already needs more than the budget. */
export function checkDumpSize(source: string, size: DumpSize, budgetBytes: number): void {
  const need = heapNeedEstimate(size.bytes);
  if (need <= budgetBytes) return;
  const detail = size.exact
    ? `this heap dump is ${gib(size.bytes)}`
    : `this gzip-compressed heap dump is ${gib(size.bytes)} compressed (more once decompressed)`;
  throw new HeapDumpOverBudgetError(source, detail, need, budgetBytes);
}

/**
 * A guard for the read (a gzip's decompressed size is only learned by reading it): throws once the
 * bytes read need more than the budget, before the graph is built from them.
 */
export function budgetGuard(source: string, budgetBytes: number): (bytesRead: number) => void {
  const largest = largestDumpWithin(budgetBytes);
  return (bytesRead) => {
    if (bytesRead <= largest) return;
    const detail = `this heap dump is over ${gib(largest)} decompressed (the read stopped there; the rest of it needs more)`;
    throw new HeapDumpOverBudgetError(source, detail, heapNeedEstimate(bytesRead), budgetBytes);
  };
}
