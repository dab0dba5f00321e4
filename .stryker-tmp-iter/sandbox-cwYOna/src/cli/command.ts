/** Where a command reads and writes, so tests can drive commands without a terminal. */
// @ts-nocheck

export interface CliIo {
  stdin: NodeJS.ReadableStream;
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

/** One `memdoctor <name>` verb. */
export interface Command {
  readonly name: string;
  readonly summary: string;
  readonly usage: string;
  /** Runs the command; resolves to the process exit code. */
  run(args: readonly string[], io: CliIo): Promise<number>;
}
