import type { AlertCheck, AlertEvent, RoutedAlert } from '../incidents/types.ts';
import type { AlertConnector, AlertsConfig, Matcher, RouteConfig } from './config.ts';
import { render, textAt } from './fields.ts';

/** Why an id the route asked for was not kept: the field was missing, or the id failed the checks. */
export interface RefusedCheck {
  connector: AlertConnector;
  reason: string;
}

/** Where an alert goes, the checks kept and those refused; undefined `routed` when no route matched. */
export interface Routing {
  routed?: RoutedAlert;
  refused: RefusedCheck[];
}

/** Why `check <connector> <id>` would be refused, or undefined: the use case's id checks (usecases/connectors.ts). */
export type IdCheck = (connector: AlertConnector, id: string) => string | undefined;

/**
 * A regex matcher is the operator's own pattern (checked when the file loads), matched against the
 * whole value as Alertmanager's `=~` is. Values from a payload longer than this are never matched by
 * one: a pattern that backtracks can then cost only so much per alert.
 */
const MAX_REGEX_MATCHED_CHARS = 1024;
const anchored = new Map<string, RegExp>();

function wholeMatch(pattern: string, value: string): boolean {
  if (value.length > MAX_REGEX_MATCHED_CHARS) return false;
  let regex = anchored.get(pattern);
  if (!regex) {
    regex = new RegExp(`^(?:${pattern})$`);
    anchored.set(pattern, regex);
  }
  return regex.test(value);
}

function matches(matcher: Matcher, value: string | undefined): boolean {
  if (value === undefined) return false;
  return typeof matcher === 'string' ? value === matcher : wholeMatch(matcher.regex, value);
}

function routeMatches(route: RouteConfig, event: AlertEvent): boolean {
  return Object.entries(route.when).every(([path, matcher]) => matches(matcher, textAt(event, path)));
}

function checksOf(route: RouteConfig, event: AlertEvent, idCheck: IdCheck) {
  const kept: AlertCheck[] = [];
  const refused: RefusedCheck[] = [];
  for (const [name, template] of Object.entries(route.checks)) {
    const connector = name as AlertConnector;
    if (template === undefined) continue;
    const rendered = render(template, event);
    if ('missing' in rendered) {
      refused.push({ connector, reason: `the alert has no ${rendered.missing} for ${template}` });
      continue;
    }
    const problem = idCheck(connector, rendered.id);
    if (problem) refused.push({ connector, reason: problem });
    else kept.push({ connector, id: rendered.id });
  }
  return { kept, refused };
}

/** The first route whose matchers all hold, with the ids its templates make; ids that fail the checks are left out. */
export function routeAlert(
  event: AlertEvent,
  config: Pick<AlertsConfig, 'routes'>,
  idCheck: IdCheck,
): Routing {
  const route = config.routes.find((r) => routeMatches(r, event));
  if (!route) return { refused: [] };
  const { kept, refused } = checksOf(route, event, idCheck);
  return { routed: { event, route: route.name, channel: route.channel, checks: kept }, refused };
}
