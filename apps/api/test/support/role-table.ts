import type { RoleSlug } from '@portal/contracts';
import type { Access, RouteKey } from '../../src/http/access.ts';

/**
 * Who may call what, as the product spec says it (`../shared/spec/product.md` beside the repository): §2 "Route table" and "Navigation
 * menus by role", §6 "Roles and permissions", and the calls of §7 grouped by the screen that makes them. Written
 * once here, from the spec and not from `src/modules/*\/policy.ts`; `access-matrix.test.ts` checks the running
 * server against it. A call the spec does not list (an endpoint the portal added) names the decision that added
 * it; where the portal deliberately departs from the spec, `departs` says how, with the decision number.
 */
export const SPEC_GROUPS = {
  /** §2: open and public screens (home, login, forgot and reset password, contact). */
  anyone: 'public',
  /** §2 "connected"; §6: other connected users reach the connected routes. */
  connected: 'authenticated',
  /** §2 menus: the Ledes menu is for user_agent_ledes or admin. */
  ledes: ['user_agent_ledes', 'admin'],
  /** §2 menus: the Annuities menu is for user_annuites or admin. */
  annuities: ['user_annuites', 'admin'],
  /** §2 menus: the Patent annuities menu is for user_agent_annuites, admin or admin_test. */
  patents: ['user_agent_annuites', 'admin_test', 'admin'],
  /** §2 menus: admin_test and admin see "patents to validate"; §6: admin_test's client-code search, the admin's patent fetch. */
  patentStaff: ['admin_test', 'admin'],
  /** §6 admin: /add/user, /admin/user, /ledes/history/admin, creates users; §2 menus: missing info is the admin's. */
  admin: ['admin'],
} as const satisfies Record<string, Access>;

export type SpecGroup = keyof typeof SPEC_GROUPS;

export interface SpecRow {
  /** The calls, as the server names them (method and path, `:name` parameters). */
  calls: readonly RouteKey[];
  who: SpecGroup;
  /** Where the spec says so. */
  spec: string;
  /** A call the spec does not list: the decision (or issue) that added it. */
  added?: string;
  /** Where the portal deliberately departs from the spec: how, and the decision. */
  departs?: string;
}

