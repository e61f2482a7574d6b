import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { chooseOption, launchBrowser, loginAsAdmin, newContext, portal } from '../src/browser.ts';
import { readOutbox, waitForMail } from '../src/outbox.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('contact form', () => {
  it('prefills the e-mail of the logged-in user, steps through issue/topic/details and sends a mail', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await loginAsAdmin(page);
    await page.goto('/contact');
    const mail = page.locator('input[name="mail"]');
    await page.waitForFunction((email) => document.querySelector<HTMLInputElement>('input[name="mail"]')?.value === email, portal().adminEmail);

    // Pattern-checked on key-up.
    await mail.fill('');
    await mail.pressSequentially('not-an-email');
    await page.getByText('Invalid email').waitFor();
    await mail.fill('');
    await mail.pressSequentially(portal().adminEmail);
    await page.getByText('Invalid email').waitFor({ state: 'detached' });

    expect(await page.locator('input[name="topic"]').count()).toBe(0);
    await chooseOption(page, 'contact-issue', 'Patent');
    expect(await page.locator('textarea[name="details"]').count()).toBe(0);
    await chooseOption(page, 'contact-topic', 'Missing patent');
    // Changing the issue clears the topic and hides the details again.
    await chooseOption(page, 'contact-issue', 'Account');
    await page.locator('textarea[name="details"]').waitFor({ state: 'detached' });
    await chooseOption(page, 'contact-topic', 'Login problem');

    const before = readOutbox(portal().dataDir).length;
    const marker = `E2E contact ${Date.now()}`;
    await page.locator('textarea[name="details"]').fill(`${marker}: I cannot log in from the office.`);
    await page.getByTestId('contact-submit').click();
    await page.getByText('Email sent').waitFor();
    const sent = await waitForMail(portal().dataDir, (m) => m.body.includes(marker));
    expect(readOutbox(portal().dataDir).length).toBeGreaterThan(before);
    expect(sent.body).toContain(marker);
    await context.close();
  });

  it('lists the missing fields', async () => {
    const context = await newContext(browser, { lang: 'fr' });
    const page = await context.newPage();
    await page.goto('/contact');
    await page.getByTestId('contact-submit').click();
    await page.getByText('Veuillez saisir votre e-mail').waitFor();
    await page.getByText('Veuillez choisir un sujet').waitFor();
    await context.close();
  });
});
