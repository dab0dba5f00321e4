import type { AlertEvent, AlertField } from '../incidents/types.ts';

/** The value at a dotted path (`labels.pod`, `detail.jobRunId`) of an alert's fields, if any. */
export function fieldAt(fields: AlertEvent['fields'], path: string): AlertField | undefined {
  let at: AlertField | undefined = fields;
  for (const key of path.split('.')) {
    if (at === null || typeof at !== 'object' || Array.isArray(at) || !Object.hasOwn(at, key))
      return undefined;
    at = at[key];
  }
  return at;
}

/** The text a route's matchers and templates read: `source`, `kind` and `status` first, then the fields. */
export function textAt(event: AlertEvent, path: string): string | undefined {
  if (path === 'source') return event.source;
  if (path === 'kind') return event.kind;
  if (path === 'status') return event.status;
  const value = fieldAt(event.fields, path);
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/** A template's result, or the field it needed and did not find. */
export type Rendered = { id: string } | { missing: string };

/** `{{labels.namespace}}/{{labels.pod}}` with the alert's fields put in; a missing field names itself. */
export function render(template: string, event: AlertEvent): Rendered {
  let missing: string | undefined;
  const id = template.replace(/\{\{([^{}]{0,200})\}\}/g, (_, raw: string) => {
    const path = raw.trim();
    const value = textAt(event, path);
    if (value === undefined || value === '') missing ??= path;
    return value ?? '';
  });
  return missing === undefined ? { id } : { missing };
}
