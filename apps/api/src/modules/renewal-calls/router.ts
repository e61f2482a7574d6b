import {
  renewalCallHoldBody,
  renewalCallHoldResponse,
  renewalCallIdParams,
  renewalCallResponse,
  renewalCallRunBody,
  renewalCallRunResponse,
  renewalCallSendBody,
  renewalCallSendResponse,
  renewalCallSettingsBody,
  renewalCallSettingsParams,
  renewalCallSettingsResponse,
  renewalCallSettingsSaveResponse,
  renewalCallsQuery,
  renewalCallsResponse,
} from '@portal/contracts';
import type { AppContext } from '../../context.ts';
import { defineRoute, type Route } from '../../http/routes.ts';
import { holdCall, listCalls, previewCall, runNow, sendNow } from './service.ts';
import { listCallSettings, saveCallSettings } from './settings.ts';

/** Staff's renewal-call desk (issue 30 §3): the calls per client, a call's preview, "send now" and "hold". */
export function renewalCallsRoutes(ctx: AppContext): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/renewal_calls',
      summary: 'The renewal calls per client (open ones by default), paged: last step sent, next step and its day, earliest "instruct before", totals per currency',
      query: renewalCallsQuery,
      response: renewalCallsResponse,
      async handler({ query }) {
        return { success: true as const, ...(await listCalls(ctx, query)) };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/renewal_calls/:id',
      summary: "A call's preview: its open annuities priced today with each part of the cost, the totals and the steps sent (the audit trail)",
      params: renewalCallIdParams,
      response: renewalCallResponse,
      async handler({ params }) {
        return { success: true as const, ...(await previewCall(ctx, params.id)) };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/renewal_calls/:id/send',
      summary: "Sends the call's next step now to the client's agents (PDF and xlsx attached); a step is never sent twice",
      params: renewalCallIdParams,
      body: renewalCallSendBody,
      response: renewalCallSendResponse,
      async handler({ params }, http) {
        const result = await sendNow(ctx, params.id, http.actor().userId);
        http.log.info({ event: 'renewal_call_sent_now', callId: params.id, step: result.step, by: http.actor().userId }, 'renewal call sent now');
        return { success: true as const, ...result };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/renewal_calls/:id/hold',
      summary: 'Holds a call (the daily job sends none of its steps) or releases it',
      params: renewalCallIdParams,
      body: renewalCallHoldBody,
      response: renewalCallHoldResponse,
      async handler({ params, body }, http) {
        const call = await holdCall(ctx, params.id, body.held);
        http.log.info({ event: 'renewal_call_held', callId: params.id, held: body.held, by: http.actor().userId }, 'renewal call hold changed');
        return { success: true as const, call };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/renewal_calls/run',
      summary: "Runs today's renewal calls now (the renewal-calls queue, also run daily): gathers the calls, closes their items, sends each call's due step; a step already sent is never sent again",
      body: renewalCallRunBody,
      response: renewalCallRunResponse,
      async handler(_input, http) {
        const result = await runNow(ctx);
        http.log.info({ event: 'renewal_calls_run_now', ...result, by: http.actor().userId }, 'renewal calls run now');
        return { success: true as const, ...result };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/renewal_call_settings',
      summary: "Every cabinet's call settings: the window, the \"instruct before\" margin and the reminder in days (the defaults 90/30/14 where none were saved), who saved them and when",
      response: renewalCallSettingsResponse,
      async handler() {
        return { success: true as const, settings: await listCallSettings(ctx) };
      },
    }),
    defineRoute({
      method: 'PUT',
      path: '/renewal_call_settings/:cabinetId',
      summary: "Saves a cabinet's call settings (window 7-366 days, margin and reminder 0-180 days, the margin shorter than the window); audited: who, when, the values",
      params: renewalCallSettingsParams,
      body: renewalCallSettingsBody,
      response: renewalCallSettingsSaveResponse,
      async handler({ params, body }, http) {
        const settings = await saveCallSettings(ctx, params.cabinetId, body, http.actor().userId);
        http.log.info({ event: 'renewal_call_settings_saved', cabinetId: params.cabinetId, ...body, by: http.actor().userId }, 'renewal call settings saved');
        return { success: true as const, settings };
      },
    }),
  ];
}
