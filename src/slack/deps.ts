import type { Logger } from 'pino';
import type { EventDedupe } from '../dedupe/event-dedupe.ts';
import type { CaseInputOffload, EngineOffload } from '../diagnosis/engine-job.ts';
import type { HeapDumpOffload } from '../diagnosis/index.ts';
import type { LlmAssist } from '../llm/assist.ts';
import type { OutcomeStore } from '../stats/outcomes.ts';
import type { CaseLimits, CaseStore } from '../usecases/add-to-case.ts';
import type { ConnectorsConfig, FetchGate } from '../usecases/connectors.ts';
import type { ClusterHealth, Playbook } from '../usecases/types.ts';
import type { WalkthroughService } from '../walkthrough/index.ts';
import type { AckQueue } from './ack-first.ts';
import type { InflightBytes } from './inflight.ts';
import type { SlackMetrics } from './metrics.ts';
import type { OncallPolicy } from './oncall.ts';

/** The settings the Slack layer reads, taken from Config once at start-up. */
export interface SlackSettings {
  botToken: string;
  maxUploadBytes: number;
  maxExpandedBytes: number;
  /** Hosts a file download may use (see allowedFileHosts). */
  fileHosts: readonly string[];
  /** Plain http to a loopback file host (MEMDOCTOR_ALLOW_HTTP_LOOPBACK): a fake Slack only. */
  allowHttpLoopback?: boolean;
  /** Transcripts longer than this go up as a file (default TRANSCRIPT_INLINE_CHARS). */
  transcriptInlineChars?: number;
}

/** Readiness as GET /healthz reports it. */
export interface Health {
  ok: boolean;
  store: 'memory' | 'redis';
  redis?: 'up' | 'down';
  /** With REDIS_CLUSTER_NODES: the cluster's state (CLUSTER INFO) and its masters that answer. */
  cluster?: ClusterHealth;
  playbooks: number;
}

/** The worker pool diagnoses run in (setup/engine-pool.ts), so the event loop keeps answering Slack. */
export interface EngineRunner {
  run: EngineOffload;
  /** Reads a case's input into its keys and facts in a thread (the pool's); in-line when unset. */
  readCase?: CaseInputOffload;
  /** True when a new input would wait for a thread. */
  readonly saturated: boolean;
  /** True when a new input would be refused as busy (the queue is full). */
  readonly full: boolean;
  /** Inputs waiting for a thread. */
  readonly waiting: number;
}

/** Everything the listeners use; built once by startSlack, or by a test. */
export interface SlackDeps {
  settings: SlackSettings;
  playbooks: readonly Playbook[];
  dedupe: EventDedupe;
  walkthroughs: WalkthroughService;
  oncall: OncallPolicy;
  log: Logger;
  health(): Promise<Health>;
  /** The optional model help (docs/llm.md); undefined when no model is configured. */
  assist?: LlmAssist;
  /** Diagnoses, walkthroughs and "Did this fix it?" answers per workspace (src/stats); unset: not kept. */
  outcomes?: OutcomeStore;
  /** Where diagnoses run; in-line on the event loop when unset (tests that need no pool). */
  engines?: EngineRunner;
  /**
   * Where an uploaded heap dump is analysed (setup/heap-pool.ts: one thread, apart from the event
   * loop and the diagnosis threads) and the memory it may take (MEMDOCTOR_HEAP_DUMP_BUDGET). Unset:
   * in-line and unbounded (tests that need no thread).
   */
  heapDumps?: {
    run?: HeapDumpOffload;
    budgetBytes?: number;
    /** True when the heap thread would refuse one more dump: it is then refused before its download. */
    full?: () => boolean;
  };
  /** Counters and histograms for GET /metrics; none are kept when unset. */
  metrics?: SlackMetrics;
  /** The cap on bytes of inputs in hand at once (MEMDOCTOR_MAX_INFLIGHT_BYTES); none when unset. */
  inflight?: InflightBytes;
  /** Requests still to be acknowledged; work after an ack waits for them (createSlackApp sets it). */
  acks?: AckQueue;
  /** The APIs a step may be fetched from (MEMDOCTOR_CONNECTORS); unset, no step offers a fetch. */
  connectors?: ConnectorsConfig;
  /**
   * Who may fetch what and how many at once (connectors.yaml access, MEMDOCTOR_FETCHES_*); built
   * from `connectors` with the default caps when unset.
   */
  fetchGate?: FetchGate;
  /**
   * The cases of threads (docs/cases.md): a file posted in a thread that has a diagnosis answer is
   * added to the thread's case and the answer is edited. Unset: each file is diagnosed alone.
   */
  cases?: { store: CaseStore; limits: CaseLimits };
  /** Replaces fetch for file downloads and uploads (tests). */
  fetch?: typeof fetch;
}
