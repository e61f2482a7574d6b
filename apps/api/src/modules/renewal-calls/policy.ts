import type { PolicyTable } from '../../http/access.ts';

/** Renewal calls (issue 30 §3): staff's desk. Admins read, preview, send now and hold the calls, run the day's job now and keep each cabinet's settings. */
export const renewalCallsPolicy = {
  'GET /renewal_calls': ['admin'],
  'GET /renewal_calls/:id': ['admin'],
  'POST /renewal_calls/:id/send': ['admin'],
  'POST /renewal_calls/:id/hold': ['admin'],
  'POST /renewal_calls/run': ['admin'],
  'GET /renewal_call_settings': ['admin'],
  'PUT /renewal_call_settings/:cabinetId': ['admin'],
} satisfies PolicyTable;
