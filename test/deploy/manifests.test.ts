import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { ConfigSchema, loadConfig } from '../../src/config.ts';
import { validate } from './k8s-validate.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const K8S = join(ROOT, 'deploy/kubernetes');
const SETTINGS = Object.keys(ConfigSchema.shape);

// biome-ignore lint/suspicious/noExplicitAny: manifests are checked field by field below, not typed.
type Doc = any;
const load = (path: string): Doc => parse(readFileSync(path, 'utf8'));
const kustomization = load(join(K8S, 'kustomization.yaml'));
const docs: Doc[] = (kustomization.resources as string[]).flatMap((file) =>
  parseAllDocuments(readFileSync(join(K8S, file), 'utf8')).map((d) => d.toJSON()),
);
const byKind = (kind: string): Doc => docs.find((d) => d.kind === kind);

describe('the Kubernetes manifests', () => {
  it('are objects the Kubernetes API accepts: known fields, required ones present', () => {
    expect(docs.map((d) => d.kind).sort()).toEqual([
      'ConfigMap',
      'Deployment',
      'PodDisruptionBudget',
      'Service',
    ]);
    for (const doc of [...docs, load(join(K8S, 'secret.example.yaml'))])
      expect(validate(doc), doc.kind).toEqual([]);
  });

  it('catch a misspelt field, a missing one and a wrong type in a broken copy (the check can fail)', () => {
    const deployment = structuredClone(byKind('Deployment'));
    deployment.spec.template.spec.containers[0].readinessprobe = {};
    deployment.spec.replicas = 'two';
    delete deployment.spec.selector;
    expect(validate(deployment)).toEqual([
      'Deployment.spec.replicas: must be integer',
      'Deployment.spec.template.spec.containers[0].readinessprobe: not a field of Container',
      'Deployment.spec: must have required property selector',
    ]);
    const service = structuredClone(byKind('Service'));
    service.spec.ports[0].port = '80';
    expect(validate(service)).toEqual(['Service.spec.ports[0].port: must be integer']);
  });

  it('probe readiness on /readyz and liveness on /livez, on the port the Service targets', () => {
    const pod = byKind('Deployment').spec.template;
    const container = pod.spec.containers[0];
    expect(container.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'http' });
    expect(container.livenessProbe.httpGet).toEqual({ path: '/livez', port: 'http' });
    expect(container.ports.map((p: Doc) => p.name)).toContain(byKind('Service').spec.ports[0].targetPort);
    expect(container.args).toEqual(['node', 'bin/memdoctor.mjs', 'serve']);
    expect(container.resources.requests).toBeDefined();
    expect(container.resources.limits.memory).toBeDefined();
  });

  it('select the Deployment’s pods in the Service and the PodDisruptionBudget', () => {
    const labels = byKind('Deployment').spec.template.metadata.labels;
    expect(byKind('Deployment').spec.selector.matchLabels).toEqual(labels);
    expect(byKind('PodDisruptionBudget').spec.selector.matchLabels).toEqual(labels);
    expect(byKind('Service').spec.selector).toEqual(labels);
    expect(byKind('PodDisruptionBudget').spec.minAvailable).toBeLessThan(byKind('Deployment').spec.replicas);
  });

  it('take tokens from the Secret and settings from the ConfigMap, all of them memdoctor settings', () => {
    const container = byKind('Deployment').spec.template.spec.containers[0];
    const secret = load(join(K8S, 'secret.example.yaml'));
    for (const env of container.env) {
      expect(SETTINGS).toContain(env.name);
      expect(env.valueFrom.secretKeyRef.name).toBe(secret.metadata.name);
      expect(env.valueFrom.secretKeyRef.key).toBe(env.name);
      if (!env.valueFrom.secretKeyRef.optional) expect(Object.keys(secret.stringData)).toContain(env.name);
    }
    expect(container.envFrom[0].configMapRef.name).toBe(byKind('ConfigMap').metadata.name);
    const settings = { ...byKind('ConfigMap').data, ...secret.stringData };
    for (const key of Object.keys(settings)) expect(SETTINGS).toContain(key);
    expect(() => loadConfig(settings)).not.toThrow();
  });
});

describe('deploy/compose.yaml', () => {
  const compose = load(join(ROOT, 'deploy/compose.yaml'));

  it('runs memdoctor from this repository with the Redis beside it', () => {
    const { memdoctor, redis } = compose.services;
    expect(memdoctor.build.context).toBe('..');
    expect(memdoctor.build.args.BASE).toMatch(/node:22/);
    expect(memdoctor.environment.REDIS_URL).toBe('redis://redis:6379/0');
    expect(memdoctor.depends_on.redis.condition).toBe('service_healthy');
    expect(redis.healthcheck.test).toEqual(['CMD', 'redis-cli', 'ping']);
    expect(() => loadConfig(memdoctor.environment)).not.toThrow();
  });
});

describe('manifest.socket-mode.yaml', () => {
  it('is the HTTP manifest with Socket Mode on and without its URLs', () => {
    const http = load(join(ROOT, 'manifest.yaml'));
    const socket = load(join(ROOT, 'manifest.socket-mode.yaml'));
    for (const command of http.features.slash_commands) delete command.url;
    delete http.settings.event_subscriptions.request_url;
    delete http.settings.interactivity.request_url;
    http.settings.socket_mode_enabled = true;
    expect(socket).toEqual(http);
    expect(readFileSync(join(ROOT, 'manifest.socket-mode.yaml'), 'utf8')).not.toContain('example.com');
  });
});
