/** The walkthrough tools' output schemas: one walkthrough's state, and where the active ones stand. */
import { z } from 'zod';

const Step = z.object({
  id: z.string(),
  number: z.number().describe('1-based count of the steps shown so far'),
  kind: z.string(),
  title: z.string(),
  text: z.string(),
  final: z.boolean().describe('a conclusion: the walkthrough ends here'),
  input: z
    .enum(['value', 'output', 'dump'])
    .optional()
    .describe('value: answer with a measurement; output: answer with the pasted command output (or path)'),
  hint: z.string().optional(),
  bounds: z.string().optional(),
  parser: z.looseObject({ id: z.string(), title: z.string(), howToGet: z.string() }).optional(),
  fix: z.array(z.string()).optional(),
  verify: z.array(z.string()).optional(),
  options: z.array(z.object({ n: z.number(), label: z.string() })).describe('answer with n or the label'),
});

export const WalkthroughState = z.object({
  id: z.string(),
  playbook: z.object({ id: z.string(), title: z.string() }),
  status: z.enum(['active', 'done', 'abandoned']),
  version: z.number().describe('pass it to walkthrough_answer so an answer to an older step is refused'),
  store: z.enum(['memory', 'redis']),
  resume: z.string().describe('how to continue it in the console'),
  answered: z.array(
    z.object({
      step: z.string(),
      title: z.string(),
      answer: z.string(),
      known: z.boolean().describe('answered from the diagnosis, not by a person'),
      because: z.string().optional(),
    }),
  ),
  step: Step.optional(),
});

export type WalkthroughStateValue = z.infer<typeof WalkthroughState>;
export type StepValue = z.infer<typeof Step>;

export const StatusOutput = z.object({
  active: z.array(z.object({ id: z.string(), playbook: z.string(), step: z.string(), version: z.number() })),
  walkthrough: WalkthroughState.optional(),
  transcript: z.string().optional().describe('with id: the walkthrough as Markdown, for incident notes'),
});
