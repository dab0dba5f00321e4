import { loadConfig } from './config.ts';

/**
 * `memdoctor serve`: the Slack app, and only the Slack app. Without its credentials startSlack stops
 * with a message naming them, instead of falling back to the console as `npm start` does, so a
 * container without secrets fails visibly rather than exiting 0.
 */
export async function serve(): Promise<number> {
  try {
    const config = loadConfig();
    const { startSlack } = await import('./slack/start.ts');
    await startSlack(config);
    return 0;
  } catch (error) {
    // The CLI prints the message and sets the exit code; what a failed start leaves behind (the
    // Slack client retrying its token check for minutes) must not keep the process up after that.
    setTimeout(() => process.exit(2), 500).unref();
    throw error;
  }
}
