import type { Locator, Page } from 'playwright-core';
import type { PatentSubmissionDto } from '@portal/contracts';
import { uniqueEmail } from './browser.ts';
import { apiHeaders, type CreatedUser, type Lang } from './users.ts';

/**
 * Issue 11, the patent screens: an annuities agent (user_agent_annuites) with one cabinet and its own
 * client code, and patent records seeded through the real API (the agent submits them with
 * POST /brevet_eptane/create, an admin accepts each with PUT /patent_submissions/{id}/accept).
 */

const DEFAULT_PASSWORD = 'E2e-user-password-2026';

export interface PatentAgent extends CreatedUser {
  cabinet: string;
  code: string;
}

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** An admin (logged in on `adminPage`) creates a user with a patent role, one cabinet and one client code. */
export async function createPatentUser(adminPage: Page, role: 'user_agent_annuites' | 'admin_test', tag: string, langue: Lang = 'en'): Promise<PatentAgent> {
  const headers = apiHeaders();
  const roles = (await (await adminPage.request.get('/api/role', { headers })).json()) as { roles: { _id: string; slug: string }[] };
  const roleId = roles.roles.find((r) => r.slug === role)?._id;
  const cabinets = (await (await adminPage.request.get('/api/cabinet', { headers })).json()) as { cabinet: { _id: string; name: string }[] };
  const cabinet = cabinets.cabinet[0]?._id;
  if (!roleId || !cabinet) throw new Error('no role or cabinet');
  const stamp = `${tag}${Date.now().toString(36)}`.toUpperCase();
  const agent: PatentAgent = { email: uniqueEmail(tag), password: DEFAULT_PASSWORD, company: `Cabinet ${tag}`, cabinet, code: `CODE-${stamp}` };
  const response = await adminPage.request.post('/api/admin/user', {
    headers,
    data: { company_agent: agent.company, email: agent.email, password: agent.password, roles: [roleId], id_client: [], cabinets: [cabinet], code: [agent.code], langue },
  });
  if (response.status() !== 200) throw new Error(`user: ${response.status()} ${await response.text()}`);
  return agent;
}

export interface SeedPatent {
  reference: string;
  /** Days from today to the due date (≤ 7: the limit date has passed, the row is locked). */
  dueIn: number;
  /** A due date written as such (YYYY-MM-DD), in place of `dueIn`'s. */
  due?: string;
  pays?: string;
  quantieme?: number;
  cout?: number;
  instruction?: number;
  /** Leaves the publication number empty (a row of the missing-information screen). */
  noPublication?: boolean;
}

/**
 * An application or publication number in the office's format (the API refuses others, issue 25 §3):
 * 7 digits, except DE applications (12), EP applications (8, the check digit computed) and IT (15).
 */
export function officeNumber(pays: string, kind: 'application' | 'publication', i: number): string {
  const length = kind === 'application' ? ({ DE: 12, EP: 8, IT: 15 } as Record<string, number>)[pays] ?? 7 : pays === 'IT' ? 15 : 7;
  return `${pays}${(kind === 'application' ? '2' : '3').padEnd(length - 6, '0')}${String(i).padStart(6, '0')}`;
}

/** Logs a user in through the API on this page's browser context (cookies shared with its pages). */
export async function apiLogin(page: Page, user: { email: string; password: string }): Promise<void> {
  const r = await page.request.post('/api/auth/login', { headers: apiHeaders(), data: { email: user.email, password: user.password } });
  if (r.status() !== 200) throw new Error(`login: ${r.status()} ${await r.text()}`);
}

/** The agent submits the patents (its page must be logged in), then the admin accepts them into the agent's cabinet and code. */
export async function seedPatents(agentPage: Page, adminPage: Page, agent: PatentAgent, patents: SeedPatent[]): Promise<void> {
  const headers = apiHeaders();
  for (const [i, p] of patents.entries()) {
    const created = await agentPage.request.post('/api/brevet_eptane/create', {
      headers,
      data: {
        numero_depot: officeNumber(p.pays ?? 'FR', 'application', i),
        numero_publication: p.noPublication ? null : officeNumber(p.pays ?? 'FR', 'publication', i),
        date_depot: '2018-03-15',
        reference_client: p.reference,
        reference_cabinet: `NS-${p.reference}`,
        date_echeance_annuites: p.due ?? day(p.dueIn),
        pays: p.pays ?? 'FR',
        origine: 'national',
        instruction_paiement: p.instruction ?? null,
        quantieme: p.quantieme ?? 9,
        cout: p.cout ?? 290,
      },
    });
    if (created.status() !== 200) throw new Error(`create: ${created.status()} ${await created.text()}`);
    const { submission } = (await created.json()) as { submission: PatentSubmissionDto };
    const accepted = await adminPage.request.put(`/api/patent_submissions/${submission._id}/accept`, { headers, data: { cabinet: agent.cabinet, code_client: agent.code } });
    if (accepted.status() !== 200) throw new Error(`accept: ${accepted.status()} ${await accepted.text()}`);
  }
}

/** The agents' list's row (desktop) or card (phone) of the patent whose client reference is `ref`. */
export function patentRow(page: Page, ref: string): Locator {
  return page.getByTestId('patent-row').filter({ has: page.getByTestId('patent-ref').getByText(ref, { exact: true }) });
}
