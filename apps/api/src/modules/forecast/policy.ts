import type { PolicyTable } from '../../http/access.ts';

/**
 * The renewal budget (decision 201): staff see the whole portfolio, an annuities agent (and admin_test) its own
 * cabinets and client codes, as the patents' list reads them (the same scope, `readScope`).
 */
export const forecastPolicy = {
  'GET /forecast': ['user_agent_annuites', 'admin_test', 'admin'],
  'GET /forecast/export': ['user_agent_annuites', 'admin_test', 'admin'],
} satisfies PolicyTable;
