import type { Command } from '../command.ts';

/** `memdoctor serve`: runs the Slack app (src/serve.ts); the CLI layer itself knows no Slack. */
export const serveCommand: Command = {
  async run() {
    const { serve } = await import('../../serve.ts');
    return serve();
  },
};
