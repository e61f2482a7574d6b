/**
 * The web seams of issue 9: role guards of the LEDES screens, forms that clear a fixed field's
 * message and focus the first invalid one, contact failures that say why and stay, the admin log
 * sorted / searched / translated by the server and the screen, the shared upload control's names.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ANNUITIES_LANDING, chooseOption, launchBrowser, login, loginAsAdmin, newContext, portal } from '../src/browser.ts';
import { asAdmin, createUser } from '../src/users.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SAMPLE = path.join(ROOT, 'packages/ledes/test/fixtures/samples/travisbashor-ledes-parser_tests-data-ledes_98B.txt');

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Whether the element with the focus is the input named `name`. */
async function focusedName(page: Page): Promise<string | null> {
  return page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.getAttribute('name') ?? null);
}

describe('LEDES screens and roles', () => {
  it('keeps the LEDES screens for the roles with the LEDES menu: a user_annuites is sent away from each', async () => {
    const user = await asAdmin(browser, (adminPage) => createUser(adminPage, { role: 'user_annuites', tag: 'seams-annuites' }));

    const context = await newContext(browser);
    const page = await context.newPage();
    await login(page, user.email, user.password);
    await page.getByTestId('logout-button').waitFor();
    for (const screen of ['/ledes/upload', '/ledes/history', '/result-ledes?runs=00000000-0000-4000-8000-000000000000']) {
      await page.goto(screen);
      // Sent home, and from there on to the annuities verify screen (the user has that menu).
      await page.waitForURL((u) => u.pathname === ANNUITIES_LANDING, { timeout: 10_000 });
      expect(await page.getByTestId('ledes-upload-form').count(), screen).toBe(0);
    }
    await context.close();
  });
});

describe('forms', () => {
  it('add user: a rejected submit focuses the first invalid field and announces a summary; each message goes as soon as its field is fixed', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await loginAsAdmin(page);
    await page.goto('/add/user');
    await page.getByTestId('add-user-submit').click();

    const company = page.locator('input[name="company_agent"]');
    await page.getByText('Please enter a company or agent name').waitFor();
    await expect.poll(() => focusedName(page)).toBe('company_agent');
    expect(await page.getByTestId('add-user-summary').getAttribute('role')).toBe('alert');
    expect(await page.getByTestId('add-user-summary').textContent()).toMatch(/4 fields need your attention/);
    // The message is tied to its field.
    const describedBy = (await company.getAttribute('aria-describedby')) ?? '';
    const errorText = await page.evaluate((ids) => ids.split(' ').map((id) => document.getElementById(id)?.textContent ?? '').join(' '), describedBy);
    expect(errorText).toContain('Please enter a company or agent name');

    await company.fill('Cabinet Seams');
    await page.getByText('Please enter a company or agent name').waitFor({ state: 'detached' });
    const email = page.locator('input[name="email"]');
    await email.fill('not-an-email');
    await page.getByText('Invalid email').waitFor();
    await email.fill('someone@portal.test');
    await page.getByText('Invalid email').waitFor({ state: 'detached' });
    await page.locator('input[name="password"]').fill('short');
    await page.getByText('The password must contain at least 12 characters').waitFor();
    await page.locator('input[name="password"]').fill('Long-enough-password-1');
    await page.getByText('The password must contain at least 12 characters').waitFor({ state: 'detached' });
    await chooseOption(page, 'add-user-role', /user_annuites/);
    await page.getByText('Please select a role').waitFor({ state: 'detached' });
    expect(await page.getByTestId('add-user-summary').textContent()).toBe('');
    await context.close();
  });

  it('add user: a refused creation says why in a sentence, not a concatenated raw message', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await loginAsAdmin(page);
    await page.goto('/add/user');
    await page.locator('input[name="company_agent"]').fill('Cabinet Seams');
    await page.locator('input[name="email"]').fill(portal().adminEmail);
    await page.locator('input[name="password"]').fill('Long-enough-password-1');
    await chooseOption(page, 'add-user-role', /user_annuites/);
    await page.getByTestId('add-user-submit').click();
    await page.getByText(/^The user could not be added\. .+\.$/).waitFor();
    expect(await page.getByText('Error while adding user').count()).toBe(0);
    await context.close();
  });

  it('contact: each submission has its own answer; a refusal for the rate says why, in the language, and stays past 2 s', async () => {
    const context = await newContext(browser, { lang: 'fr' });
    const page = await context.newPage();
    await page.goto('/contact');
    const send = async (details: string) => {
      await chooseOption(page, 'contact-issue', 'Autre');
      await chooseOption(page, 'contact-topic', /Autre probl/);
      await page.locator('textarea[name="details"]').fill(details);
      await page.getByTestId('contact-submit').click();
    };
    await page.locator('input[name="mail"]').fill('visitor@portal.test');
    await send(`E2E seams ${Date.now()} first`);
    await page.getByRole('alert').filter({ hasText: /envoy/i }).first().waitFor();

    // The API's answer to a message past its rate rule (429 rate_limited, Retry-After), for the second message only.
    await page.route('**/api/contact', (route) =>
      route.fulfill({
        status: 429,
        headers: { 'content-type': 'application/json', 'retry-after': '7' },
        body: JSON.stringify({ success: false, message: 'Trop de requêtes, veuillez réessayer plus tard.', code: 'rate_limited' }),
      }),
    );
    await send('second message within 2 s');
    const refusal = page.getByText('Trop de messages ont été envoyés depuis votre connexion en peu de temps. Veuillez réessayer dans 7\u00a0secondes.');
    await refusal.waitFor();
    await page.waitForTimeout(3000);
    expect(await refusal.isVisible()).toBe(true);
    await context.close();
  });
});