export const SPEC_ROLE_TABLE: readonly SpecRow[] = [
  // §7 Auth and roles: the calls of the login, forgot and reset screens (§2: public) and of the guard.
  { calls: ['GET /auth/verify_token_', 'GET /auth/check_token', 'POST /auth/login', 'POST /auth/logout', 'GET /auth/request_reset_password/:email', 'GET /verify_token', 'PUT /auth/reset_password/:token/:id'], who: 'anyone', spec: '§2 login, forgot and reset password; §7 Auth' },
  { calls: ['GET /user/:id/roles/slug'], who: 'connected', spec: '§2 navigation guard (which roles the session holds); one\'s own roles, any for an admin' },
  { calls: ['GET /auth/first_connection/:email', 'GET /role', 'GET /role/:id'], who: 'admin', spec: '§2 /add/user (admin), §6 the admin creates users: the role select and the new user\'s first mail' },
  // §7 Users and cabinets.
  { calls: ['GET /user', 'GET /user_ledes', 'POST /user', 'POST /admin/user', 'POST /adresse_agent_ledes/create'], who: 'admin', spec: '§2 /admin/user and /add/user with its address modal (admin); §7 user_ledes "list of users for the admin"' },
  { calls: ['GET /user/:id', 'POST /user/id_client/name', 'GET /cabinet', 'GET /cabinet/user/list'], who: 'connected', spec: '§7 Users and cabinets (oneself or an admin for a user; one\'s own client ids)' },
  { calls: ['POST /contact'], who: 'anyone', spec: '§2 /contact (public)' },
  // §7 Annuities files: the Annuities menu's screens.
  { calls: ['POST /brevets/annuite', 'GET /annuite/files', 'GET /annuite/files/download', 'GET /brevets/file/:id', 'PUT /brevets/annuite/:id', 'PUT /brevets/annuites/many', 'PUT /brevets/file/:id/comment'], who: 'annuities', spec: '§2 menus (Annuities menu), §7 Annuities files' },
  { calls: ['GET /annuite/research'], who: 'annuities', spec: '§2 /annuities/research, Annuities menu', added: 'decision 48' },
  // §7 Ledes: the Ledes menu's screens.
  { calls: ['POST /ledes/file/:type/:office', 'POST /ledes/file/download', 'GET /historique', 'GET /searchHistorique'], who: 'ledes', spec: '§2 menus (Ledes menu), §7 Ledes' },
  { calls: ['GET /ledes/offices', 'GET /ledes/runs/:id'], who: 'ledes', spec: '§2 /ledes/upload and /result-ledes', added: 'decision 12' },
  { calls: ['GET /historique/admin/:id'], who: 'admin', spec: '§6 the admin sees the ledes history of all users' },
  // §7 Patent records and instructions: the Patent annuities menu's screens.
  { calls: ['GET /instruction_paiement', 'GET /instruction_paiement/:id'], who: 'connected', spec: '§2 /add/patents (connected): the form\'s reference data' },
  { calls: ['GET /brevet_eptane', 'GET /brevet_eptane/:id', 'PUT /brevet_eptane/update/instruction_paiement/:id', 'PUT /brevet_eptane/many/update_instruction'], who: 'patents', spec: '§2 menus (Patent annuities), §7 Patent records' },
  { calls: ['GET /brevet_eptane/:id/events', 'GET /brevet_eptane/:id/schedule'], who: 'patents', spec: '§2 /patent-annuities (a patent\'s detail)', added: 'issue 11 (decision 104: live events)' },
  { calls: ['GET /brevet_eptane/admin/:code'], who: 'patentStaff', spec: '§6 admin_test\'s client-code search, the admin-only patent fetch' },
  { calls: ['GET /brevet_eptane/to_validate', 'PUT /brevet_eptane/validate-instruction'], who: 'patentStaff', spec: '§2 menus: patents to validate (admin_test, admin)', departs: '§2 puts no guard on /annuites/patent/instruction; the portal guards it and its calls (decisions 2, 98, 112)' },
  { calls: ['GET /brevet_eptane/missing-information', 'PUT /brevet_eptane/update-missing-info/:idagenda'], who: 'admin', spec: '§2 menus: missing info is the admin\'s', departs: '§2 puts no guard on /annuites/patent; the portal makes it the admin\'s (decisions 2, 108, 112)' },
  { calls: ['PUT /brevet_eptane/update/:_id'], who: 'admin', spec: '§7 Patent records; §6 admin', added: 'its rules: decision 104' },
  { calls: ['POST /brevet_eptane/create'], who: 'patents', spec: '§2 /add/patents, §7 Patent records', departs: '§2 says connected; the add form is the patent users\' (decisions 101, 112)' },
  { calls: ['GET /brevet_eptane/proposal'], who: 'patents', spec: '§2 /add/patents', added: 'decision 101', departs: '§2 says connected; the add form is the patent users\' (decision 112)' },
  { calls: ['GET /patent_submissions', 'PUT /patent_submissions/:id/accept', 'PUT /patent_submissions/:id/reject'], who: 'admin', spec: '§6 admin', added: 'decision 101 (submitted patents reviewed by admins)' },
  { calls: ['POST /file/send_email_for_new_case'], who: 'patents', spec: '§7 Annuities files', departs: 'listed among the annuities calls; the new case is the patent users\' (decision 103)' },
  // §7 Receipts.
  { calls: ['POST /recepisse', 'GET /recepisse', 'GET /recepisse/:id', 'GET /download/recepisse'], who: 'patents', spec: '§7 Receipts', departs: '§2 says connected; receipts are the patent users\' (decision 121)' },
  { calls: ['GET /recepisse/uploads', 'GET /brevet_eptane/:id/recepisse'], who: 'patents', spec: '§7 Receipts', added: 'issue 13', departs: 'the patent users\' (decision 121)' },
  { calls: ['GET /forecast', 'GET /forecast/export'], who: 'patents', spec: '§2 menus (Patent annuities)', added: 'issue 30 §2 (decision 201: the renewal budget; an agent sees its own cabinets and codes)' },
  { calls: ['POST /receipts/:id/link'], who: 'admin', spec: '§6 admin', added: 'issue 29 (decision 192: staff link an unlinked receipt by hand)' },
  {
    calls: ['GET /cost_tables', 'POST /cost_tables/agent_fees', 'DELETE /cost_tables/agent_fees/:id', 'POST /cost_tables/service_fees', 'DELETE /cost_tables/service_fees/:id', 'POST /exchange_rates/ecb'],
    who: 'admin',
    spec: '§6 admin (reference data)',
    added: 'issue 30 §1 (decision 199: agents\' and service fees, ECB rate files)',
  },
  {
    calls: ['GET /registers/sync', 'POST /registers/sync', 'GET /registers/discrepancies', 'POST /registers/discrepancies/:id/accept', 'POST /registers/discrepancies/:id/keep'],
    who: 'admin',
    spec: '§6 admin',
    added: 'issue 29 §3 (decisions 196, 197: the register sync runs and the discrepancies are staff\'s)',
  },
  // The back office's loop (issue 11): not in the spec.
  { calls: ['POST /patent_imports', 'GET /patent_imports', 'GET /patent_imports/:id', 'POST /patent_exports', 'GET /patent_exports', 'GET /patent_exports/:id/download', 'POST /patent_reminders'], who: 'admin', spec: '§6 admin', added: 'issue 11 (decisions 105, 109, 110)' },
  { calls: ['GET /renewal_calls', 'GET /renewal_calls/:id', 'POST /renewal_calls/:id/send', 'POST /renewal_calls/:id/hold'], who: 'admin', spec: '—', added: 'issue 30 §3 (decision 202)' },
  { calls: ['POST /renewal_calls/run', 'GET /renewal_call_settings', 'PUT /renewal_call_settings/:cabinetId'], who: 'admin', spec: '—', added: 'issue 30 §3 (staff run the day\'s calls now and keep each cabinet\'s window, margin and reminder)' },
  { calls: ['PUT /brevet_eptane/sync'], who: 'anyone', spec: '—', added: 'decision 107', departs: 'no session: the back office\'s own key, checked in the handler (decision 107)' },
  // Clients' billing guidelines (issue 31 §1): the admins keep them.
  { calls: ['GET /ledes/guidelines', 'GET /ledes/guidelines/:id_client', 'POST /ledes/guidelines/:id_client', 'POST /ledes/guidelines/:id_client/preview'], who: 'admin', spec: '§6 admin', added: 'issue 31 §1 (decision 204)' },
  // LEDES spend analytics (issue 31 §2): the admins.
  { calls: ['GET /ledes/analytics', 'GET /ledes/analytics/export'], who: 'admin', spec: '§6 admin', added: 'issue 31 §2 (decision 206)' },
  // The API's own description, operations and the second factor: not in the spec.
  { calls: ['GET /openapi.json', 'GET /docs'], who: 'anyone', spec: '—', added: 'decision 23: no data, the shapes the web bundle ships' },
  { calls: ['GET /admin/queues'], who: 'admin', spec: '§6 admin', added: 'decision 129' },
  { calls: ['GET /auth/mfa/challenge', 'POST /auth/mfa/verify', 'POST /auth/mfa/enrol', 'POST /auth/mfa/enrol/complete'], who: 'anyone', spec: '§2 login (public)', added: 'decision 136: the challenge cookie is the credential' },
  { calls: ['GET /account/mfa', 'POST /account/mfa/setup', 'POST /account/mfa/confirm', 'POST /account/mfa/disable'], who: 'connected', spec: '—', added: 'decision 138: one\'s own factor' },
  { calls: ['GET /account/notifications', 'PUT /account/notifications'], who: 'connected', spec: '—', added: 'issue 31 §3 (decision 195: one\'s own mails; the digest admins only, in the handler)' },
  { calls: ['POST /admin/user/:id/mfa/reset'], who: 'admin', spec: '§6 admin', added: 'decision 138' },
];

/** The expected access of every call, from the table above. */
export function specMatrix(): Map<RouteKey, Access> {
  const matrix = new Map<RouteKey, Access>();
  for (const row of SPEC_ROLE_TABLE) {
    for (const call of row.calls) {
      if (matrix.has(call)) throw new Error(`${call} is listed twice in the spec's role table`);
      matrix.set(call, SPEC_GROUPS[row.who]);
    }
  }
  return matrix;
}

/** What a caller with `role` (or none) should get from a call with `access`. */
export function expectedFor(access: Access, role: RoleSlug | 'anonymous'): 'allowed' | 401 | 403 {
  if (access === 'public') return 'allowed';
  if (role === 'anonymous') return 401;
  if (access === 'authenticated') return 'allowed';
  return access.includes(role) ? 'allowed' : 403;
}
