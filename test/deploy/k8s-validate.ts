// Checks a manifest against the Kubernetes API's own OpenAPI definitions, through two maintained
// libraries generated from them, so nothing here is transcribed by hand:
// - kubernetes-models (its JSON schemas, compiled with ajv): types, formats, required fields;
// - @kubernetes/client-node (the official client, already a dependency): each model's attribute map,
//   for fields the API does not define. The OpenAPI definitions leave `additionalProperties` open, so a
//   schema validator alone passes a misspelt field (`readinessprobe`) that the API server would drop.
import * as k8s from '@kubernetes/client-node';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { Role } from 'kubernetes-models/rbac.authorization.k8s.io/v1/Role';
import { RoleBinding } from 'kubernetes-models/rbac.authorization.k8s.io/v1/RoleBinding';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';
import { ServiceAccount } from 'kubernetes-models/v1/ServiceAccount';

interface Model {
  validate(): void;
}
interface Kind {
  model: new (doc: never) => Model;
  /** The client's model name for the object (its attribute map lists the fields). */
  client: string;
}

/** The kinds memdoctor's manifests use, by `apiVersion kind`. */
const KINDS: Readonly<Record<string, Kind>> = {
  'apps/v1 Deployment': { model: Deployment, client: 'V1Deployment' },
  'v1 Service': { model: Service, client: 'V1Service' },
  'networking.k8s.io/v1 Ingress': { model: Ingress, client: 'V1Ingress' },
  'v1 ConfigMap': { model: ConfigMap, client: 'V1ConfigMap' },
  'v1 Secret': { model: Secret, client: 'V1Secret' },
  'policy/v1 PodDisruptionBudget': { model: PodDisruptionBudget, client: 'V1PodDisruptionBudget' },
  'v1 ServiceAccount': { model: ServiceAccount, client: 'V1ServiceAccount' },
  'rbac.authorization.k8s.io/v1 Role': { model: Role, client: 'V1Role' },
  'rbac.authorization.k8s.io/v1 RoleBinding': { model: RoleBinding, client: 'V1RoleBinding' },
};

interface Attribute {
  baseName: string;
  type: string;
}
type ClientModel = { getAttributeTypeMap(): Attribute[] };
const CLIENT_MODELS = k8s as unknown as Record<string, ClientModel | undefined>;

/** Fields the API does not define, walked through the client's models (`Array<V1Container>` included). */
function unknownFields(value: unknown, type: string, path: string, problems: string[]): void {
  const element = /^Array<(\w+)>$/.exec(type)?.[1];
  if (element) {
    if (Array.isArray(value))
      for (const [i, item] of value.entries()) unknownFields(item, element, `${path}[${i}]`, problems);
    return;
  }
  // Strings, numbers, maps and IntOrString have no attribute map: nothing below them to check.
  const model = CLIENT_MODELS[type];
  if (typeof model?.getAttributeTypeMap !== 'function' || value === null || typeof value !== 'object') return;
  const attributes = new Map(model.getAttributeTypeMap().map((a) => [a.baseName, a.type]));
  const name = type.replace(/^V1/, '');
  for (const [key, child] of Object.entries(value)) {
    const childType = attributes.get(key);
    if (childType === undefined) problems.push(`${path}.${key}: not a field of ${name}`);
    else unknownFields(child, childType, `${path}.${key}`, problems);
  }
}

/** ajv's `/spec/containers/0/name` as `.spec.containers[0].name`, the way unknownFields writes it. */
function jsonPointerPath(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((part) => (/^\d+$/.test(part) ? `[${part}]` : `.${part}`))
    .join('');
}

function schemaProblems(doc: object, kind: Kind, label: string): string[] {
  try {
    new kind.model(doc as never).validate();
    return [];
  } catch (error) {
    const errors = (error as { errors?: { instancePath: string; message?: string }[] }).errors;
    if (!errors) throw error;
    return errors.map((e) => `${label}${jsonPointerPath(e.instancePath)}: ${e.message}`);
  }
}

/** What is wrong with a manifest document, by its apiVersion and kind; empty when nothing is. */
export function validate(doc: { apiVersion?: string; kind?: string }): string[] {
  const label = doc.kind ?? '?';
  const kind = KINDS[`${doc.apiVersion} ${doc.kind}`];
  if (!kind) return [`${label}: no model for apiVersion ${doc.apiVersion} kind ${doc.kind}`];
  const problems = schemaProblems(doc, kind, label);
  unknownFields(doc, kind.client, label, problems);
  return problems.sort();
}
