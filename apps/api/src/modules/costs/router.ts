import {
  agentFeeBody,
  agentFeeResponse,
  costRowDeletedResponse,
  costRowIdParams,
  costTablesResponse,
  ecbImportFields,
  ecbImportResponse,
  RATE_FILE_EXTENSIONS,
  RATE_FILE_MAX_BYTES,
  serviceFeeBody,
  serviceFeeResponse,
} from '@portal/contracts';
import type { AppContext } from '../../context.ts';
import { defineRoute, type Route } from '../../http/routes.ts';
import { addAgentFee, addServiceFee, costTables, deleteAgentFee, deleteServiceFee, importEcbFile } from './service.ts';

export function costsRoutes(ctx: AppContext): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/cost_tables',
      summary:
        "The cost tables (issue 30 §1): the agents' fees per office and the cabinets' service fees with their validity, the engine's official fee tables (validity, sources, last check), the last ECB rate files imported and the newest rate of each currency",
      response: costTablesResponse,
      async handler() {
        return { success: true as const, ...(await costTables(ctx)) };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/cost_tables/agent_fees',
      summary: "Adds an agent's fee for an office, valid from a day (and to a day, if known); a second row with the same start is a 409",
      body: agentFeeBody,
      response: agentFeeResponse,
      async handler({ body }, http) {
        const actor = http.actor();
        const agent_fee = await addAgentFee(ctx, actor, body);
        http.log.info({ event: 'agent_fee_added', id: agent_fee._id, by: actor.userId }, 'agent fee added');
        return { success: true as const, agent_fee };
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/cost_tables/agent_fees/:id',
      summary: "Deletes an agent's fee row (404 when there is none)",
      params: costRowIdParams,
      response: costRowDeletedResponse,
      async handler({ params }, http) {
        await deleteAgentFee(ctx, params.id);
        http.log.info({ event: 'agent_fee_deleted', id: params.id, by: http.actor().userId }, 'agent fee deleted');
        return { success: true as const, deleted: params.id };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/cost_tables/service_fees',
      summary: "Adds a cabinet's service fee, and the margin it adds if any (a percentage of the official fee, surcharge and agent's fee, shown as its own line), valid from a day",
      body: serviceFeeBody,
      response: serviceFeeResponse,
      async handler({ body }, http) {
        const actor = http.actor();
        const service_fee = await addServiceFee(ctx, actor, body);
        http.log.info({ event: 'service_fee_added', id: service_fee._id, by: actor.userId }, 'service fee added');
        return { success: true as const, service_fee };
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/cost_tables/service_fees/:id',
      summary: "Deletes a cabinet's service fee row (404 when there is none)",
      params: costRowIdParams,
      response: costRowDeletedResponse,
      async handler({ params }, http) {
        await deleteServiceFee(ctx, params.id);
        http.log.info({ event: 'service_fee_deleted', id: params.id, by: http.actor().userId }, 'service fee deleted');
        return { success: true as const, deleted: params.id };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/exchange_rates/ecb',
      summary:
        'Imports an ECB euro reference-rate file (multipart `file`: the daily or historical CSV or XML the ECB publishes, at most 16 MiB): every rate stored per currency and day in one transaction, or the file refused with its reason; no call to the ECB',
      body: ecbImportFields,
      multipart: { area: 'ecb-rates', fileField: ['file'], maxFileBytes: Math.min(ctx.config.uploads.maxBytes, RATE_FILE_MAX_BYTES), maxFiles: 1, allowedExtensions: RATE_FILE_EXTENSIONS, extensionError: 'wrong_rate_file_type' },
      response: ecbImportResponse,
      async handler({ files }, http) {
        const actor = http.actor();
        try {
          const ecb_import = await importEcbFile(ctx, actor, files[0]);
          http.log.info({ event: 'ecb_rates_imported', id: ecb_import._id, days: ecb_import.days, written: ecb_import.written, by: actor.userId }, 'ECB rates imported');
          return { success: true as const, ecb_import };
        } finally {
          // The rates are in the database; the file itself is not kept.
          await Promise.allSettled(files.map((f) => ctx.storage.delete(f.key)));
        }
      },
    }),
  ];
}
