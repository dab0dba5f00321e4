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

function matches(matcher: Matcher, value: string | undefined): boolean {
  if (value === undefined) return false;
  return typeof matcher === 'string' ? value === matcher : new RegExp(matcher.regex).test(value);
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
