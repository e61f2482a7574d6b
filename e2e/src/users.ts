import type { Browser, Page } from 'playwright-core';
import { loginAsAdmin, newContext, portal, uniqueEmail } from './browser.ts';

export type Lang = 'en' | 'fr';

/** The headers of a same-site API call from a test (the local API key, the portal's origin, JSON). */
export function apiHeaders(): Record<string, string> {
  return { 'x-api-key': 'local-dev-api-key', origin: portal().baseUrl, 'content-type': 'application/json' };
}

export interface NewUser {
  /** A role slug: user_agent_ledes, user_annuites, admin... */
  role: string;
  /** Prefix of the generated e-mail. */
  tag: string;
  password?: string;
  company?: string;
  langue?: Lang;
  idClient?: string[];
}

export interface CreatedUser {
  email: string;
  password: string;
  company: string;
}

const DEFAULT_PASSWORD = 'E2e-user-password-2026';

/** An admin (logged in on `adminPage`) creates a user through the API; the add-user screen has its own tests. */
export async function createUser(adminPage: Page, user: NewUser): Promise<CreatedUser> {
  const roles = (await (await adminPage.request.get('/api/role', { headers: apiHeaders() })).json()) as { roles: { _id: string; slug: string }[] };
  const roleId = roles.roles.find((r) => r.slug === user.role)?._id;
  if (!roleId) throw new Error(`no ${user.role} role`);
  const created: CreatedUser = {
    email: uniqueEmail(user.tag),
    password: user.password ?? DEFAULT_PASSWORD,
    company: user.company ?? `Cabinet ${user.tag}`,
  };
  const response = await adminPage.request.post('/api/admin/user', {
    headers: apiHeaders(),
    data: {
      company_agent: created.company,
      email: created.email,
      password: created.password,
      roles: [roleId],
      id_client: user.idClient ?? [],
      cabinets: [],
      code: [],
      langue: user.langue ?? 'en',
    },
  });
  if (response.status() !== 200) throw new Error(`user: ${response.status()} ${await response.text()}`);
  return created;
}

export interface LedesAgent extends CreatedUser {
  clients: [string, string];
  recipients: [string, string];
}

/** An admin creates a user_agent_ledes with two client ids, each with its postal address (recipient name). */
export async function createLedesAgent(adminPage: Page, tag: string, langue: Lang = 'en'): Promise<LedesAgent> {
  const stamp = `${tag}${Date.now().toString(36)}`;
  const clients: [string, string] = [`CLA-${stamp}`, `CLB-${stamp}`];
  const recipients: [string, string] = [`Destinataire Alpha ${stamp}`, `Destinataire Beta ${stamp}`];
  for (const [i, idClient] of clients.entries()) {
    const address = await adminPage.request.post('/api/adresse_agent_ledes/create', {
      headers: apiHeaders(),
      data: {
        id_client: idClient,
        destinataire_libelle: recipients[i],
        ligne01_libelle: '12 rue de la Paix',
        ville_libelle: 'Paris',
        pays_code: 'FR',
        code_postal: '75002',
        devise: 'EUR',
      },
    });
    if (address.status() !== 200) throw new Error(`address: ${address.status()} ${await address.text()}`);
  }
  const user = await createUser(adminPage, { role: 'user_agent_ledes', tag: `ledes-${tag}`, company: `Cabinet Ledes ${stamp}`, langue, idClient: clients });
  return { ...user, clients, recipients };
}

/** Runs `work` on a page of the logged-in admin, in a browser context of its own, closed afterwards. */
export async function asAdmin<T>(browser: Browser, work: (adminPage: Page) => Promise<T>): Promise<T> {
  const context = await newContext(browser);
  try {
    const page = await context.newPage();
    await loginAsAdmin(page);
    return await work(page);
  } finally {
    await context.close();
  }
}
