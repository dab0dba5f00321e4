/**
 * Every Redis key the LLM assist uses, built in one place so names never drift and a test can run
 * under its own prefix.
 */
// @ts-nocheck

export class LlmKeys {
  constructor(private readonly prefix = 'memdoctor') {}

  /** A cached model answer, by the sha256 of everything that shaped the request. */
  cache(hash: string): string {
    return `${this.prefix}:llm:cache:${hash}`;
  }

  /** A workspace's request counter for one fixed window (window = epoch seconds / length). */
  rate(workspace: string, window: number): string {
    return `${this.prefix}:llm:rate:${workspace}:${window}`;
  }
}
