import type { PolicyTable } from '../../http/access.ts';

/**
 * The register sync and its discrepancies (issue 29 §3, decisions 196 and 197) are staff's: an admin follows the
 * runs, starts one, and decides each discrepancy (accept the register, or keep the portal's state with a note).
 */
export const registersPolicy = {
  'GET /registers/sync': ['admin'],
  'POST /registers/sync': ['admin'],
  'GET /registers/discrepancies': ['admin'],
  'POST /registers/discrepancies/:id/accept': ['admin'],
  'POST /registers/discrepancies/:id/keep': ['admin'],
} satisfies PolicyTable;
