import type { StoredInput } from '../engine/case/index.ts';
import type { EngineHint, EngineResult } from '../engine/index.ts';

/** One input for the engine in a worker thread: text, or the bytes of a file (plain or gzip) as they arrive. */
export interface EngineJob {
  source: string;
  text?: string;
  /** A file's bytes, read as the thread asks for them (setup/chunk-stream.ts), never gathered whole. */
  chunks?: AsyncIterable<Uint8Array>;
  /**
   * Told the bytes of each chunk once the engine has read it: what the Slack app's in-flight cap
   * releases (the bytes are no longer held for this input).
   */
  onRead?: (bytes: number) => void;
  engine?: EngineHint;
  maxBytes?: number;
  /**
   * Runs the thread's work once the input has its thread, holding what the input holds meanwhile
   * (a paste's bytes under the Slack app's in-flight cap): an input waiting for a thread holds none.
   */
  admit?: <T>(work: () => Promise<T>) => Promise<T>;
}

/** One input of a case, read elsewhere into what a case keeps (its keys and facts), up to `maxBytes` of text. */
export interface CaseInputJob {
  source: string;
  chunks: AsyncIterable<Uint8Array>;
  onRead?: (bytes: number) => void;
  maxBytes: number;
}

/** Reads a case's input somewhere else (the Slack app's worker pool) and resolves to what the case keeps. */
export type CaseInputOffload = (job: CaseInputJob) => Promise<StoredInput>;

/** Runs the engine somewhere else (a worker pool, see setup/engine-pool.ts) and resolves to its result. */
export type EngineOffload = (job: EngineJob) => Promise<EngineResult>;

/** What comes back: the engine's result, or the error it threw as plain data (classes do not cross threads). */
export type EngineReply =
  | { ok: true; result: EngineResult }
  | { ok: true; stored: StoredInput }
  | { ok: false; code: string; message: string };
