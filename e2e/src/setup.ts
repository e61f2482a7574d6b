import type { Browser, BrowserContext, Page } from 'playwright-core';
import { portal } from './browser.ts';
import { officeNumber, type PatentAgent, type SeedPatent } from './patents.ts';
import type { PatentSubmissionDto } from '@portal/contracts';

/**
 * The e2e files' one set-up (login, an annuities agent with its cabinet and client code, its patents seeded
 * through the real API), for the shared portal or a portal of a file's own (`startPortalProcess`): every helper
 * takes the portal it works on, and every API call carries the origin of the page that makes it.
 */

type Lang = 'en' | 'fr';

/** A portal to work on: the suite's shared one (`sharedPortal()`) or a file's own (`PortalProcess.info`). */
export interface PortalTarget {
  baseUrl: string;
  adminEmail: string;
  adminPassword: string;
}

export const sharedPortal = (): PortalTarget => portal();

const PASSWORD = 'E2e-user-password-2026';

/** The headers of a same-site API call from this page (the local API key, the page's portal as origin, JSON). */
export function headersOf(page: Page): Record<string, string> {
  return { 'x-api-key': 'local-dev-api-key', origin: new URL(page.url()).origin, 'content-type': 'application/json' };
}

/** A browser profile on `target` in `lang`, the cookie banner answered, generous timeouts (the machine is shared). */
export async function portalContext(browser: Browser, target: PortalTarget, { lang = 'en', width = 1440, height = 900 }: { lang?: Lang; width?: number; height?: number } = {}): Promise<BrowserContext> {
  const ctx = await browser.newContext({ baseURL: target.baseUrl, locale: lang === 'fr' ? 'fr-FR' : 'en-US', viewport: { width, height }, deviceScaleFactor: 1, reducedMotion: 'reduce' });
  await ctx.addCookies([{ name: 'cookie-consent', value: 'accepted', url: target.baseUrl, sameSite: 'Lax' }]);
  ctx.setDefaultTimeout(30_000);
  ctx.setDefaultNavigationTimeout(30_000);
  return ctx;
}

/** POST/PUT of JSON from this page's session; throws with the answer unless 200. */
export async function send<T = Record<string, unknown>>(page: Page, path: string, data: unknown, method: 'post' | 'put' = 'post'): Promise<T> {
  const r = await page.request[method](path, { headers: headersOf(page), data });
  if (r.status() !== 200) throw new Error(`${method.toUpperCase()} ${path}: ${r.status()} ${await r.text()}`);
  return (await r.json()) as T;
}

/** GET from this page's session; throws unless 200. */
export async function read<T = Record<string, unknown>>(page: Page, path: string): Promise<T> {
  const r = await page.request.get(path, { headers: headersOf(page) });
  if (r.status() !== 200) throw new Error(`GET ${path}: ${r.status()} ${await r.text()}`);
  return (await r.json()) as T;
}

/** A page on `target` logged in as `user` through the API (no screen), in a profile of its own: close it with `ctx.close()`. */
export async function apiSession(browser: Browser, target: PortalTarget, user: { email: string; password: string }, options: { lang?: Lang; width?: number; height?: number } = {}): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await portalContext(browser, target, options);
  try {
    const page = await ctx.newPage();
    await page.goto('/');
    await send(page, '/api/auth/login', { email: user.email, password: user.password });
    return { ctx, page };
  } catch (error) {
    await ctx.close();
    throw error;
  }
}

/** The portal's admin, logged in through the API. */
export const adminSession = (browser: Browser, target: PortalTarget, options: { lang?: Lang; width?: number; height?: number } = {}) =>
  apiSession(browser, target, { email: target.adminEmail, password: target.adminPassword }, options);

/** Runs `work` with the admin's page, its profile closed afterwards. */
export async function withAdmin<T>(browser: Browser, target: PortalTarget, work: (adminPage: Page) => Promise<T>): Promise<T> {
  const { ctx, page } = await adminSession(browser, target);
  try {
    return await work(page);
  } finally {
    await ctx.close();
  }
}

/**
 * The admin creates a user with a patent role (an annuities agent by default), the portal's first cabinet and
 * one client code (`code`, or a fresh one from `tag`), in its language.
 */
export async function createAgent(adminPage: Page, { tag, langue = 'en', code, role = 'user_agent_annuites', company }: { tag: string; langue?: Lang; code?: string; role?: 'user_agent_annuites' | 'admin_test'; company?: string }): Promise<PatentAgent> {
  const roles = await read<{ roles: { _id: string; slug: string }[] }>(adminPage, '/api/role');
  const cabinets = await read<{ cabinet: { _id: string }[] }>(adminPage, '/api/cabinet');
  const roleId = roles.roles.find((r) => r.slug === role)?._id;
  const cabinet = cabinets.cabinet[0]?._id;
  if (!roleId || !cabinet) throw new Error('no role or cabinet');
  const stamp = `${tag}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
  const agent: PatentAgent = { email: `${tag}-${stamp.toLowerCase()}@portal.test`, password: PASSWORD, company: company ?? `Cabinet ${tag}`, cabinet, code: code ?? `CODE-${stamp.toUpperCase()}` };
  await send(adminPage, '/api/admin/user', { company_agent: agent.company, email: agent.email, password: agent.password, roles: [roleId], id_client: [], cabinets: [cabinet], code: [agent.code], langue });
  return agent;
}

/** A patent as the agent submits it: the fields of POST /brevet_eptane/create (defaults: a French national filing of 2018-03-15, annuity 9). */
export type PatentInput = Record<string, unknown> & { reference_client: string };

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** `SeedPatent` (the patent screens' short form) as the create call's body. */
export function patentInput(p: SeedPatent, i: number): PatentInput {
  const pays = p.pays ?? 'FR';
  return {
    numero_depot: officeNumber(pays, 'application', i),
    numero_publication: p.noPublication ? null : officeNumber(pays, 'publication', i),
    reference_client: p.reference,
    reference_cabinet: `NS-${p.reference}`,
    date_echeance_annuites: p.due ?? day(p.dueIn),
    pays,
    instruction_paiement: p.instruction ?? null,
    quantieme: p.quantieme ?? 9,
    cout: p.cout ?? 290,
  };
}

/**
 * The agent submits the patents (in a session of its own) and the admin accepts each into the agent's cabinet
 * and client code. Patents are `SeedPatent`s or create bodies of the test's own making.
 */
export async function seedAgentPatents(browser: Browser, target: PortalTarget, adminPage: Page, agent: PatentAgent, patents: Array<SeedPatent | PatentInput>): Promise<void> {
  const { ctx, page } = await apiSession(browser, target, agent);
  try {
    for (const [i, p] of patents.entries()) {
      const body = 'reference_client' in p ? p : patentInput(p, i);
      const created = await send<{ submission: PatentSubmissionDto }>(page, '/api/brevet_eptane/create', { date_depot: '2018-03-15', origine: 'national', ...body });
      await send(adminPage, `/api/patent_submissions/${created.submission._id}/accept`, { cabinet: agent.cabinet, code_client: agent.code }, 'put');
    }
  } finally {
    await ctx.close();
  }
}
