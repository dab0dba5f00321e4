import { z } from 'zod';
import { FactRefSchema } from '../../engine/playbook/schema.ts';
import { WalkthroughInvalidEventError } from '../../errors.ts';
import { defineStepKind, type ProcedureProblem } from './step-kind.ts';
import { fromText, matchingFacts, refText, wrongEvent } from './step-rules.ts';
import { baseStep, stepId } from './step-schemas.ts';

/** A question with 2-6 answers, each leading somewhere. Facts from the diagnosis may answer it. */
const QuestionStepSchema = z.strictObject({
  ...baseStep,
  kind: z.literal('question'),
  answers: z
    .array(z.strictObject({ id: stepId, label: z.string().min(1).max(75), next: stepId }))
    .min(2)
    .max(6),
  prefill: z.array(z.strictObject({ fact: FactRefSchema, answer: stepId })).optional(),
});

type QuestionStep = z.infer<typeof QuestionStepSchema>;

const QuestionAnswerSchema = z.strictObject({
  kind: z.literal('question'),
  answer: z.string().min(1),
  label: z.string(),
});

const EXPECTS = 'choose one of its answers';

/** Answer ids used twice, and prefills naming no answer. */
function lintAnswers(step: QuestionStep, at: string): ProcedureProblem[] {
  const problems: ProcedureProblem[] = [];
  const ids = step.answers.map((a) => a.id);
  ids.forEach((id, j) => {
    if (ids.indexOf(id) !== j)
      problems.push({ path: `${at}.answers[${j}].id`, message: `answer id "${id}" is used twice` });
  });
  step.prefill?.forEach((p, j) => {
    if (!ids.includes(p.answer))
      problems.push({
        path: `${at}.prefill[${j}].answer`,
        message: `"${p.answer}" is not one of this question's answers (${ids.join(', ')})`,
      });
  });
  return problems;
}

export const question = defineStepKind({ schema: QuestionStepSchema, answerSchema: QuestionAnswerSchema })({
  expects: EXPECTS,
  edges: (step) =>
    step.answers.map((a, i) => ({
      field: `answers[${i}].next`,
      target: a.next,
      label: a.id,
      learns: [step.id],
    })),
  lint: lintAnswers,
  answer(step, event) {
    if (event.type !== 'choose') throw wrongEvent(step, EXPECTS, event);
    const answer = step.answers.find((a) => a.id === event.answer);
    if (!answer) {
      const ids = step.answers.map((a) => a.id).join(', ');
      throw new WalkthroughInvalidEventError(
        `"${event.answer}" is not an answer to "${step.title}"; choose one of ${ids}.`,
      );
    }
    return {
      outcome: { answer: { kind: 'question', answer: answer.id, label: answer.label }, next: answer.next },
    };
  },
  prefill(step, ctx) {
    for (const p of step.prefill ?? []) {
      const answer = step.answers.find((a) => a.id === p.answer);
      if (answer && matchingFacts(ctx.facts, p.fact).length > 0)
        return {
          answer: { kind: 'question', answer: answer.id, label: answer.label },
          next: answer.next,
          because: `known from the facts: ${refText(p.fact)}${fromText(ctx.values, p.fact)}`,
        };
    }
    return undefined;
  },
  options: (step) =>
    step.answers.map((a) => ({ label: a.label, event: { type: 'choose', answer: a.id, step: step.id } })),
  answerText: (answer) => answer.label,
  scripted: (_step, answer) => (typeof answer === 'string' ? { type: 'choose', answer } : undefined),
});
