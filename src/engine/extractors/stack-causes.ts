import { type Marker, markersIn } from './rules.ts';
import { STACK_CAUSE_FAMILIES } from './stack-causes-families.ts';
import type { Extractor } from './types.ts';

/** Frames and messages that reveal why memory ran out, named by the cause they point to. */
const CAUSES: readonly Marker[] = [
  {
    kind: 'cause.driver-collect',
    re: /\b(?:collect|collectAsList|take|toLocalIterator|collectAsMap)\b(?: at |\()|\b(?:collectToPython|collectAsArrayToPython|toPandas|collectFromPlan|executeCollect)\b|\.collect\(\)/,
  },
  {
    kind: 'cause.broadcast',
    re: /BroadcastExchangeExec|TorrentBroadcast|BroadcastHashJoin|broadcast(?:ed)? (?:join|table|variable)|build and broadcast the table|autoBroadcastJoinThreshold|\bbroadcast timeout/i,
  },
  {
    kind: 'cause.small-files',
    re: /InMemoryFileIndex|listLeafFiles|bulkListLeafFiles|HadoopFSUtils|\bgroupFiles\b|\bgroupSize\b|too many (?:small )?files/i,
  },
  { kind: 'cause.skew', re: /\bskew(?:ed)?\b|straggler/i },
  {
    kind: 'cause.shuffle-fetch',
    re: /ShuffleBlockFetcherIterator|OneForOneBlockFetcher|ExternalShuffleClient/,
  },
  {
    kind: 'cause.sort-spill',
    re: /UnsafeExternalSorter|UnsafeSorterSpillReader|ExternalAppendOnlyMap|spill(?:ing|ed)? (?:sort|to disk)/i,
  },
  { kind: 'cause.rocksdb', re: /\borg\.rocksdb\b|\brocksdb(?:jni)?\b|RocksDBStateBackend|EmbeddedRocksDB/i },
  { kind: 'cause.glibc-arenas', re: /MALLOC_ARENA_MAX|glibc (?:malloc )?arena|thread arenas?/i },
  {
    kind: 'cause.classloader-leak',
    re: /class loading leak|ChildFirstClassLoader|FlinkUserCodeClassLoader|classloader\.check-leaked-classloader/i,
  },
  { kind: 'cause.network-buffers', re: /NetworkBufferPool|taskmanager\.memory\.network\.|network buffers?/i },
  { kind: 'cause.threads', re: /unable to create (?:new )?native thread|too many threads/i },
  { kind: 'cause.dynamic-frame', re: /\bDynamicFrame\b|create_dynamic_frame|fromDF\b/ },
  { kind: 'cause.direct-runner', re: /\bDirectRunner\b|runners[./]direct\b|direct_runner/ },
  {
    kind: 'cause.sdk-harness-lost',
    re: /unable to receive additional data from SDK|SDK harness .{0,40}(?:disconnected|lost|crashed)/i,
  },
];

const TRIGGERS = [
  'collect',
  'topandas',
  'take',
  'tolocaliterator',
  'broadcast',
  'inmemoryfileindex',
  'listleaffiles',
  'hadoopfsutils',
  'groupfiles',
  'groupsize',
  'small files',
  'many files',
  'skew',
  'straggler',
  'shuffleblockfetcher',
  'blockfetcher',
  'shuffleclient',
  'unsafeexternalsorter',
  'unsafesorterspill',
  'externalappendonlymap',
  'spill',
  'rocksdb',
  'malloc_arena',
  'arena',
  'class loading leak',
  'classloader',
  'networkbufferpool',
  'network',
  'native thread',
  'too many threads',
  'directrunner',
  'runners/direct',
  'runners.direct',
  'direct_runner',
  'additional data from sdk',
  'sdk harness',
  'dynamicframe',
  'dynamic_frame',
  'fromdf',
];

/** Stack frames and messages that point to a cause: driver collect, broadcast, small files, RocksDB... */
export const stackCauses: Extractor = {
  id: 'stack-causes',
  description:
    'Frames and words that reveal a cause: collect/toPandas, broadcast joins, small-file listing, skew, RocksDB, arenas...',
  triggers: TRIGGERS,
  extract: (line, wanted) => markersIn(CAUSES, line, wanted),
  families: STACK_CAUSE_FAMILIES,
  patterns: CAUSES.map((c) => c.re),
};
