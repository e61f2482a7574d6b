import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, login, loginAsAdmin, newContext, portal } from '../src/browser.ts';
import { INVALID_SAMPLE } from '../src/a11y.ts';
import { checkLedes } from '../src/ledes.ts';
import { waitForMail } from '../src/outbox.ts';
import { asAdmin, createUser } from '../src/users.ts';

/** Issue 31 §3: one's mails turned on from the account, in both languages; the refused file's mail arrives. */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const TEXT = {
  en: { refused: 'A file of mine is refused', saved: 'Your choice is saved.', subject: 'LEDES file refused' },
  fr: { refused: 'Un de mes fichiers est refusé', saved: 'Votre choix est enregistré.', subject: 'Fichier LEDES refusé' },
} as const;

describe.each(['en', 'fr'] as const)('notifications (%s)', (lang) => {
  it('an agent turns on the refused-file mail from the footer, it stays on, and the next refused file mails them in their language', async () => {
    const idClient = `NOTIFY-${lang}-${Date.now().toString(36)}`;
    const agent = await asAdmin(browser, (adminPage) => createUser(adminPage, { role: 'user_agent_ledes', tag: `notify-${lang}`, idClient: [idClient], langue: lang }));
    const context = await newContext(browser, { lang });
    const page = await context.newPage();
    await login(page, agent.email, agent.password);
    await page.getByTestId('logout-button').waitFor();
    await page.getByTestId('footer-notifications').click();
    await page.waitForURL((url) => url.pathname === '/account/notifications');
    const refused = page.getByTestId('notify-ledes_refused');
    await refused.waitFor();
    // An agent has no digest (admins only).
    expect(await page.getByTestId('notify-ledes_digest').count()).toBe(0);
    expect(await refused.isChecked()).toBe(false);
    await page.getByLabel(TEXT[lang].refused).click();
    await page.getByText(TEXT[lang].saved).waitFor();
    await page.reload();
    await page.getByTestId('notify-ledes_refused').waitFor();
    expect(await page.getByTestId('notify-ledes_refused').isChecked()).toBe(true);

    const name = `notify-${lang}-${path.basename(INVALID_SAMPLE)}`;
    await checkLedes(page, idClient, name, INVALID_SAMPLE);
    // The agent is new: theirs is the one mail to them (a long encoded subject may come back with spaces in the name).
    const mail = await waitForMail(portal().dataDir, (m) => m.to.includes(agent.email));
    expect(mail.subject).toContain(TEXT[lang].subject);
    expect(mail.body).toContain('/result-ledes?runs=');
    await context.close();
  }, 120_000);

  it('an admin also has the daily digest', async () => {
    const context = await newContext(browser, { lang });
    const page = await context.newPage();
    await loginAsAdmin(page);
    await page.goto('/account/notifications');
    await page.getByTestId('notify-ledes_digest').waitFor();
    await context.close();
  });
});
