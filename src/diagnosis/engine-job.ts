import type { EngineHint, EngineResult } from '../engine/index.ts';

/** One input for the engine in a worker thread: text, or the bytes of a file (plain or gzip). */
export interface EngineJob {
  source: string;
  text?: string;
  bytes?: Uint8Array;
  engine?: EngineHint;
  maxBytes?: number;
}

/** Runs the engine somewhere else (a worker pool, see setup/engine-pool.ts) and resolves to its result. */
export type EngineOffload = (job: EngineJob) => Promise<EngineResult>;

/** What comes back: the engine's result, or the error it threw as plain data (classes do not cross threads). */
export type EngineReply = { ok: true; result: EngineResult } | { ok: false; code: string; message: string };
