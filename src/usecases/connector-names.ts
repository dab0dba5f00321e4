export { CONNECTOR_NAMES } from '../connectors/names.ts';
