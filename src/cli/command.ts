/** Where a command reads and writes, so tests can drive commands without a terminal. */
export interface CliIo {
  stdin: NodeJS.ReadableStream;
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

/** One `memdoctor <name>` verb's code; its name, summary and usage live in registry.ts. */
export interface Command {
  /** Runs the command; resolves to the process exit code. */
  run(args: readonly string[], io: CliIo): Promise<number>;
}
