// @ts-nocheck
const PLACEHOLDER = /\{\{\s*([\w.-]{1,80})\s*\}\}/g;

/** Names of the placeholders in a template, in order. */
export function placeholders(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((m) => m[1] ?? '');
}

/** Fills `{{name}}` placeholders; undefined when any of them has no value. */
export function fill(template: string, values: Readonly<Record<string, string>>): string | undefined {
  let missing = false;
  const text = template.replace(PLACEHOLDER, (_, name: string) => {
    const value = values[name];
    if (value === undefined) missing = true;
    return value ?? '';
  });
  return missing ? undefined : text;
}
