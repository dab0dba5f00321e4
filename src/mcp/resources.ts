import { type McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { UsageError } from '../errors.ts';
import type { McpDeps } from './deps.ts';
import type { SessionDiagnoses } from './session.ts';

/** A template variable as one string (a template may give a list for exploded variables). */
function one(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

/** `memdoctor://playbooks/<id>`: each playbook as Markdown, its procedure included. */
function registerPlaybookResources(server: McpServer, deps: McpDeps): void {
  const template = new ResourceTemplate('memdoctor://playbooks/{id}', {
    list: async () => ({
      resources: (await deps.playbooks()).map((p) => ({
        uri: `memdoctor://playbooks/${p.id}`,
        name: p.id,
        title: p.title,
        description: p.summary,
        mimeType: 'text/markdown',
      })),
    }),
    complete: {
      id: async (typed) => (await deps.playbooks()).map((p) => p.id).filter((id) => id.startsWith(typed)),
    },
  });
  server.registerResource(
    'playbook',
    template,
    {
      title: 'A memdoctor playbook',
      description: 'what it recognises, what to do, its procedure',
      mimeType: 'text/markdown',
    },
    async (uri, { id }) => {
      const { playbookById, playbookMarkdown } = await import('./playbook-text.ts');
      const playbook = playbookById(await deps.playbooks(), decodeURIComponent(one(id)));
      return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: playbookMarkdown(playbook) }] };
    },
  );
}

/** `memdoctor://diagnoses/<n>`: the diagnoses this session made, as the diagnose tool returned them. */
function registerDiagnosisResources(server: McpServer, session: SessionDiagnoses): void {
  const template = new ResourceTemplate('memdoctor://diagnoses/{n}', {
    list: () => ({
      resources: session
        .list()
        .toReversed()
        .map((d) => ({
          uri: `memdoctor://diagnoses/${d.n}`,
          name: `diagnosis ${d.n}`,
          title: `${d.sources.join(', ')} (${d.at})`,
          mimeType: 'application/json',
        })),
    }),
  });
  server.registerResource(
    'diagnosis',
    template,
    {
      title: 'A diagnosis of this session',
      description: "diagnose's JSON for an input diagnosed since this server started (the last 20 are kept)",
      mimeType: 'application/json',
    },
    (uri, { n }) => {
      const kept = session.get(Number(one(n)));
      if (!kept)
        throw new UsageError(
          `no diagnosis ${one(n)} in this session: the last ${session.list().length} are kept; list the resources to see them.`,
        );
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(kept.json) }] };
    },
  );
}

/** The server's resources: the playbooks and the session's diagnoses. */
export function registerResources(server: McpServer, deps: McpDeps, session: SessionDiagnoses): void {
  registerPlaybookResources(server, deps);
  registerDiagnosisResources(server, session);
}
