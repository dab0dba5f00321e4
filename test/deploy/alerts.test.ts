import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { parseAlertsConfig, RECEIVER_PATHS } from '../../src/alerts/config.ts';
import { loadConfig } from '../../src/config.ts';
import { validate } from './k8s-validate.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const OVERLAY = join(ROOT, 'deploy/kubernetes-alerts');

// biome-ignore lint/suspicious/noExplicitAny: manifests are checked field by field below, not typed.
type Doc = any;
const load = (file: string): Doc => parse(readFileSync(join(OVERLAY, file), 'utf8'));
const kustomization = load('kustomization.yaml');
const own: Doc[] = (kustomization.resources as string[]).filter((r) => !r.startsWith('..')).map(load);
const patches: Doc[] = (kustomization.patches as { path: string }[]).map((p) => load(p.path));
const ofKind = (docs: Doc[], kind: string): Doc => docs.find((d) => d.kind === kind);
const SECRET_DIR = '/etc/memdoctor/alert-secrets/';
const kubectl = spawnSync('kubectl', ['version', '--client'], { stdio: 'ignore' }).status === 0;

describe('deploy/kubernetes-alerts', () => {
  it('holds objects the Kubernetes API accepts', () => {
    // The patches are partial objects: checked once merged, below.
    for (const doc of [...own, load('alert-secrets.example.yaml')])
      expect(validate(doc), doc.kind).toEqual([]);
  });

  it.skipIf(!kubectl)(
    'builds with `kubectl kustomize` into objects the API accepts, the routing file mounted',
    () => {
      const run = spawnSync('kubectl', ['kustomize', OVERLAY], { encoding: 'utf8' });
      if (run.status !== 0) throw new Error(`kubectl kustomize failed: ${run.stderr}`);
      const built = parseAllDocuments(run.stdout).map((d) => d.toJSON());
      for (const doc of built) expect(validate(doc), doc.kind).toEqual([]);
      const deployment = ofKind(built, 'Deployment');
      expect(deployment.spec.template.spec.containers[0].volumeMounts.map((m: Doc) => m.mountPath)).toEqual(
        expect.arrayContaining(['/etc/memdoctor/alerts', '/etc/memdoctor/alert-secrets']),
      );
      const settings = built.find((d) => d.kind === 'ConfigMap' && d.metadata.name === 'memdoctor-config');
      expect(settings.data.MEMDOCTOR_ALERTS).toBe('/etc/memdoctor/alerts/alerts.yaml');
      expect(settings.data.PORT).toBe('3000');
    },
  );

  it('mounts the routing file where MEMDOCTOR_ALERTS points, and the secrets where it reads them', () => {
    const setting = ofKind(patches, 'ConfigMap').data.MEMDOCTOR_ALERTS as string;
    expect(() => loadConfig({ MEMDOCTOR_ALERTS: setting })).not.toThrow();
    const pod = ofKind(patches, 'Deployment').spec.template.spec;
    const mounts = pod.containers[0].volumeMounts as { name: string; mountPath: string }[];
    const routes = ofKind(own, 'ConfigMap');
    const alertsVolume = pod.volumes.find((v: Doc) => v.configMap?.name === routes.metadata.name);
    const alertsMount = mounts.find((m) => m.name === alertsVolume.name);
    expect(setting).toBe(`${alertsMount?.mountPath}/${Object.keys(routes.data)[0]}`);
    const secret = load('alert-secrets.example.yaml');
    const secretVolume = pod.volumes.find((v: Doc) => v.secret?.secretName === secret.metadata.name);
    expect(`${mounts.find((m) => m.name === secretVolume.name)?.mountPath}/`).toBe(SECRET_DIR);
  });

  it('ships a routing file memdoctor accepts, whose secrets are all in the example Secret', () => {
    const text = Object.values(ofKind(own, 'ConfigMap').data)[0] as string;
    const secret = load('alert-secrets.example.yaml');
    const dir = mkdtempSync(join(tmpdir(), 'alert-secrets-'));
    for (const [key, value] of Object.entries(secret.stringData)) writeFileSync(join(dir, key), `${value}`);
    const referenced = [...text.matchAll(/file:(\S+?)["\]\s]/g)].map((m) => m[1]);
    expect(referenced.length).toBeGreaterThan(0);
    for (const path of referenced)
      expect(Object.keys(secret.stringData)).toContain(path?.replace(SECRET_DIR, ''));
    const config = parseAlertsConfig(text.replaceAll(SECRET_DIR, `${dir}/`), 'alerts.yaml', () => undefined);
    expect(Object.keys(config.receivers).sort()).toEqual(['alertmanager', 'gcp', 'pagerduty', 'sns']);
  });

  it('routes every receiver path and /slack/events through the Ingress to the Service port', () => {
    const ingress = ofKind(own, 'Ingress');
    const paths = ingress.spec.rules[0].http.paths as Doc[];
    const service = parse(readFileSync(join(ROOT, 'deploy/kubernetes/service.yaml'), 'utf8'));
    for (const path of paths) {
      expect(path.backend.service.name).toBe(service.metadata.name);
      expect(path.backend.service.port.name).toBe(service.spec.ports[0].name);
    }
    const served = (p: string) =>
      paths.some((r) => (r.pathType === 'Exact' ? r.path === p : p === r.path || p.startsWith(`${r.path}/`)));
    expect(served('/slack/events')).toBe(true);
    for (const path of Object.values(RECEIVER_PATHS)) expect(served(path), path).toBe(true);
  });
});
