import type { PolicyTable } from '../../http/access.ts';

/**
 * Cost tables (issue 30 §1, decision 199): the agents' fees per office, the cabinets' service fees and
 * the ECB rate files are staff's, like the other reference data an admin keeps.
 */
export const costsPolicy = {
  'GET /cost_tables': ['admin'],
  'POST /cost_tables/agent_fees': ['admin'],
  'DELETE /cost_tables/agent_fees/:id': ['admin'],
  'POST /cost_tables/service_fees': ['admin'],
  'DELETE /cost_tables/service_fees/:id': ['admin'],
  'POST /exchange_rates/ecb': ['admin'],
} satisfies PolicyTable;
