import type { ConnectorsConfig } from '../connectors/config.ts';
import type { DiagnosisContext } from '../diagnosis/index.ts';
import type { Playbook } from '../usecases/types.ts';
import type { WalkthroughService } from '../walkthrough/index.ts';

/**
 * What the MCP server works with, built by the root (src/console.ts) from the configuration: the
 * surface only turns tool calls into use-case requests and results into MCP results.
 */
export interface McpDeps {
  /** memdoctor's version, as `memdoctor --version` prints it, for the server's name and version. */
  version: string;
  playbooks: readonly Playbook[];
  /** What to diagnose one input with: take one per input, as it starts. */
  diagnosisContext(): DiagnosisContext;
  /**
   * The walkthroughs, in the store the console and Slack use (Redis when configured, else memory).
   * Opened on the first walkthrough call, so a server that only diagnoses never connects to Redis.
   */
  walkthroughs(): Promise<WalkthroughService>;
  /** The APIs `check` may read (MEMDOCTOR_CONNECTORS); a UsageError saying how to set them when unset. */
  connectors(): ConnectorsConfig;
  /** Who answers walkthroughs from this server (the user the agent runs as). */
  actor: string;
  /** Lets go of the store and the threads. */
  close(): Promise<void>;
}
