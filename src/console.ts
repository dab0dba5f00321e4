/**
 * The console's and the CLI's composition root: it builds the playbooks, the walkthrough store, the
 * model assist, the block threads and the outcome reader from the configuration, so src/cli only
 * turns typed input into requests and results into text. (The Slack app's root is src/serve.ts.)
 */
import { type Config, redisTarget } from './config.ts';
import type { DiagnosisContext } from './diagnosis/index.ts';
import { UsageError } from './errors.ts';
import type { LlmAssist } from './llm/assist.ts';
import type { AssistChoice } from './setup/assist.ts';
import { BlockPool } from './setup/block-pool.ts';
import { memoryCases } from './setup/cases.ts';
import { configuredPlaybooks } from './setup/playbooks.ts';
import type { OutcomeStore } from './stats/outcomes.ts';
import type { CaseLimits, CaseStore } from './usecases/add-to-case.ts';
import type { TerminalFetching } from './usecases/connectors.ts';
import type { Playbook } from './usecases/types.ts';
import type { WalkthroughService } from './walkthrough/index.ts';

export { configuredPlaybooks, playbooksDir } from './setup/playbooks.ts';

/**
 * The connectors `check` reads, the gate its fetches pass and whom they count against, with the caps
 * counted where `serve` counts them (setup/terminal-fetching.ts, loaded on use). Close it when done.
 */
export async function openFetching(config: Config): Promise<TerminalFetching> {
  return (await import('./setup/terminal-fetching.ts')).requiredFetching(config);
}

/** What a console session or `memdoctor walk`/`resume` works with. */
export interface ConsoleResources {
  playbooks: readonly Playbook[];
  service: WalkthroughService;
  /** The model assist, when asked for and configured. */
  assist?: LlmAssist;
  /** Why the model assist is off although a model was configured. */
  assistOff?: string;
  /**
   * The APIs steps may be fetched from (MEMDOCTOR_CONNECTORS) and the gate those fetches pass, with
   * the configured caps (MEMDOCTOR_FETCHES_*); unset, nothing is fetched.
   */
  fetching?: TerminalFetching;
  /** The session's case (in memory: a console session is one process) and its limits. */
  cases: { store: CaseStore; limits: CaseLimits };
  /** Lets go of the store and the assist. */
  close(): Promise<void>;
}

/** The model assist, loaded (with its clients) only for the console: `walk` and `resume` never load it. */
async function modelAssist(config: Config): Promise<AssistChoice> {
  const [{ openAssist }, { createLogger }] = await Promise.all([
    import('./setup/assist.ts'),
    import('./log.ts'),
  ]);
  return openAssist(config, { log: createLogger('silent') });
}

/**
 * The playbooks (unless given, already loaded) and the walkthroughs (Redis with REDIS_URL, else
 * memory); with `assist`, the model too, when one is configured (a bad setting switches it off).
 */
export async function openConsole(
  config: Config,
  options: { assist?: boolean; playbooks?: readonly Playbook[] } = {},
): Promise<ConsoleResources> {
  const playbooks = options.playbooks ?? configuredPlaybooks(config);
  // Loaded here, not at the top: `diagnose` imports this root too and needs no walkthrough code.
  const [{ openWalkthroughs }, { optionalFetching }] = await Promise.all([
    import('./setup/walkthroughs.ts'),
    import('./setup/terminal-fetching.ts'),
  ]);
  const fetching = await optionalFetching(config);
  const service = await openWalkthroughs(config).catch(async (error: unknown) => {
    await fetching?.close();
    throw error;
  });
  const { assist, off } = options.assist ? await modelAssist(config) : {};
  const close = async () => {
    await assist?.close();
    await fetching?.close();
    await service.close();
  };
  return {
    playbooks,
    service,
    cases: memoryCases(config),
    close,
    ...(assist ? { assist } : {}),
    ...(off ? { assistOff: off } : {}),
    ...(fetching ? { fetching } : {}),
  };
}

/** What one `memdoctor diagnose` run works with. */
export interface DiagnoseResources {
  playbooks: readonly Playbook[];
  /** Why the model assist is off although a model was configured (or a setting was bad). */
  assistOff?: string;
  /** What to diagnose one input with: take one per input, as it starts (the block threads count from then). */
  context(): DiagnosisContext;
  /** Why the threads for large inputs could not start, once they could not: the inputs were read on one thread. */
  blocksFailure(): string | undefined;
  /** Why a started thread failed, once one did: its block and what followed were read on one thread. */
  blocksLost(): string | undefined;
  /** Lets go of the assist and the threads. */
  close(): Promise<void>;
}

/** `diagnose`'s model assist, loaded (with the openai client) only when a model is configured or misconfigured. */
async function diagnoseAssist(config: Config, problem: Error | undefined): Promise<AssistChoice> {
  if (!problem && config.OPENAI_API_KEY === undefined) return {};
  const { openAssist } = await import('./setup/assist.ts');
  return openAssist(config, problem ? { problem } : {});
}

/**
 * The playbooks, the model assist (`problem`: a bad setting, which only switches it off) and, with
 * MEMDOCTOR_DIAGNOSE_THREADS above 0, the threads that read a large input's blocks (started only
 * once an input needs them).
 */
export async function openDiagnose(config: Config, problem?: Error): Promise<DiagnoseResources> {
  const playbooks = configuredPlaybooks(config);
  const { assist, off } = await diagnoseAssist(config, problem);
  const threads = config.MEMDOCTOR_DIAGNOSE_THREADS;
  const blocks = threads > 0 ? new BlockPool(threads) : undefined;
  return {
    playbooks,
    ...(off ? { assistOff: off } : {}),
    context: () => ({
      playbooks,
      assist,
      heapDumpBudget: config.MEMDOCTOR_HEAP_DUMP_BUDGET,
      ...(blocks ? { blocks: blocks.options } : {}),
    }),
    blocksFailure: () => blocks?.failure,
    blocksLost: () => blocks?.lost,
    close: async () => {
      await Promise.all([assist?.close(), blocks?.close()]);
    },
  };
}

/**
 * The outcomes the Slack app keeps, read from the Redis it uses (`memdoctor stats`); a UsageError
 * naming REDIS_URL when none is configured.
 */
export async function openOutcomeReader(config: Config): Promise<{ outcomes: OutcomeStore; close(): void }> {
  const target = redisTarget(config);
  if (!target)
    throw new UsageError(
      'stats reads the outcomes the Slack app keeps in Redis: set REDIS_URL (or REDIS_CLUSTER_NODES) to the Redis it uses.',
    );
  // Loaded here only: the other commands never load ioredis (test/cli/lazy-redis.test.ts).
  const [{ connectTo }, { RedisKeys }, { RedisOutcomeStore }] = await Promise.all([
    import('./redis/connect.ts'),
    import('./redis/keys.ts'),
    import('./stats/redis.ts'),
  ]);
  const redis = await connectTo(target);
  const outcomes = new RedisOutcomeStore(redis, new RedisKeys(config.MEMDOCTOR_REDIS_PREFIX));
  return { outcomes, close: () => redis.disconnect() };
}
