import { describe, expect, it } from 'vitest';
import { memoryReport } from '../../../src/engine/extractors/memory-report.ts';
import { findingsOf, kindsOf } from './run-extractor.ts';

// Captured on this machine: `jeprof --text $(readlink -f $(which java)) jeprof.<pid>.<n>.i<n>.heap` for a
// JDK 17.0.15 program holding 3000 un-ended java.util.zip.Deflater objects, run with
// LD_PRELOAD=libjemalloc.so.2 (Debian libjemalloc2 5.3.0) and MALLOC_CONF=prof:true,lg_prof_interval:24.
const JEPROF = [
  'Total: 739.4 MB',
  '   732.1  99.0%  99.0%    732.1  99.0% deflateInit2_',
  '     6.8   0.9%  99.9%      6.8   0.9% os::malloc',
  '     0.0   0.0% 100.0%     34.0   4.6% ?? ??:0',
];

describe('memory-report', () => {
  it('reads the total of a jeprof profile in bytes (jeprof MB are 1048576 bytes)', () => {
    expect(findingsOf(memoryReport, JEPROF[0] ?? '')).toEqual([
      { kind: 'report.native-profile', values: { totalBytes: 775_317_094 } },
    ]);
    // The same profile with --show_bytes.
    expect(findingsOf(memoryReport, 'Total: 775287033 B')).toEqual([
      { kind: 'report.native-profile', values: { totalBytes: 775_287_033 } },
    ]);
  });

  it.each([
    [JEPROF[1], 'deflateInit2_', 'zlib'],
    [JEPROF[2], 'os::malloc', 'jvm-internal'],
  ])('names the allocating function of %s', (line, fn, area) => {
    expect(findingsOf(memoryReport, line ?? '')).toEqual([
      { kind: 'report.native-top', values: { function: fn, area } },
    ]);
  });

  // jemalloc/jemalloc#507 (jeprof --show_bytes --text on a Java web application) and #2081 (jeprof's
  // "top" on a Java application, jemalloc 5.2.1): the whole profile charged to jemalloc's own
  // backtracer, an unwinding failure and no allocation site. Named as it is, its area left "other",
  // so no zlib/RocksDB/Unsafe cause is read into it.
  it.each([
    '127759580182 100.0% 100.0% 127759580182 100.0% je_prof_backtrace',
    '815965512 100.0% 100.0% 815965512 100.0% je_prof_backtrace',
  ])('names a function of no known area as "other": %s', (line) => {
    expect(findingsOf(memoryReport, line)).toEqual([
      { kind: 'report.native-top', values: { function: 'je_prof_backtrace', area: 'other' } },
    ]);
  });

  it('skips entries that only sum their callees', () => {
    expect(kindsOf(memoryReport, JEPROF[3] ?? '')).toEqual([]);
  });

  it('reads a heapy summary (guppy3 README example)', () => {
    expect(
      findingsOf(memoryReport, 'Partition of a set of 30976 objects. Total size = 3544220 bytes.'),
    ).toEqual([{ kind: 'report.python-heap', values: { objects: 30976, totalBytes: 3544220 } }]);
  });

  it.each([
    'Total: 3 tasks failed',
    'INFO Total: 512 MB allocated to managed memory by default',
    'Stage 3: 45.0% complete (18/40 tasks)',
    ' Index  Count   %     Size   % Cumulative  % Kind (class / dict of class)',
  ])('finds nothing in %s', (line) => {
    expect(kindsOf(memoryReport, line)).toEqual([]);
  });
});
