import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';
import { CompiledFamiliesSchema } from '../../../src/engine/extractors/families/schema.ts';

/** One regular expression written in the source: a literal, or a `new RegExp(...)` whose text is constant. */
export interface SourceRegex {
  /** `src/engine/units.ts:21`. */
  where: string;
  source: string;
  flags: string;
}

/** A `RegExp(...)` built from run-time values: the census cannot time it, so a test must name it. */
export interface DynamicRegex {
  where: string;
  code: string;
}

export interface Census {
  regexes: SourceRegex[];
  dynamic: DynamicRegex[];
}

const ROOT = join(import.meta.dirname, '..', '..', '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/**
 * Folds an expression to the string it always has: string and template literals (String.raw keeps
 * backslashes), `+`, constants of the same file or imported from another (`LOG_SIZE`), `.source` of
 * a regex constant and `[...].join(sep)`.
 */
class Folder {
  private readonly constants = new Map<string, ts.Expression>();
  /** Local name -> the file and exported name it is imported from. */
  private readonly imports = new Map<string, { path: string; name: string }>();

  constructor(
    file: ts.SourceFile,
    private readonly folderOf: (path: string) => Folder,
  ) {
    const visit = (node: ts.Node): void => {
      if (
        ts.isVariableDeclaration(node) &&
        ts.isIdentifier(node.name) &&
        node.initializer &&
        ts.isVariableDeclarationList(node.parent) &&
        node.parent.flags & ts.NodeFlags.Const
      )
        this.constants.set(node.name.text, node.initializer);
      if (ts.isImportDeclaration(node)) this.addImports(node, file.fileName);
      ts.forEachChild(node, visit);
    };
    visit(file);
  }

  private addImports(node: ts.ImportDeclaration, from: string): void {
    const module = ts.isStringLiteral(node.moduleSpecifier) ? node.moduleSpecifier.text : '';
    const bindings = node.importClause?.namedBindings;
    if (!module.startsWith('.') || !bindings || !ts.isNamedImports(bindings)) return;
    const path = join(dirname(from), module);
    for (const element of bindings.elements)
      this.imports.set(element.name.text, { path, name: (element.propertyName ?? element.name).text });
  }

  fold(node: ts.Expression, raw = false, depth = 0): string | undefined {
    if (depth > 20) return undefined;
    if (ts.isStringLiteral(node)) return node.text;
    if (ts.isNoSubstitutionTemplateLiteral(node)) return raw ? (node.rawText ?? node.text) : node.text;
    if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node))
      return this.fold(node.expression, raw, depth + 1);
    if (ts.isTaggedTemplateExpression(node))
      return node.tag.getText() === 'String.raw'
        ? this.fold(node.template as ts.Expression, true, depth + 1)
        : undefined;
    if (ts.isTemplateExpression(node)) return this.template(node, raw, depth);
    if (ts.isBinaryExpression(node)) return this.sum(node, depth);
    if (ts.isIdentifier(node)) return this.constant(node.text, depth);
    if (ts.isPropertyAccessExpression(node)) return this.regexSource(node);
    if (ts.isCallExpression(node)) return this.join(node, depth);
    return undefined;
  }

  private sum(node: ts.BinaryExpression, depth: number): string | undefined {
    if (node.operatorToken.kind !== ts.SyntaxKind.PlusToken) return undefined;
    const left = this.fold(node.left, false, depth + 1);
    const right = this.fold(node.right, false, depth + 1);
    return left === undefined || right === undefined ? undefined : left + right;
  }

  private constant(name: string, depth: number): string | undefined {
    const value = this.constants.get(name);
    if (value) return this.fold(value, false, depth + 1);
    const imported = this.imports.get(name);
    return imported ? this.folderOf(imported.path).constant(imported.name, depth + 1) : undefined;
  }

  /** `PATTERN.source` of a regex literal constant. */
  private regexSource(node: ts.PropertyAccessExpression): string | undefined {
    if (node.name.text !== 'source' || !ts.isIdentifier(node.expression)) return undefined;
    const value = this.constants.get(node.expression.text);
    return value && ts.isRegularExpressionLiteral(value) ? literalParts(value).source : undefined;
  }

  private template(node: ts.TemplateExpression, raw: boolean, depth: number): string | undefined {
    let text = raw ? (node.head.rawText ?? node.head.text) : node.head.text;
    for (const span of node.templateSpans) {
      const value = this.fold(span.expression, false, depth + 1);
      if (value === undefined) return undefined;
      text += value + (raw ? (span.literal.rawText ?? span.literal.text) : span.literal.text);
    }
    return text;
  }

  private join(node: ts.CallExpression, depth: number): string | undefined {
    const callee = node.expression;
    if (!ts.isPropertyAccessExpression(callee) || callee.name.text !== 'join') return undefined;
    const target = ts.isIdentifier(callee.expression)
      ? this.constants.get(callee.expression.text)
      : callee.expression;
    if (!target || !ts.isArrayLiteralExpression(target)) return undefined;
    const separator = node.arguments[0] ? this.fold(node.arguments[0], false, depth + 1) : ',';
    const items = target.elements.map((e) => this.fold(e, false, depth + 1));
    if (separator === undefined || items.some((i) => i === undefined)) return undefined;
    return items.join(separator);
  }
}

