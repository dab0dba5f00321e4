import { type Marker, markersIn, triggersOf } from './rules.ts';
import { STACK_CAUSE_FAMILIES } from './stack-causes-families.ts';
import type { Extractor } from './types.ts';

/** Frames and messages that reveal why memory ran out, named by the cause they point to. */
export const CAUSES: readonly Marker[] = [
  {
    kind: 'cause.driver-collect',
    triggers: [
      'collect at ',
      'collect(',
      'collectaslist',
      'collectasmap',
      'collecttopython',
      'collectasarraytopython',
      'collectfromplan',
      'executecollect',
      'take at ',
      'take(',
      'tolocaliterator',
      'topandas',
    ],
    re: /\b(?:collect|collectAsList|take|toLocalIterator|collectAsMap)\b(?: at |\()|\b(?:collectToPython|collectAsArrayToPython|toPandas|collectFromPlan|executeCollect)\b|\.collect\(\)/,
  },
  {
    kind: 'cause.broadcast',
    triggers: [
      'broadcastexchangeexec',
      'torrentbroadcast',
      'broadcasthashjoin',
      'broadcast join',
      'broadcasted join',
      'broadcast table',
      'broadcasted table',
      'broadcast variable',
      'broadcasted variable',
      'and broadcast the table',
      'autobroadcastjointhreshold',
      'broadcast timeout',
    ],
    re: /BroadcastExchangeExec|TorrentBroadcast|BroadcastHashJoin|broadcast(?:ed)? (?:join|table|variable)|build and broadcast the table|autoBroadcastJoinThreshold|\bbroadcast timeout/i,
  },
  {
    kind: 'cause.small-files',
    triggers: [
      'inmemoryfileindex',
      'listleaffiles',
      'hadoopfsutils',
      'groupfiles',
      'groupsize',
      'many files',
      'small files',
    ],
    re: /InMemoryFileIndex|listLeafFiles|bulkListLeafFiles|HadoopFSUtils|\bgroupFiles\b|\bgroupSize\b|too many (?:small )?files/i,
  },
  { kind: 'cause.skew', triggers: ['skew', 'straggler'], re: /\bskew(?:ed)?\b|straggler/i },
  {
    kind: 'cause.shuffle-fetch',
    triggers: ['shuffleblockfetcheriterator', 'oneforoneblockfetcher', 'externalshuffleclient'],
    re: /ShuffleBlockFetcherIterator|OneForOneBlockFetcher|ExternalShuffleClient/,
  },
  {
    kind: 'cause.sort-spill',
    triggers: ['unsafeexternalsorter', 'unsafesorterspillreader', 'externalappendonlymap', 'spill'],
    re: /UnsafeExternalSorter|UnsafeSorterSpillReader|ExternalAppendOnlyMap|spill(?:ing|ed)? (?:sort|to disk)/i,
  },
  {
    kind: 'cause.rocksdb',
    triggers: ['rocksdb'],
    re: /\borg\.rocksdb\b|\brocksdb(?:jni)?\b|RocksDBStateBackend|EmbeddedRocksDB/i,
  },
  {
    kind: 'cause.glibc-arenas',
    triggers: ['malloc_arena_max', 'glibc arena', 'glibc malloc arena', 'thread arena'],
    re: /MALLOC_ARENA_MAX|glibc (?:malloc )?arena|thread arenas?/i,
  },
  {
    kind: 'cause.classloader-leak',
    triggers: ['class loading leak', 'classloader'],
    re: /class loading leak|ChildFirstClassLoader|FlinkUserCodeClassLoader|classloader\.check-leaked-classloader/i,
  },
  {
    kind: 'cause.network-buffers',
    triggers: ['networkbufferpool', 'taskmanager.memory.network.', 'network buffer'],
    re: /NetworkBufferPool|taskmanager\.memory\.network\.|network buffers?/i,
  },
  {
    kind: 'cause.threads',
    triggers: ['native thread', 'too many threads'],
    re: /unable to create (?:new )?native thread|too many threads/i,
  },
  {
    kind: 'cause.dynamic-frame',
    triggers: ['dynamicframe', 'dynamic_frame', 'fromdf'],
    re: /\bDynamicFrame\b|create_dynamic_frame|fromDF\b/,
  },
  {
    kind: 'cause.direct-runner',
    triggers: ['directrunner', 'runners/direct', 'runners.direct', 'direct_runner'],
    re: /\bDirectRunner\b|runners[./]direct\b|direct_runner/,
  },
  {
    kind: 'cause.sdk-harness-lost',
    triggers: ['additional data from sdk', 'sdk harness'],
    re: /unable to receive additional data from SDK|SDK harness .{0,40}(?:disconnected|lost|crashed)/i,
  },
];

const { triggers, triggerKinds } = triggersOf(CAUSES);

/** Stack frames and messages that point to a cause: driver collect, broadcast, small files, RocksDB... */
export const stackCauses: Extractor = {
  id: 'stack-causes',
  description:
    'Frames and words that reveal a cause: collect/toPandas, broadcast joins, small-file listing, skew, RocksDB, arenas...',
  triggers,
  triggerKinds,
  extract: (line, wanted) => markersIn(CAUSES, line, wanted),
  families: STACK_CAUSE_FAMILIES,
  patterns: CAUSES.map((c) => c.re),
};
