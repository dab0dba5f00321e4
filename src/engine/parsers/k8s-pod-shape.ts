import { z } from 'zod';

// Field names as core/v1 writes them (k8s.io/api core/v1 types.go: Pod, ContainerStatus,
// ContainerStateTerminated, ResourceRequirements). Quantities stay as the API gives them ("40Mi").
// The one shape of a pod that both a pasted `kubectl get pod -o yaml|json` and a fetched pod are read by.

export const TerminatedState = z.looseObject({
  reason: z.string().optional(),
  exitCode: z.number().optional(),
  finishedAt: z.string().nullable().optional(),
});

export const ContainerState = z.looseObject({
  running: z.looseObject({}).optional(),
  waiting: z.looseObject({ reason: z.string().optional() }).optional(),
  terminated: TerminatedState.optional(),
});

const Quantities = z.record(z.string(), z.union([z.string(), z.number()]));

/** A pod's containers with their memory settings, and how each is and last was. */
export const PodShape = z.looseObject({
  spec: z.looseObject({
    containers: z.array(
      z.looseObject({
        name: z.string(),
        // What the container runs: read only to tell whether it is a JVM.
        image: z.string().optional(),
        command: z.array(z.string()).optional(),
        args: z.array(z.string()).optional(),
        env: z.array(z.looseObject({ name: z.string(), value: z.string().optional() })).optional(),
        resources: z
          .looseObject({ limits: Quantities.optional(), requests: Quantities.optional() })
          .optional(),
      }),
    ),
  }),
  status: z
    .looseObject({
      containerStatuses: z
        .array(
          z.looseObject({
            name: z.string(),
            restartCount: z.number().optional(),
            state: ContainerState.optional(),
            lastState: ContainerState.optional(),
          }),
        )
        .optional(),
    })
    .optional(),
});
