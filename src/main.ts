import { loadConfig, slackConfigured } from './config.ts';
import { asMemdoctorError } from './errors.ts';

/**
 * `npm start` (a developer's shortcut): the Slack bot when Slack credentials are set, otherwise the
 * local console. Deployments run `memdoctor serve`, which never falls back to the console.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  if (slackConfigured(config)) {
    const { startSlack } = await import('./serve.ts');
    await startSlack(config);
    return;
  }
  const { startConsole } = await import('./cli/console/start.ts');
  process.exitCode = await startConsole(config);
}

main().catch((error) => {
  process.stderr.write(`memdoctor: ${asMemdoctorError(error).message}\n`);
  // Exit now: what was started before the failure (the Slack client's token check and its retries)
  // would otherwise keep the process alive for minutes. stderr is synchronous for files and pipes.
  process.exit(2);
});
