import { renewalCallHoldBody, renewalCallHoldResponse, renewalCallIdParams, renewalCallResponse, renewalCallSendBody, renewalCallSendResponse, renewalCallsQuery, renewalCallsResponse } from '@portal/contracts';
import type { AppContext } from '../../context.ts';
import { defineRoute, type Route } from '../../http/routes.ts';
import { holdCall, listCalls, previewCall, sendNow } from './service.ts';

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
  ];
}