function literalParts(node: ts.RegularExpressionLiteral): { source: string; flags: string } {
  const text = node.text;
  const end = text.lastIndexOf('/');
  return { source: text.slice(1, end), flags: text.slice(end + 1) };
}

function isRegExpConstruction(node: ts.Node): node is ts.NewExpression | ts.CallExpression {
  return (
    (ts.isNewExpression(node) || ts.isCallExpression(node)) &&
    ts.isIdentifier(node.expression) &&
    node.expression.text === 'RegExp'
  );
}

/** Parsed files and their folders, so that an imported constant is read from its own file. */
class Sources {
  private readonly files = new Map<string, ts.SourceFile>();
  private readonly folders = new Map<string, Folder>();

  file(path: string): ts.SourceFile {
    let file = this.files.get(path);
    if (!file) {
      file = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.ES2022, true);
      this.files.set(path, file);
    }
    return file;
  }

  folder(path: string): Folder {
    let folder = this.folders.get(path);
    if (!folder) {
      folder = new Folder(this.file(path), (other) => this.folder(other));
      this.folders.set(path, folder);
    }
    return folder;
  }
}

function scanFile(path: string, sources: Sources, census: Census): void {
  const file = sources.file(path);
  const folder = sources.folder(path);
  const where = (node: ts.Node) =>
    `${relative(ROOT, path)}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const visit = (node: ts.Node): void => {
    if (ts.isRegularExpressionLiteral(node))
      census.regexes.push({ where: where(node), ...literalParts(node) });
    else if (isRegExpConstruction(node)) {
      const [pattern, flags] = node.arguments ?? [];
      const source = pattern ? folder.fold(pattern) : undefined;
      const flagText = flags ? folder.fold(flags) : '';
      if (source === undefined || flagText === undefined)
        census.dynamic.push({ where: where(node), code: node.getText() });
      else census.regexes.push({ where: where(node), source, flags: flagText });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
}

/** Every regex in `src/`, found by parsing each TypeScript file. */
/**
 * The patterns of the message families kept as data (src/engine/extractors/families/*.yaml): the
 * engine builds them at run time from compiled.json, so the census reads them from there.
 */
function dataFamilyRegexes(): SourceRegex[] {
  const compiled = CompiledFamiliesSchema.parse(
    JSON.parse(readFileSync(join(ROOT, 'src/engine/extractors/families/compiled.json'), 'utf8')),
  );
  return Object.entries(compiled).flatMap(([id, families]) =>
    families.flatMap((family) =>
      family.patterns.map((rule, index) => ({
        where: `src/engine/extractors/families/${id}: ${family.name} #${index}`,
        source: rule.pattern,
        flags: rule.flags,
      })),
    ),
  );
}

export function regexCensus(): Census {
  const census: Census = { regexes: [], dynamic: [] };
  const sources = new Sources();
  for (const path of sourceFiles(join(ROOT, 'src')).sort()) scanFile(path, sources, census);
  census.regexes.push(...dataFamilyRegexes());
  return census;
}
