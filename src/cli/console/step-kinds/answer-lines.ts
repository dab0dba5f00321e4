import type { StepView } from '../../../walkthrough/index.ts';

/** A step's options, numbered as the terminal asks for them. */
export function numbered(view: StepView): string[] {
  return view.options.map((o, i) => `  ${i + 1}. ${o.label}`);
}

function skipHint(view: StepView): string {
  return view.options.some((o) => o.event.type === 'skip') ? ', or type skip' : '';
}

/** How a step is answered at the terminal, from its input: a value, pasted output, or a number. */
export function answerLines(view: StepView): string[] {
  if (view.input === 'value')
    return [`Type ${view.hint ?? 'a number'}${view.bounds ? ` (${view.bounds})` : ''}${skipHint(view)}.`];
  if (view.input === 'output')
    return [
      `Paste the output of: ${view.parser?.howToGet ?? 'the command above'}`,
      `Then type . on a line of its own (or press Ctrl-D); blank lines in the output are kept. A file path reads the output from that file${skipHint(view)}.`,
    ];
  return view.options.length > 0 ? [...numbered(view), 'Answer with a number.'] : [];
}