describe('admin log', () => {
  it('sorts on the server, searches displayed office and type names, follows the language switch, and links each name', async () => {
    const admin = await newContext(browser);
    const adminPage = await admin.newPage();
    await loginAsAdmin(adminPage);
    const agentUser = await createUser(adminPage, { role: 'user_agent_ledes', tag: 'seams-ledes', idClient: ['SEAMS-1'] });

    // The agent checks one file, so the log has a Paris patent row.
    const agent = await newContext(browser);
    const agentPage = await agent.newPage();
    await login(agentPage, agentUser.email, agentUser.password);
    await agentPage.getByTestId('logout-button').waitFor();
    const uploaded = await agentPage.request.post('/api/ledes/file/patent/PAR', {
      headers: { 'x-api-key': 'local-dev-api-key', origin: portal().baseUrl },
      multipart: { type: 'patent', office: 'PAR', id_client: 'SEAMS-1', file: { name: 'seams-98B.txt', mimeType: 'text/plain', buffer: readFileSync(SAMPLE) } },
    });
    expect(uploaded.status(), await uploaded.text()).toBe(200);
    await agent.close();

    await adminPage.goto('/ledes/history/admin');
    const table = adminPage.getByTestId('admin-history-table');
    await table.waitFor();
    const row = table.getByTestId('history-row').filter({ hasText: 'seams-98B.txt' }).first();
    await row.waitFor();
    expect(await row.getByTestId('history-office').textContent()).toBe('Paris office');
    expect(await row.getByTestId('history-type').textContent()).toBe('Patent');
    // Rows are not tab stops; the name is the link to the result.
    expect(await table.locator('tr[tabindex]').count()).toBe(0);
    expect(await row.getByRole('link', { name: 'seams-98B.txt' }).getAttribute('href')).toMatch(/^\/result-ledes\?runs=/);

    // The cells follow the language switch.
    await adminPage.getByTestId('language-switcher').getByText('FR', { exact: true }).click();
    await expect.poll(() => row.getByTestId('history-office').textContent()).toBe('Bureau de Paris');
    expect(await row.getByTestId('history-type').textContent()).toBe('Brevet');

    // Sorting asks the server (sort and order go with the request).
    const sorted = adminPage.waitForRequest((r) => r.url().includes('/api/historique/admin/') && r.url().includes('sort=office') && r.url().includes('order=asc'));
    await adminPage.getByTestId('sort-office').click();
    await sorted;

    // The search matches the displayed names (either language), not only the codes.
    for (const q of ['Bureau de Paris', 'Paris office', 'Brevet']) {
      await adminPage.getByTestId('admin-history-search').fill(q);
      await adminPage.waitForResponse((r) => r.url().includes('/api/searchHistorique') && r.url().includes(encodeURIComponent(q).replace(/%20/g, '+')));
      await table.getByTestId('history-row').filter({ hasText: 'seams-98B.txt' }).first().waitFor();
    }
    await admin.close();
  });
});

describe('LEDES upload control', () => {
  it('has a named keyboard control instead of a focusable unnamed drop zone, named radio groups, and an alert tied to the control', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await loginAsAdmin(page);
    await page.goto('/ledes/upload');
    await page.getByTestId('ledes-upload-form').waitFor();
    expect(await page.locator('[role="presentation"][tabindex="0"]').count()).toBe(0);
    const browse = page.getByRole('button', { name: 'Choose files…' });
    expect(await browse.count()).toBe(1);
    expect(await page.getByRole('group', { name: 'LEDES files to check' }).count()).toBe(1);
    expect(await page.getByRole('radiogroup', { name: 'Invoice type' }).count()).toBe(1);
    expect(await page.getByRole('radiogroup', { name: 'Office' }).count()).toBe(1);

    await page.getByTestId('ledes-submit').click();
    const error = page.getByTestId('error-file');
    await error.waitFor();
    // The message is in a live region and describes the control, which has the focus.
    expect(await error.evaluate((el) => el.closest('[role="alert"]') !== null)).toBe(true);
    const describedBy = (await browse.getAttribute('aria-describedby')) ?? '';
    const described = await page.evaluate((ids) => ids.split(' ').map((id) => document.getElementById(id)?.textContent ?? '').join(' '), describedBy);
    expect(described).toContain(await error.textContent());
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('file-browse');
    await context.close();
  });
});
