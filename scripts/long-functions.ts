import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

// Lists the functions longer than the style guide's 40 lines (from the `function`, name or parameter
// list to the closing brace, comments before it not counted), longest first, so they can be shortened:
//   npx tsx scripts/long-functions.ts [folder ...]   (default: src)

/** A function over the limit: where it is, what it is called, and how many lines it spans. */
export interface LongFunction {
  file: string;
  line: number;
  name: string;
  lines: number;
}

export const MAX_FUNCTION_LINES = 40;

function isFunction(node: ts.Node): node is ts.FunctionLikeDeclaration {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isArrowFunction(node) ||
    ts.isFunctionExpression(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node)
  );
}

/** The name a reader would search for: its own, or the variable or property it is assigned to. */
function functionName(node: ts.FunctionLikeDeclaration, source: ts.SourceFile): string {
  if (node.name) return node.name.getText(source);
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))
    return parent.name.getText(source);
  return '<anonymous>';
}

/** The functions in one file's text spanning more than `max` lines. */
export function longFunctionsIn(file: string, text: string, max = MAX_FUNCTION_LINES): LongFunction[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: LongFunction[] = [];
  const lineOf = (pos: number) => source.getLineAndCharacterOfPosition(pos).line + 1;
  const visit = (node: ts.Node): void => {
    if (isFunction(node) && node.body) {
      const line = lineOf(node.getStart(source));
      const lines = lineOf(node.getEnd()) - line + 1;
      if (lines > max) found.push({ file, line, name: functionName(node, source), lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function typeScriptFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts'))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/** Every function over `max` lines in the TypeScript files under `dirs`, longest first. */
export function longFunctions(dirs: readonly string[], max = MAX_FUNCTION_LINES): LongFunction[] {
  return dirs
    .flatMap((dir) => typeScriptFiles(dir))
    .flatMap((file) => longFunctionsIn(relative(process.cwd(), file), readFileSync(file, 'utf8'), max))
    .sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file) || a.line - b.line);
}

function main(dirs: readonly string[]): void {
  const found = longFunctions(dirs.length > 0 ? dirs : ['src']);
  for (const f of found) process.stdout.write(`${f.lines}\t${f.file}:${f.line}\t${f.name}\n`);
  process.stdout.write(`${found.length} function(s) over ${MAX_FUNCTION_LINES} lines\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main(process.argv.slice(2));
