import type { JoinKey } from './types.ts';

/*
 * Kubernetes pods, as kubectl prints them (kubernetes/kubectl, pkg/describe/describe.go and the
 * resource/name form of `kubectl get -o name` and events): `Name:  <pod>` at the start of `kubectl
 * describe pod`, `pod/<name>` in events and `kubectl get`. The key is the pod name: a namespace is
 * not on every line that names the pod, and two inputs about one incident name it in the same one.
 */
const RESOURCE_NAME = /\bpods?\/([a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?)\b/g;
const DESCRIBE_NAME = /^Name:\s+([a-z0-9](?:[a-z0-9.-]*[a-z0-9])?)\s*$/;

/** The pods a line names. `Name:` counts only at the head of a describe (line 1), where it is the pod. */
export function k8sKeys(line: string, lineNo: number): JoinKey[] {
  const keys: JoinKey[] = [];
  if (lineNo === 1) {
    const name = DESCRIBE_NAME.exec(line);
    if (name?.[1]) keys.push({ family: 'k8s-pod', value: name[1] });
  }
  if (line.includes('pod'))
    for (const [, pod = ''] of line.matchAll(RESOURCE_NAME)) keys.push({ family: 'k8s-pod', value: pod });
  return keys;
}
