// The Kubernetes object fields memdoctor's manifests use, with each object's required fields: a subset
// of the API's OpenAPI definitions (kubernetes/kubernetes api/openapi-spec/v3, Kubernetes 1.30 API
// reference), transcribed by hand. `validate` is the one entry point, so a full validator
// (kubernetes-models: `new Deployment(doc).validate()`) can replace this table without touching the tests.

/** A field's type: another definition, a list of one, a string map, or a plain value. */
type Field = string | { list: string } | 'map' | 'value';
interface Definition {
  required?: readonly string[];
  fields: Readonly<Record<string, Field>>;
}

const META: Definition = {
  fields: { name: 'value', namespace: 'value', labels: 'map', annotations: 'map' },
};
const SELECTOR: Definition = { fields: { matchLabels: 'map', matchExpressions: 'value' } };
const KEY_REF: Definition = { required: ['key'], fields: { name: 'value', key: 'value', optional: 'value' } };

export const DEFINITIONS: Readonly<Record<string, Definition>> = {
  'apps/v1 Deployment': {
    fields: { apiVersion: 'value', kind: 'value', metadata: 'ObjectMeta', spec: 'DeploymentSpec' },
  },
  'v1 Service': {
    fields: { apiVersion: 'value', kind: 'value', metadata: 'ObjectMeta', spec: 'ServiceSpec' },
  },
  'v1 ConfigMap': { fields: { apiVersion: 'value', kind: 'value', metadata: 'ObjectMeta', data: 'map' } },
  'v1 Secret': {
    fields: {
      apiVersion: 'value',
      kind: 'value',
      metadata: 'ObjectMeta',
      type: 'value',
      stringData: 'map',
      data: 'map',
    },
  },
  'policy/v1 PodDisruptionBudget': {
    fields: { apiVersion: 'value', kind: 'value', metadata: 'ObjectMeta', spec: 'PodDisruptionBudgetSpec' },
  },
  ObjectMeta: META,
  LabelSelector: SELECTOR,
  DeploymentSpec: {
    required: ['selector', 'template'],
    fields: {
      replicas: 'value',
      revisionHistoryLimit: 'value',
      minReadySeconds: 'value',
      selector: 'LabelSelector',
      strategy: 'DeploymentStrategy',
      template: 'PodTemplateSpec',
    },
  },
  DeploymentStrategy: { fields: { type: 'value', rollingUpdate: 'RollingUpdateDeployment' } },
  RollingUpdateDeployment: { fields: { maxUnavailable: 'value', maxSurge: 'value' } },
  PodTemplateSpec: { fields: { metadata: 'ObjectMeta', spec: 'PodSpec' } },
  PodSpec: {
    required: ['containers'],
    fields: {
      containers: { list: 'Container' },
      terminationGracePeriodSeconds: 'value',
      automountServiceAccountToken: 'value',
      securityContext: 'PodSecurityContext',
      volumes: { list: 'Volume' },
    },
  },
  PodSecurityContext: {
    fields: {
      runAsNonRoot: 'value',
      runAsUser: 'value',
      runAsGroup: 'value',
      fsGroup: 'value',
      seccompProfile: 'SeccompProfile',
    },
  },
  SeccompProfile: { required: ['type'], fields: { type: 'value', localhostProfile: 'value' } },
  Container: {
    required: ['name'],
    fields: {
      name: 'value',
      image: 'value',
      imagePullPolicy: 'value',
      command: 'value',
      args: 'value',
      ports: { list: 'ContainerPort' },
      env: { list: 'EnvVar' },
      envFrom: { list: 'EnvFromSource' },
      readinessProbe: 'Probe',
      livenessProbe: 'Probe',
      startupProbe: 'Probe',
      resources: 'ResourceRequirements',
      securityContext: 'SecurityContext',
      volumeMounts: { list: 'VolumeMount' },
    },
  },
  ContainerPort: {
    required: ['containerPort'],
    fields: { name: 'value', containerPort: 'value', protocol: 'value' },
  },
  EnvVar: { required: ['name'], fields: { name: 'value', value: 'value', valueFrom: 'EnvVarSource' } },
  EnvVarSource: { fields: { secretKeyRef: 'SecretKeySelector', configMapKeyRef: 'ConfigMapKeySelector' } },
  SecretKeySelector: KEY_REF,
  ConfigMapKeySelector: KEY_REF,
  EnvFromSource: { fields: { configMapRef: 'EnvSource', secretRef: 'EnvSource', prefix: 'value' } },
  EnvSource: { fields: { name: 'value', optional: 'value' } },
  Probe: {
    fields: {
      httpGet: 'HTTPGetAction',
      initialDelaySeconds: 'value',
      periodSeconds: 'value',
      timeoutSeconds: 'value',
      failureThreshold: 'value',
      successThreshold: 'value',
    },
  },
  HTTPGetAction: { required: ['port'], fields: { path: 'value', port: 'value', scheme: 'value' } },
  ResourceRequirements: { fields: { requests: 'map', limits: 'map' } },
  SecurityContext: {
    fields: {
      allowPrivilegeEscalation: 'value',
      readOnlyRootFilesystem: 'value',
      capabilities: 'Capabilities',
      runAsNonRoot: 'value',
    },
  },
  Capabilities: { fields: { add: 'value', drop: 'value' } },
  VolumeMount: {
    required: ['name', 'mountPath'],
    fields: { name: 'value', mountPath: 'value', readOnly: 'value' },
  },
  Volume: { required: ['name'], fields: { name: 'value', emptyDir: 'EmptyDirVolumeSource' } },
  EmptyDirVolumeSource: { fields: { medium: 'value', sizeLimit: 'value' } },
  ServiceSpec: { fields: { type: 'value', selector: 'map', ports: { list: 'ServicePort' } } },
  ServicePort: {
    required: ['port'],
    fields: { name: 'value', port: 'value', targetPort: 'value', protocol: 'value' },
  },
  PodDisruptionBudgetSpec: {
    fields: { minAvailable: 'value', maxUnavailable: 'value', selector: 'LabelSelector' },
  },
};

function checkField(field: Field, child: unknown, path: string, problems: string[]): void {
  if (field === 'value') return;
  if (field === 'map') {
    const values = Object.values((child ?? {}) as object);
    if (values.some((v) => typeof v !== 'string')) problems.push(`${path}: values must be strings`);
  } else if (typeof field === 'string') check(child, field, path, problems);
  else if (!Array.isArray(child)) problems.push(`${path}: must be a list`);
  else for (const [i, item] of child.entries()) check(item, field.list, `${path}[${i}]`, problems);
}

function check(value: unknown, name: string, path: string, problems: string[]): void {
  const definition = DEFINITIONS[name];
  if (!definition) {
    problems.push(`${path}: no definition ${name}`);
    return;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    problems.push(`${path}: must be an object (${name})`);
    return;
  }
  const object = value as Record<string, unknown>;
  for (const key of definition.required ?? [])
    if (!(key in object)) problems.push(`${path}.${key}: required by ${name}`);
  for (const [key, child] of Object.entries(object)) {
    const field = definition.fields[key];
    if (field === undefined) problems.push(`${path}.${key}: not a field of ${name}`);
    else checkField(field, child, `${path}.${key}`, problems);
  }
}

/** What is wrong with a manifest document, by its apiVersion and kind; empty when nothing is. */
export function validate(doc: { apiVersion?: string; kind?: string }): string[] {
  const problems: string[] = [];
  check(doc, `${doc.apiVersion} ${doc.kind}`, doc.kind ?? '?', problems);
  return problems;
}
