import type { Finding } from '../facts.ts';
import type { Extractor, MessageFamily } from './types.ts';

// guppy/heapy's summary of a heap or object set (guppy3 heapy, Python 3; guppy-pe, Python 2).
const HEAPY = /Partition of a set of (\d{1,15}) objects?\. Total size = (\d{1,18}) bytes/;
// jeprof/pprof --text: "Total: 739.4 MB" (MB = 1048576 bytes) or "Total: 775287033 B" (--show_bytes).
const PROFILE_TOTAL = /^\s*Total: (\d{1,15}(?:\.\d{1,3})?) (B|MB)\s*$/;
const UNIT: Readonly<Record<string, number>> = { B: 1, MB: 1048576 };
// An entry of that listing: flat, flat%, sum%, cum, cum%, function. Anchored, one pass.
const PROFILE_ENTRY =
  /^\s*(\d{1,15}(?:\.\d{1,3})?) {1,12}\d{1,3}\.\d% {1,12}\d{1,3}\.\d% {1,12}\d{1,15}(?:\.\d{1,3})? {1,12}\d{1,3}\.\d% (\S.{0,300})$/;

// What the function that allocates most says about where native memory goes.
const AREAS: readonly { re: RegExp; area: string }[] = [
  { re: /^(?:deflateInit2_|inflateInit2_|deflate|inflate|Java_java_util_zip_)/, area: 'zlib' },
  { re: /^rocksdb::|^Java_org_rocksdb_/, area: 'rocksdb' },
  { re: /^Unsafe_AllocateMemory|^Java_jdk_internal_misc_Unsafe_allocateMemory/, area: 'unsafe' },
  { re: /^(?:os::malloc|AllocateHeap|Arena::|ChunkPool::|os::pd_)/, area: 'jvm-internal' },
];

function areaOf(fn: string): string {
  return AREAS.find(({ re }) => re.test(fn))?.area ?? 'other';
}

const FAMILIES: readonly MessageFamily[] = [
  {
    name: 'guppy/heapy heap summary',
    kind: 'report.python-heap',
    source: 'zhuyifei1999/guppy3 README.md (h.heap() example); guppy-pe for Python 2',
    versions: 'guppy3 (Python 3.5+), guppy-pe (Python 2)',
    examples: ['Partition of a set of 30976 objects. Total size = 3544220 bytes.'],
  },
  {
    name: 'jeprof/pprof text profile total',
    kind: 'report.native-profile',
    source:
      'jemalloc bin/jeprof.in (--text), captured: jeprof --text on a JDK 17 run under libjemalloc2 5.3.0',
    versions: 'jemalloc 4-5 jeprof; gperftools pprof prints the same',
    examples: ['Total: 739.4 MB', 'Total: 775287033 B'],
  },
  {
    name: 'jeprof/pprof text profile entry',
    kind: 'report.native-top',
    source:
      'jemalloc bin/jeprof.in (--text), captured: jeprof --text on a JDK 17 run under libjemalloc2 5.3.0',
    versions: 'jemalloc 4-5 jeprof; gperftools pprof',
    examples: [
      '   732.1  99.0%  99.0%    732.1  99.0% deflateInit2_',
      '     6.8   0.9%  99.9%      6.8   0.9% os::malloc',
      '767614019  99.0%  99.0% 767614019  99.0% deflateInit2_',
    ],
  },
];

/** Memory reports pasted on their own: a Python heap summary (heapy) or a native heap profile (jeprof). */
export const memoryReport: Extractor = {
  id: 'memory-report',
  description: 'guppy/heapy heap summaries and jeprof/pprof native heap profiles (--text)',
  triggers: ['partition of a set of', 'total: ', '% '],
  extract(line) {
    const findings: Finding[] = [];
    const heap = HEAPY.exec(line);
    if (heap)
      findings.push({
        kind: 'report.python-heap',
        values: { objects: Number(heap[1]), totalBytes: Number(heap[2]) },
      });
    const total = PROFILE_TOTAL.exec(line);
    if (total)
      findings.push({
        kind: 'report.native-profile',
        values: { totalBytes: Math.round(Number(total[1]) * (UNIT[total[2] ?? 'B'] ?? 1)) },
      });
    const entry = PROFILE_ENTRY.exec(line);
    // Entries that allocate nothing themselves only sum their callees.
    if (entry && Number(entry[1]) > 0) {
      const fn = (entry[2] ?? '').trim();
      findings.push({ kind: 'report.native-top', values: { function: fn, area: areaOf(fn) } });
    }
    return findings;
  },
  families: FAMILIES,
  patterns: [HEAPY, PROFILE_TOTAL, PROFILE_ENTRY],
};
