import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { chooseOption, launchBrowser, login, loginAsAdmin, newContext, portal, uniqueEmail } from '../src/browser.ts';
import { resetLinkIn, waitForMail } from '../src/outbox.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('admin creates a ledes agent', () => {
  it('creates a user_agent_ledes with two client ids and an address; the user sets a password from the mail and logs in', async () => {
    const email = uniqueEmail('ledes-agent');
    const admin = await newContext(browser);
    const page = await admin.newPage();
    await loginAsAdmin(page);
    await page.goto('/admin/user');
    await page.getByTestId('link-add-user').click();
    await page.waitForURL((u) => u.pathname === '/add/user');

    await page.locator('input[name="company_agent"]').fill('Cabinet E2E Ledes');
    await page.locator('input[name="email"]').fill(email);
    await page.locator('input[name="password"]').fill('Temporary-password-123');
    await chooseOption(page, 'add-user-role', /user_agent_ledes/);

    const ids = page.getByTestId('client-ids');
    await ids.waitFor();
    // Starts with one field and no remove button.
    expect(await ids.getByRole('textbox').count()).toBe(1);
    expect(await ids.getByRole('button', { name: /Remove/ }).count()).toBe(0);
    await ids.getByRole('textbox').nth(0).fill('CLIENT-A1');
    await ids.getByRole('button', { name: 'Add a client ID' }).click();
    await ids.getByRole('textbox').nth(1).fill('CLIENT-B2');
    expect(await ids.getByRole('button', { name: /Remove/ }).count()).toBe(2);

    // Address missing notice until created, but it does not block.
    await page.getByTestId('address-missing').waitFor();
    await page.getByTestId('open-address').click();
    const form = page.getByTestId('address-form');
    await form.waitFor();
    await form.locator('input[name="id_client"]').fill('CLIENT-A1');
    await form.locator('input[name="destinataire_libelle"]').fill('Cabinet E2E Ledes');
    await form.locator('input[name="ligne01_libelle"]').fill('12 rue de la Paix');
    await form.locator('input[name="code_postal"]').fill('75002');
    await form.locator('input[name="ville_libelle"]').fill('Paris');
    await form.locator('input[name="pays_code"]').fill('fr');
    await form.locator('input[name="devise"]').fill('eur');
    await page.getByTestId('address-submit').click();
    await page.getByText('Address added successfully').waitFor();
    await page.getByTestId('address-created').waitFor();

    await page.getByTestId('add-user-submit').click();
    await page.getByText('User added successfully').waitFor();

    // The list shows the new user with both client ids and the role slug.
    await page.goto('/admin/user');
    await page.getByTestId('user-search').fill(email);
    const row = page.getByTestId('user-table').getByRole('row').filter({ hasText: email });
    await row.waitFor();
    const text = (await row.textContent()) ?? '';
    expect(text).toContain('CLIENT-A1, CLIENT-B2');
    expect(text).toContain('user_agent_ledes');
    await admin.close();

    // First-connection mail → set a password → log in.
    const mail = await waitForMail(portal().dataDir, (m) => m.to.includes(email));
    const link = resetLinkIn(mail);
    const user = await newContext(browser);
    const userPage = await user.newPage();
    await userPage.goto(link);
    // The mail said "Your account is ready": the page activates it, it does not "reset" a password.
    expect(await userPage.getByRole('heading', { level: 1 }).textContent()).toBe('Choose your password');
    expect(await userPage.getByTestId('reset-submit').textContent()).toBe('Activate my account');
    await userPage.locator('input[name="password"]').fill('My-own-password-2026');
    await userPage.locator('input[name="confirm"]').fill('My-own-password-2027');
    await userPage.getByTestId('reset-submit').click();
    expect(await userPage.getByTestId('reset-error').textContent()).toBe('Passwords do not match');
    await userPage.locator('input[name="confirm"]').fill('My-own-password-2026');
    await userPage.getByTestId('reset-submit').click();
    await userPage.getByTestId('reset-success').waitFor();
    await userPage.waitForURL((u) => u.pathname === '/login', { timeout: 10_000 });

    await login(userPage, email, 'My-own-password-2026');
    await userPage.getByTestId('logout-button').waitFor();
    await userPage.getByTestId('menu-ledes').click();
    expect(await userPage.getByRole('menuitem').allTextContents()).toEqual(['Upload', 'History']);
    // Not an admin: the admin screens fall back home.
    await userPage.keyboard.press('Escape');
    await userPage.goto('/admin/user');
    await userPage.waitForURL((u) => u.pathname === '/');
    await user.close();
  });

  it('refuses the used link afterwards and an unknown token', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/password_reset?id=00000000-0000-0000-0000-000000000000&token=nope');
    await page.getByTestId('reset-expired').waitFor();
    expect(await page.getByTestId('reset-expired').textContent()).toBe('The link has expired');
    await page.goto('/password_reset');
    await page.waitForURL((u) => u.pathname === '/login');
    await context.close();
  });

  it("an admin's language pick at creation does not override the browser at login (decision 154), and an explicit switch afterwards sticks", async () => {
    const admin = await newContext(browser);
    const adminPage = await admin.newPage();
    await loginAsAdmin(adminPage);
    const headers = { 'x-api-key': 'local-dev-api-key', origin: portal().baseUrl, 'content-type': 'application/json' };
    const roles = (await (await adminPage.request.get('/api/role', { headers })).json()) as { roles: { _id: string; slug: string }[] };
    const roleId = roles.roles.find((r) => r.slug === 'user_annuites')?._id;
    expect(roleId).toBeTruthy();
    const email = uniqueEmail('francophone');
    const created = await adminPage.request.post('/api/admin/user', {
      headers,
      data: { company_agent: 'Cabinet Francophone', email, password: 'Mot-de-passe-2026', roles: [roleId], id_client: [], cabinets: [], code: [], langue: 'fr' },
    });
    expect(created.status()).toBe(200);
    await admin.close();

    // The account is 'fr' (its mails are French) but its user never chose: the English browser wins.
    const context = await newContext(browser, { lang: 'en' });
    const page = await context.newPage();
    await login(page, email, 'Mot-de-passe-2026');
    await page.getByTestId('logout-button').waitFor();
    await page.waitForURL((u) => u.pathname !== '/login');
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    expect(await page.getByTestId('logout-button').textContent()).toContain('Log out');
    expect(await page.getByTestId('menu-annuities').textContent()).toContain('Annuities');
    await page.getByTestId('language-switcher').getByText('FR', { exact: true }).click();
    await page.reload();
    await page.getByTestId('logout-button').waitFor();
    expect(await page.getByTestId('logout-button').textContent()).toContain('Se déconnecter');
    await context.close();
  });

  it('resets a forgotten password from the mail (French screens)', async () => {
    const admin = await newContext(browser);
    const adminPage = await admin.newPage();
    await loginAsAdmin(adminPage);
    const headers = { 'x-api-key': 'local-dev-api-key', origin: portal().baseUrl, 'content-type': 'application/json' };
    const roles = (await (await adminPage.request.get('/api/role', { headers })).json()) as { roles: { _id: string; slug: string }[] };
    const email = uniqueEmail('oubli');
    const created = await adminPage.request.post('/api/admin/user', {
      headers,
      data: { company_agent: 'Cabinet Oubli', email, password: 'Initial-password-2026', roles: [roles.roles.find((r) => r.slug === 'user_annuites')?._id], langue: 'fr' },
    });
    expect(created.status()).toBe(200);
    await admin.close();

    const context = await newContext(browser, { lang: 'fr' });
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByRole('link', { name: 'Mot de passe oublié\u202F?' }).click();
    await page.waitForURL((u) => u.pathname === '/forgot_password');
    await page.locator('input[name="email"]').fill('pas-un-email');
    await page.getByTestId('forgot-submit').click();
    expect(await page.getByTestId('forgot-error').textContent()).toBe('E-mail incorrect');
    await page.locator('input[name="email"]').fill(email);
    await page.getByTestId('forgot-submit').click();
    await page.getByTestId('forgot-sent').waitFor();
    expect(await page.getByTestId('forgot-sent').textContent()).toContain('10 minutes');

    const mail = await waitForMail(portal().dataDir, (m) => m.to.includes(email));
    // The dialog's own "Fermer" action (its × is named "Fermer" too).
    await page.getByRole('dialog').locator('button:not(.mantine-Modal-close)', { hasText: 'Fermer' }).click();
    await page.waitForURL((u) => u.pathname === '/login');
    await page.goto(resetLinkIn(mail));
    // A real reset keeps its title.
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Réinitialiser le mot de passe');
    await page.getByTestId('reset-submit').click();
    expect(await page.getByTestId('reset-error').textContent()).toBe('Veuillez saisir un mot de passe');
    await page.locator('input[name="password"]').fill('Nouveau-mot-de-passe-2026');
    await page.locator('input[name="confirm"]').fill('Nouveau-mot-de-passe-2026');
    await page.getByTestId('reset-submit').click();
    await page.getByTestId('reset-success').waitFor();
    expect(await page.getByTestId('reset-success').textContent()).toBe('Mot de passe réinitialisé avec succès');
    await page.waitForURL((u) => u.pathname === '/login', { timeout: 10_000 });
    await login(page, email, 'Nouveau-mot-de-passe-2026');
    await page.getByTestId('logout-button').waitFor();

    // The link works once.
    await page.goto(resetLinkIn(mail));
    await page.getByTestId('reset-expired').waitFor();
    await context.close();
  });

  it('asks for a cabinet for an annuities agent', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await loginAsAdmin(page);
    await page.goto('/add/user');
    await page.locator('input[name="company_agent"]').fill('Annuities agent');
    await page.locator('input[name="email"]').fill(uniqueEmail('annuities'));
    await page.locator('input[name="password"]').fill('Temporary-password-123');
    await chooseOption(page, 'add-user-role', /user_agent_annuites/);
    await page.getByTestId('codes').waitFor();
    await page.getByTestId('codes').getByRole('textbox').first().fill('CODE1');
    await page.getByTestId('add-user-submit').click();
    await page.getByText('Please select a firm').waitFor();
    await context.close();
  });
});
