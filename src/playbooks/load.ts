import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { z } from 'zod';
import { DERIVATIONS } from '../engine/derive/registry.ts';
import { PARSERS } from '../engine/parsers/registry.ts';
import { type Playbook, PlaybookSchema } from '../engine/playbook/schema.ts';
import { PlaybookInvalidError, PlaybookNotFoundError } from '../errors.ts';
import { yaml } from '../lazy-yaml.ts';
import { packagePath } from '../paths.ts';
import { checkProcedure } from '../walkthrough/lint.ts';

/** The playbooks folder shipped with memdoctor. */
export const PLAYBOOKS_DIR = packagePath('playbooks');

const PLAYBOOK_FILE = 'playbook.yaml';
const PROCEDURE_FILE = 'procedure.yaml';

function readYaml(file: string): unknown {
  try {
    return yaml().parse(readFileSync(file, 'utf8'));
  } catch (error) {
    if (error instanceof yaml().YAMLParseError)
      throw new PlaybookInvalidError(file, `  YAML syntax: ${error.message}`);
    throw error;
  }
}

function checkReferences(file: string, folder: string, spec: z.infer<typeof PlaybookSchema>): void {
  if (spec.id !== folder) {
    throw new PlaybookInvalidError(
      file,
      `  ✖ id "${spec.id}" must equal its folder name "${folder}"\n    → at id`,
    );
  }
  spec.derive.forEach((name, i) => {
    if (!(name in DERIVATIONS)) {
      const known = Object.keys(DERIVATIONS).join(', ');
      throw new PlaybookInvalidError(
        file,
        `  ✖ unknown derivation "${name}" (known: ${known})\n    → at derive[${i}]`,
      );
    }
  });
}

/** Reads and checks a procedure.yaml: schema, then the lint (targets, reachability, parser ids). */
function loadProcedure(file: string): unknown {
  const check = checkProcedure(readYaml(file), new Set(Object.keys(PARSERS)));
  if (!check.ok) throw new PlaybookInvalidError(relative(process.cwd(), file), indent(check.message));
  return check.procedure;
}

function indent(text: string): string {
  return text.replace(/^/gm, '  ');
}

/** Loads and validates one playbook folder; throws PlaybookInvalidError naming the file and field. */
export function loadPlaybook(dir: string): Playbook {
  const file = join(dir, PLAYBOOK_FILE);
  const folder = dir.split(/[\\/]/).filter(Boolean).pop() ?? dir;
  if (!existsSync(file))
    throw new PlaybookInvalidError(file, '  ✖ missing: every playbook folder needs a playbook.yaml');
  const raw = readYaml(file);
  const parsed = PlaybookSchema.safeParse(raw);
  if (!parsed.success)
    throw new PlaybookInvalidError(relative(process.cwd(), file), z.prettifyError(parsed.error));
  checkReferences(file, folder, parsed.data);
  const hash = createHash('sha256').update(readFileSync(file));
  const procedureFile = join(dir, PROCEDURE_FILE);
  let procedure: unknown;
  if (existsSync(procedureFile)) {
    procedure = loadProcedure(procedureFile);
    hash.update(readFileSync(procedureFile));
  }
  return { ...parsed.data, version: hash.digest('hex').slice(0, 16), dir, procedure };
}

/** Loads every playbook under `root`, sorted by id, so output never depends on directory order. */
export function loadPlaybooks(root: string = PLAYBOOKS_DIR): Playbook[] {
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => loadPlaybook(join(root, entry.name)))
    .sort((a, b) => a.id.localeCompare(b.id));
}

/** One playbook by id, with a message listing the known ones when it does not exist. */
export function findPlaybook(playbooks: readonly Playbook[], id: string): Playbook {
  const found = playbooks.find((p) => p.id === id);
  if (!found)
    throw new PlaybookNotFoundError(
      id,
      playbooks.map((p) => p.id),
    );
  return found;
}
