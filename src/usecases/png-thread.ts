import { Worker } from 'node:worker_threads';

/**
 * One thread that turns SVG into PNG with resvg, so that none of it runs on the event loop that
 * acknowledges Slack. resvg's `renderAsync` draws on libuv's pool, but its `asPng()` then encodes on
 * the calling thread: measured here at 14-27 ms per chart on a quiet machine, 43-102 ms at load 11,
 * and 330-470 ms for a chart three times the size. In this thread the loop only posts the SVG and
 * takes the bytes back (transferred, not copied).
 *
 * The thread's code is given inline rather than as a file: resvg is an external package that the
 * bundle does not hold, so the thread loads it by the path resolved here, and the build needs no
 * entry of its own. It is started on the first chart, kept while charts are asked for, stopped once
 * idle, and never holds the process open when idle.
 */

const THREAD_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const { Resvg } = require(workerData.resvg);
parentPort.on('message', ({ id, svg, options }) => {
  try {
    const png = new Resvg(svg, options).render().asPng();
    const bytes = new Uint8Array(png);
    parentPort.postMessage({ id, png: bytes }, [bytes.buffer]);
  } catch (error) {
    parentPort.postMessage({ id, error: String((error && error.message) || error) });
  }
});
`;

/** How long the thread waits for another chart before it stops. */
export const IDLE_STOP_MS = 1_000;

interface Reply {
  id: number;
  png?: Uint8Array;
  error?: string;
}

interface Waiting {
  resolve: (png: Uint8Array) => void;
  reject: (error: Error) => void;
}

/** The PNG thread: started on first use, answering in turn; a thread that dies fails what it held. */
export class PngThread {
  private worker: Worker | undefined;
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 0;

  /** `resvg`: the path of @resvg/resvg-js's entry, as require.resolve gives it. */
  constructor(private readonly resvg: string) {}

  /** The PNG of `svg` drawn with resvg's `options` (plain data: fonts by path, zoom). */
  render(svg: string, options: object): Promise<Uint8Array> {
    const worker = this.started();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      // Held open while a chart is drawn: a command awaiting its PNG must not exit under it.
      worker.ref();
      worker.postMessage({ id, svg, options });
    });
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(THREAD_CODE, {
      eval: true,
      workerData: { resvg: this.resvg },
      resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 48 },
    });
    worker.on('message', (reply: Reply) => this.answer(reply));
    worker.on('error', (error) => this.lose(worker, error));
    worker.on('exit', (code) => this.lose(worker, new Error(`the PNG thread stopped (exit code ${code})`)));
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private answer({ id, png, error }: Reply): void {
    const waiting = this.waiting.get(id);
    this.waiting.delete(id);
    if (this.waiting.size === 0) {
      this.worker?.unref();
      this.stopWhenIdle();
    }
    if (!waiting) return;
    if (png) waiting.resolve(png);
    else waiting.reject(new Error(error ?? 'the PNG thread answered nothing'));
  }

  private idleTimer: NodeJS.Timeout | undefined;

  /** Whether the thread is up (started by a chart, not yet stopped for being idle). */
  get running(): boolean {
    return this.worker !== undefined;
  }

  /**
   * Stopped once idle for IDLE_STOP_MS: the thread and resvg hold about 18 MiB, and drawing leaves
   * more in its arena (a bot's RSS was 20 MiB lower once it stopped); the next chart starts it again.
   */
  private stopWhenIdle(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      const worker = this.worker;
      if (this.waiting.size > 0 || !worker) return;
      this.worker = undefined;
      void worker.terminate();
    }, IDLE_STOP_MS).unref();
  }

  /** The thread failed: what it held fails with its reason, and the next chart starts a new one. */
  private lose(worker: Worker, error: Error): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    for (const waiting of this.waiting.values()) waiting.reject(error);
    this.waiting.clear();
  }
}
