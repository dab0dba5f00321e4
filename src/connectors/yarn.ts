import { loosely, type RestResource, restConnector, z } from './rest.ts';

// AppInfo and AppAttemptInfo as the ResourceManager REST API documents them (hadoop-yarn-site
// ResourceManagerRest.md): allocatedMB in MB; diagnostics is the text the RM UI shows.
const App = z.looseObject({
  app: z.looseObject({
    id: z.string(),
    state: z.string(),
    finalStatus: z.string().optional(),
    diagnostics: z.string().optional(),
    allocatedMB: z.number().optional(),
  }),
});
const Attempts = z.looseObject({
  appAttempts: z.looseObject({
    appAttempt: z.array(
      z.looseObject({ id: z.union([z.number(), z.string()]), containerId: z.string().optional() }),
    ),
  }),
});

const resources: Record<string, RestResource> = {
  app: {
    what: 'application with that id',
    ids: ['appId'],
    parser: 'yarn-container',
    path: (ids) => `/ws/v1/cluster/apps/${ids.appId}`,
    // A person pastes the diagnostics the RM UI shows, not the JSON around them.
    paste: (json, body) => loosely(App, json)?.app.diagnostics ?? body,
    cite: (json) => {
      const app = loosely(App, json)?.app;
      if (!app) return [];
      const first =
        app.diagnostics?.split('\n').find((l) => /memory|exit/i.test(l)) ?? app.diagnostics?.split('\n')[0];
      return [
        `app.state = ${app.state}${app.finalStatus ? `, app.finalStatus = ${app.finalStatus}` : ''}`,
        ...(first ? [`app.diagnostics = ${first.slice(0, 300)}`] : []),
        ...(app.allocatedMB !== undefined ? [`app.allocatedMB = ${app.allocatedMB} MB`] : []),
      ];
    },
  },
  attempts: {
    what: 'application with that id (attempts)',
    ids: ['appId'],
    path: (ids) => `/ws/v1/cluster/apps/${ids.appId}/appattempts`,
    cite: (json) =>
      (loosely(Attempts, json)?.appAttempts.appAttempt ?? []).map(
        (a, i) => `appAttempts.appAttempt[${i}]: id ${a.id}, containerId ${a.containerId ?? 'unknown'}`,
      ),
  },
};

/** The YARN ResourceManager's REST API (port 8088). */
export const yarnConnector = restConnector({
  name: 'yarn',
  title: 'YARN ResourceManager',
  permission:
    'VIEW_APP access to the application (its owner, yarn.admin.acl, or the queue ACL when yarn.acl.enable is true)',
  idPatterns: { appId: { pattern: /^application_\d+_\d+$/, example: 'application_1326821518301_0005' } },
  resources,
});
