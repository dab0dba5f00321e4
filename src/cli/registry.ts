import type { Command } from './command.ts';
import { keepYoungGenerationSmall } from './young-generation.ts';

/** What `help` shows about a verb; `load` brings in its code (and its dependencies) only when it runs. */
export interface CommandSpec {
  readonly name: string;
  readonly summary: string;
  readonly usage: string;
  load(): Promise<Command>;
}

/**
 * Every `memdoctor` verb of the CLI (`serve`, the Slack app, is added by the root, src/memdoctor.ts). Adding one: one file under commands/, one entry here. Each loads lazily, so
 * `diagnose` never pays for Redis or the model client that `walk` or the console may need.
 */
export const COMMANDS: Readonly<Record<string, CommandSpec>> = {
  diagnose: {
    name: 'diagnose',
    summary: 'diagnose logs or pasted errors (files, .gz, or stdin)',
    usage:
      'memdoctor diagnose [--json] [--engine glue|spark|flink|beam] [--fail-when-none] [FILE...]\n' +
      '  FILE may be .gz; - or no FILE reads stdin.\n' +
      '  Exit 0 diagnosed, 2 unreadable input or bad usage; with --fail-when-none, 1 when nothing was recognised.',
    // Before the command's code: loading it already grew V8's new space to 8 MiB (young-generation.ts).
    load: async () => {
      keepYoungGenerationSmall();
      return (await import('./commands/diagnose.ts')).diagnoseCommand;
    },
  },
  playbooks: {
    name: 'playbooks',
    summary: 'list, lint or test the playbooks',
    usage: 'memdoctor playbooks list|lint|test',
    load: async () => (await import('./commands/playbooks.ts')).playbooksCommand,
  },
  extractors: {
    name: 'extractors',
    summary: 'list the extractors that turn log lines into facts',
    usage: 'memdoctor extractors',
    load: async () => (await import('./commands/extractors.ts')).extractorsCommand,
  },
  walk: {
    name: 'walk',
    summary: "step through a playbook's procedure (kept in Redis when REDIS_URL is set)",
    usage:
      'memdoctor walk <playbook> [--from LOG]   (--from: steps the log already answers are skipped; answers come from stdin)',
    load: async () => (await import('./commands/walk.ts')).walkCommand,
  },
  resume: {
    name: 'resume',
    summary: 'continue a walkthrough by its id (needs REDIS_URL across restarts)',
    usage: 'memdoctor resume <walkthrough-id>',
    load: async () => (await import('./commands/resume.ts')).resumeCommand,
  },
  check: {
    name: 'check',
    summary:
      'fetch the evidence from a configured Flink, Spark, YARN, Kubernetes or AWS Glue API and diagnose it (MEMDOCTOR_CONNECTORS)',
    usage:
      'memdoctor check flink [--job <job-id>] | check spark <app-id> | check yarn <app-id>\n' +
      '               | check kubernetes <namespace>/<pod> (or k8s; <pod> alone: the configured namespace)\n' +
      '               | check glue <job-name>/<run-id>   [--json]\n' +
      '  Reads only the URLs, the cluster and the AWS regions in the connectors.yaml that MEMDOCTOR_CONNECTORS names (docs/connectors.md).\n' +
      '  Exit 0 checked, 2 bad usage, configuration, or no answer from the system (paste the output instead).',
    load: async () => (await import('./commands/check.ts')).checkCommand,
  },
  calc: {
    name: 'calc',
    summary: 'compute memory budgets the way Spark, Glue, Flink and Beam/Dataflow do',
    usage:
      'memdoctor calc spark|glue|flink|flink-slots|beam [--json] [--<setting> value ...] (memdoctor calc <system> help lists flags)',
    load: async () => (await import('./commands/calc.ts')).calcCommand,
  },
  parse: {
    name: 'parse',
    summary: 'read a dump (pmap, NMT, GC log, event log...) and print its figures; `parse list` names them',
    usage: 'memdoctor parse <parser|auto> [--json] FILE (- reads stdin, .gz works) | memdoctor parse list',
    load: async () => (await import('./commands/parse.ts')).parseCommand,
  },
  stats: {
    name: 'stats',
    summary: 'what was diagnosed and what fixed it, per playbook and cause (needs REDIS_URL)',
    usage: 'memdoctor stats <slack-team-id>',
    load: async () => (await import('./commands/stats.ts')).statsCommand,
  },
};
