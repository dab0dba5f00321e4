/**
 * Alerts as the surfaces see them (issue 38): the receivers hand RoutedAlerts to an AlertIntake;
 * the Slack worker processes each with processAlert, which fetches through the check use case and
 * its gate. Surfaces import this, never src/incidents' stores.
 */
export type { AlertIntake, IntakeOutcome, RoutedAlert } from '../incidents/types.ts';
export {
  type AlertAnswer,
  type AlertFinding,
  type AlertMissing,
  alertAsker,
  CONNECTOR_TRIES,
  ConnectorsDownError,
  checkCommand,
  diagnoseAlert,
} from './alert-diagnosis.ts';
export {
  type IncidentChange,
  type IncidentContext,
  type IncidentState,
  type IncidentThread,
  processAlert,
} from './alert-incident.ts';
