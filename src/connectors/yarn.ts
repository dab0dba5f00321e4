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

// ContainerInfo (hadoop-yarn-server-common webapp/dao), as the RM and the Timeline Server answer it.
const Containers = z.looseObject({
  container: z.array(
    z.looseObject({
      containerId: z.string(),
      containerExitStatus: z.number().optional(),
      diagnosticsInfo: z.string().optional(),
      allocatedMB: z.number().optional(),
    }),
  ),
});

/**
 * The diagnostics the RM UI shows, "" when it wrote none. RMAppAttemptImpl appends the AM's unregister
 * message to a StringBuilder, so an AM that finished without one (Tez, on success) reads "null".
 */
function diagnosticsOf(app: z.infer<typeof App>['app']): string | undefined {
  return app.diagnostics?.trim() === 'null' ? '' : app.diagnostics;
}

/** Containers that ended with a non-zero exit status: the ones whose diagnostics say why. */
const failedContainers = (json: unknown) =>
  (loosely(Containers, json)?.container ?? []).filter((c) => (c.containerExitStatus ?? 0) !== 0);

const resources: Record<string, RestResource> = {
  app: {
    what: 'application with that id',
    ids: ['appId'],
    parser: 'yarn-container',
    path: (ids) => `/ws/v1/cluster/apps/${ids.appId}`,
    empty:
      "the application's diagnostics are empty: YARN wrote no reason for it (it does when the application or its ApplicationMaster fails), so they name no container kill",
    // A person pastes the diagnostics the RM UI shows, not the JSON around them.
    paste: (json, body) => {
      const app = loosely(App, json)?.app;
      return app ? (diagnosticsOf(app) ?? body) : body;
    },
    cite: (json) => {
      const app = loosely(App, json)?.app;
      if (!app) return [];
      const lines = diagnosticsOf(app)?.split('\n');
      const first = lines?.find((l) => /memory|exit/i.test(l)) ?? lines?.[0];
      // -1 is the RM's usage report of an application that no longer runs (no containers), not a size.
      const allocated = app.allocatedMB !== undefined && app.allocatedMB >= 0;
      return [
        `app.state = ${app.state}${app.finalStatus ? `, app.finalStatus = ${app.finalStatus}` : ''}`,
        ...(first ? [`app.diagnostics = ${first.slice(0, 300)}`] : []),
        ...(allocated ? [`app.allocatedMB = ${app.allocatedMB} MB`] : []),
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
  containers: {
    what: 'application attempt with that id (containers)',
    ids: ['appId', 'attemptId'],
    parser: 'yarn-container',
    path: (ids) => `/ws/v1/cluster/apps/${ids.appId}/appattempts/${ids.attemptId}/containers`,
    empty: 'no container of the attempt ended with a non-zero exit status, so none has a kill to read',
    // The diagnostics of the containers that failed, as the RM UI lists them.
    paste: (json) =>
      failedContainers(json)
        .map((c) => c.diagnosticsInfo ?? '')
        .join('\n'),
    cite: (json) =>
      failedContainers(json).flatMap((c) => [
        `${c.containerId}.containerExitStatus = ${c.containerExitStatus}${c.allocatedMB !== undefined ? `, allocatedMB = ${c.allocatedMB} MB` : ''}`,
        ...(c.diagnosticsInfo
          ? [`${c.containerId}.diagnosticsInfo = ${c.diagnosticsInfo.split('\n')[0]?.slice(0, 300)}`]
          : []),
      ]),
  },
};

/** The attempt id YARN gives attempt `n` of an application: appattempt_<cluster>_<app>_<n, six digits>. */
export function attemptIdOf(appId: string, attempt: number | string): string {
  if (typeof attempt === 'string' && attempt.startsWith('appattempt_')) return attempt;
  return `${appId.replace(/^application_/, 'appattempt_')}_${String(attempt).padStart(6, '0')}`;
}

/** The latest attempt in an /appattempts answer, if it lists any. */
export function lastAttemptOf(json: unknown): number | string | undefined {
  return loosely(Attempts, json)?.appAttempts.appAttempt.at(-1)?.id;
}

/** The YARN ResourceManager's REST API (port 8088). */
export const yarnConnector = restConnector({
  name: 'yarn',
  title: 'YARN ResourceManager',
  permission:
    'VIEW_APP access to the application (its owner, yarn.admin.acl, or the queue ACL when yarn.acl.enable is true)',
  idPatterns: {
    appId: { pattern: /^application_\d+_\d+$/, example: 'application_1326821518301_0005' },
    attemptId: { pattern: /^appattempt_\d+_\d+_\d+$/, example: 'appattempt_1326821518301_0005_000001' },
  },
  resources,
});
