/**
 * The connectors as the surfaces see them: their settings' types, loading connectors.yaml, the
 * check and the gate every fetch passes. Surfaces import this, never src/connectors, so the
 * access rule and the caps cannot be gone around (test/architecture/imports.test.ts).
 */
export type { AccessRules, ConnectorName, ConnectorsConfig } from '../connectors/config.ts';
export { loadConnectorsConfig } from '../connectors/config.ts';
export { requestText } from '../connectors/types.ts';
export { type CheckRequest, type CheckResult, check } from '../diagnosis/check.ts';
export { checkIdProblem } from '../diagnosis/check-ids.ts';
export {
  type Admission,
  type Asker,
  type Audience,
  FetchGate,
  type FetchPerson,
  type TerminalFetching,
} from '../diagnosis/fetch-access.ts';
export { DEFAULT_FETCH_LIMITS, type FetchLimits } from '../diagnosis/fetch-limits.ts';
