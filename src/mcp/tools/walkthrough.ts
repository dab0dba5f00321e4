import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { McpDeps } from '../deps.ts';
import { guarded } from '../results.ts';
import type { SessionDiagnoses } from '../session.ts';
import { StatusOutput, WalkthroughState } from '../walkthrough-schema.ts';
import type { AnswerArgs, StartArgs } from './walkthrough-run.ts';

/** The walkthroughs' code, loaded on the first walkthrough call (it brings the step kinds and the store). */
const run = () => import('./walkthrough-run.ts');

/** `walkthrough_start`, `walkthrough_answer`, `walkthrough_status`: a playbook's procedure, step by step. */
export function registerWalkthroughs(server: McpServer, deps: McpDeps, session: SessionDiagnoses): void {
  registerStart(server, deps, session);
  registerAnswer(server, deps);
  registerStatus(server, deps);
}

function registerStart(server: McpServer, deps: McpDeps, session: SessionDiagnoses): void {
  server.registerTool(
    'walkthrough_start',
    {
      title: "Start walking through a playbook's procedure",
      description:
        "Starts a playbook's step-by-step procedure, in the same store as memdoctor's console and Slack app. Steps the last diagnosis already answers are skipped. Without playbook: the top diagnosis of the last diagnose call.",
      inputSchema: {
        playbook: z.string().min(1).optional().describe('a playbook id (the playbooks tool lists them)'),
        diagnosis: z
          .number()
          .int()
          .min(1)
          .optional()
          .describe('the session diagnosis to start from (default: the last)'),
      },
      outputSchema: WalkthroughState,
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    },
    guarded(async (args: StartArgs) => (await run()).start(deps, session, args)),
  );
}

function registerAnswer(server: McpServer, deps: McpDeps): void {
  server.registerTool(
    'walkthrough_answer',
    {
      title: 'Answer the current step of a walkthrough',
      description:
        "Answers the walkthrough's current step, as the user would at the console: an option's number or label word (done, skip, cant), a measurement as the tool shows it (85%, 3.5 GiB, 7.8 min), for a paste step the command's output (or path to a file holding it), or for a heap-dump step the path of the .hprof or .hprof.gz file (read and analysed on this machine). back undoes the last answer; abort gives up.",
      inputSchema: {
        id: z.string().min(1).describe('the walkthrough id walkthrough_start gave'),
        answer: z.string().min(1).optional(),
        path: z
          .string()
          .min(1)
          .optional()
          .describe(
            "a file on this machine holding a paste step's output, or a heap-dump step's dump; only read",
          ),
        version: z
          .number()
          .int()
          .min(0)
          .optional()
          .describe('the version you last saw: refused if it moved on'),
      },
      outputSchema: WalkthroughState,
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    },
    guarded(async (args: AnswerArgs) => (await run()).answerOne(deps, args)),
  );
}

function registerStatus(server: McpServer, deps: McpDeps): void {
  server.registerTool(
    'walkthrough_status',
    {
      title: 'Where walkthroughs stand',
      description:
        "The active walkthroughs (the console's and this server's); with id, that walkthrough's state and its Markdown transcript.",
      inputSchema: { id: z.string().min(1).optional() },
      outputSchema: StatusOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    guarded(async ({ id }: { id?: string | undefined }) => (await run()).status(deps, id)),
  );
}
