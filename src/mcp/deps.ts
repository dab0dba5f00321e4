import type { DiagnosisContext } from '../diagnosis/index.ts';
import type { TerminalFetching } from '../usecases/connectors.ts';
import type { Playbook } from '../usecases/types.ts';
import type { WalkthroughService } from '../walkthrough/index.ts';

/**
 * What the MCP server works with, built by the root (src/memdoctor.ts) from the configuration: the
 * surface only turns tool calls into use-case requests and results into MCP results. Everything is
 * opened on first use, so the server answers `initialize` without loading the engine, the
 * playbooks or a store (an agent starts its servers when it starts, and waits for each).
 */
export interface McpDeps {
  /** memdoctor's version, as `memdoctor --version` prints it, for the server's name and version. */
  version: string;
  /** Who answers walkthroughs from this server (the user the agent runs as). */
  actor: string;
  /** The configured playbooks (MEMDOCTOR_PLAYBOOKS_DIR, else the shipped ones). */
  playbooks(): Promise<readonly Playbook[]>;
  /** What to diagnose one input with: take one per input, as it starts. */
  diagnosisContext(): Promise<DiagnosisContext>;
  /** The walkthroughs, in the store the console and Slack use (Redis when configured, else memory). */
  walkthroughs(): Promise<WalkthroughService>;
  /**
   * The APIs `check` may read (MEMDOCTOR_CONNECTORS), the one gate of this server's fetches and whom
   * they count against; a UsageError saying how to set them when unset.
   */
  connectors(): Promise<TerminalFetching>;
  /** Lets go of what was opened. */
  close(): Promise<void>;
}
