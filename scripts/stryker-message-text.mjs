// Stryker ignorer: leaves message text unmutated, and nothing else.
//
// A mutant that blanks the sentence of an error ("spark.executor.memory must be at least 450m ...")
// or a parser's "expected ..." hint survives unless a test pins the whole sentence, which would only
// restate it. Tests check that the right error is thrown and name the key at fault (a regex); the
// wording is reviewed by people. Figures users act on (summaries, verdicts, advice, settings, limits)
// stay mutated: they are not in the positions below.
import { declareValuePlugin, PluginKind } from '@stryker-mutator/api/plugin';

/** Properties whose value is prose for a person, never a figure or a key the code branches on. */
const PROSE_PROPERTIES = new Set(['why', 'title', 'howToGet', 'description', 'note']);

/** Calls that build a refusal message: `parseFailed('... expected ...')`. */
const MESSAGE_BUILDERS = new Set(['parseFailed']);

function isErrorConstruction(path) {
  const callee = path.node.callee;
  return path.isNewExpression() && callee.type === 'Identifier' && callee.name.endsWith('Error');
}

function isMessageBuilderCall(path) {
  const callee = path.node.callee;
  return path.isCallExpression() && callee.type === 'Identifier' && MESSAGE_BUILDERS.has(callee.name);
}

function isProseProperty(path) {
  if (!path.isObjectProperty()) return false;
  const key = path.node.key;
  const name = key.type === 'Identifier' ? key.name : key.type === 'StringLiteral' ? key.value : undefined;
  return name !== undefined && PROSE_PROPERTIES.has(name);
}

export const strykerPlugins = [
  declareValuePlugin(PluginKind.Ignore, 'message-text', {
    shouldIgnore(path) {
      if (isErrorConstruction(path)) return 'error message text: tests check the error class and the key';
      if (isMessageBuilderCall(path)) return 'parse-failure hint text';
      if (isProseProperty(path)) return 'prose for a person (why/title/howToGet/description/note)';
      return undefined;
    },
  }),
];
