import {
  registerAcceptBodySchema,
  registerDiscrepancyIdParams,
  registerDiscrepancyListResponse,
  registerDiscrepancyQuerySchema,
  registerDiscrepancyResponse,
  registerKeepBodySchema,
  registerSyncListResponse,
  registerSyncStartResponse,
} from '@portal/contracts';
import type { AppContext } from '../../context.ts';
import { defineRoute, type Route } from '../../http/routes.ts';
import { acceptDiscrepancy, keepDiscrepancy, listDiscrepancies, listSyncRuns, startSync } from './service.ts';

export function registersRoutes(ctx: AppContext): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/registers/sync',
      summary: 'The register sync runs, newest first (progress: patents done / total, paused until), and whether OPS credentials are configured',
      response: registerSyncListResponse,
      async handler() {
        return { success: true as const, ...(await listSyncRuns(ctx)) };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/registers/sync',
      summary: 'Sync now: starts a register sync run, or answers the one in progress (`created` false); progress follows over socket.io (`registers:sync:updated`)',
      body: registerAcceptBodySchema,
      response: registerSyncStartResponse,
      async handler(_input, http) {
        const actor = http.actor();
        const started = await startSync(ctx, actor);
        http.log.info({ event: 'register_sync_requested', runId: started.run._id, created: started.created, by: actor.userId }, 'register sync requested');
        return { success: true as const, ...started };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/registers/discrepancies',
      summary: 'Where the portal and the EP register disagree (register paid / portal unpaid, register lapsed / portal live, instruction on a lapsed patent), by status and kind, paged',
      query: registerDiscrepancyQuerySchema,
      response: registerDiscrepancyListResponse,
      async handler({ query }) {
        return { success: true as const, ...(await listDiscrepancies(ctx, query)) };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/registers/discrepancies/:id/accept',
      summary: 'Accept the register: the year takes its state on the ledger (confirmed or lapsed; the user on the trail) and the discrepancy is closed, in one transaction',
      params: registerDiscrepancyIdParams,
      body: registerAcceptBodySchema,
      response: registerDiscrepancyResponse,
      async handler({ params }, http) {
        const actor = http.actor();
        const discrepancy = await acceptDiscrepancy(ctx, actor, params.id);
        http.log.info({ event: 'register_discrepancy_accepted', discrepancyId: params.id, by: actor.userId }, 'register discrepancy accepted');
        return { success: true as const, discrepancy };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/registers/discrepancies/:id/keep',
      summary: "Keep the portal's state with a note: the discrepancy is hidden until the register says something else",
      params: registerDiscrepancyIdParams,
      body: registerKeepBodySchema,
      response: registerDiscrepancyResponse,
      async handler({ params, body }, http) {
        const actor = http.actor();
        const discrepancy = await keepDiscrepancy(ctx, actor, params.id, body.note);
        http.log.info({ event: 'register_discrepancy_kept', discrepancyId: params.id, by: actor.userId }, 'register discrepancy kept with a note');
        return { success: true as const, discrepancy };
      },
    }),
  ];
}
