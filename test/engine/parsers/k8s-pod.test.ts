import { describe, expect, it } from 'vitest';
import { parseQuantity } from '../../../src/engine/parsers/k8s-quantity.ts';
import { parseText } from '../../../src/engine/parsers/parse-text.ts';
import { medianTime } from '../regex/growth.ts';

describe('k8s-pod JSON and quantities', () => {
  it.each([
    ['50Mi', 50 * 1024 ** 2],
    ['1Gi', 1024 ** 3],
    ['1G', 1e9],
    ['512M', 512e6],
    ['128974848', 128974848],
    ['129e6', 129e6],
    ['lots', undefined],
  ])('reads the quantity %s', (text, bytes) => {
    expect(parseQuantity(text)).toBe(bytes);
  });

  // Field names as `kubectl get pod -o json` prints them (Kubernetes API v1 Pod).
  it('reads an OOMKilled container from pod JSON', () => {
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'spark-exec-1' },
      spec: {
        containers: [
          {
            name: 'spark-kubernetes-executor',
            resources: { limits: { memory: '4505Mi' }, requests: { memory: '4505Mi' } },
          },
        ],
      },
      status: {
        containerStatuses: [
          {
            name: 'spark-kubernetes-executor',
            restartCount: 0,
            state: { terminated: { reason: 'OOMKilled', exitCode: 137 } },
          },
        ],
      },
    };
    const out = parseText('k8s-pod', JSON.stringify(pod, null, 2));
    expect(out.values).toMatchObject({ oomKilled: true, exitCode: 137, memoryLimitBytes: 4505 * 1024 ** 2 });
    expect(out.facts.map((f) => f.kind)).toContain('container.killed-memory');
  });

  it('refuses JSON that is not a pod', () => {
    expect(() => parseText('k8s-pod', '{"kind": "Pod", "metadata": {}}')).toThrow(
      /could not parse: expected a Kubernetes Pod/,
    );
  });

  // Hostile YAML: a pod is small and shallow; these held the process for seconds to minutes.
  it('refuses YAML nested far deeper than a pod, quickly', () => {
    const deep = `apiVersion: v1\nkind: Pod\nmetadata:\n${`${'{'.repeat(16_000)}\n`.repeat(40)}`;
    expect(() => parseText('k8s-pod', deep)).toThrow('this one nests brackets 640000 deep');
  });

  it('reads YAML with many keys in linear time (the duplicate-key check was quadratic)', () => {
    const pod = (keys: number) =>
      `apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  annotations:\n${Array.from({ length: keys }, (_, i) => `    k${i}: "v${i}"`).join('\n')}\nspec:\n  containers:\n  - name: c\n`;
    const [small, large] = [pod(1000), pod(20_000)];
    expect(parseText('k8s-pod', large).values.container).toBe('c');
    const ratio =
      medianTime(() => parseText('k8s-pod', large), 3) / medianTime(() => parseText('k8s-pod', small), 3);
    // Linear: about 20 for twenty times the keys; quadratic: about 400.
    expect(ratio).toBeLessThan(60);
  });
});
