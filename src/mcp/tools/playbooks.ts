import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { McpDeps } from '../deps.ts';
import { answer, guarded } from '../results.ts';
import { PlaybookJson } from '../schemas.ts';

const Listed = z.object({
  id: z.string(),
  title: z.string(),
  engine: z.string(),
  summary: z.string(),
  walkthrough: z.boolean().describe('whether walkthrough_start can walk through it'),
});

const PlaybooksOutput = z.object({
  playbooks: z.array(Listed).optional().describe('without id: every playbook'),
  playbook: PlaybookJson.optional().describe('with id: that playbook, its procedure included'),
});

/** `playbooks`: the list (memdoctor playbooks list), or one playbook with its procedure. */
export function registerPlaybooks(server: McpServer, deps: McpDeps): void {
  server.registerTool(
    'playbooks',
    {
      title: "memdoctor's playbooks",
      description:
        "Without id: every playbook memdoctor diagnoses with (id, title, engine, whether it has a walkthrough). With id: that playbook's actions, checks, sources and step-by-step procedure (also the resource memdoctor://playbooks/<id>).",
      inputSchema: { id: z.string().min(1).optional().describe('a playbook id, e.g. jvm-oom') },
      outputSchema: PlaybooksOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    guarded(async ({ id }: { id?: string | undefined }) => {
      const known = await deps.playbooks();
      if (id !== undefined) {
        const { playbookById, playbookJson, playbookMarkdown } = await import('../playbook-text.ts');
        const playbook = playbookById(known, id);
        return answer(playbookMarkdown(playbook), { playbook: playbookJson(playbook) });
      }
      const playbooks = known.map((p) => ({
        id: p.id,
        title: p.title,
        engine: p.engine,
        summary: p.summary,
        walkthrough: p.procedure !== undefined,
      }));
      const text = playbooks.map((p) => `${p.id}: ${p.title}${p.walkthrough ? '' : ' (no walkthrough)'}`);
      return answer(text.join('\n'), { playbooks });
    }),
  );
}
