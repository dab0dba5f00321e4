import { z } from 'zod';
import { StepSchema } from './steps/registry.ts';
import { stepId } from './steps/step-schemas.ts';

/** A playbook's step-by-step procedure: `playbooks/<id>/procedure.yaml`. Its steps' kinds are in steps/. */
export const ProcedureSchema = z.strictObject({
  start: stepId,
  steps: z.array(StepSchema).min(2),
});

export type Procedure = z.infer<typeof ProcedureSchema>;
export type { Step } from './steps/registry.ts';
export type { Branch, Condition } from './steps/step-schemas.ts';
