import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, login, loginAsAdmin, newContext, portal } from '../src/browser.ts';
import { announcementMark, announcementsSince, countAnnouncements } from '../src/announcements.ts';
import { describeFindings, freshSample, scan, VALID_SAMPLE } from '../src/a11y.ts';
import { checkLedes } from '../src/ledes.ts';
import { Secret, TOTP } from 'otpauth';
import { apiHeaders, asAdmin, createUser, type CreatedUser } from '../src/users.ts';

/** The user turns two-step verification on from their account (through the API, with a code computed here). */
async function enrolSecondFactor(user: CreatedUser): Promise<void> {
  const context = await newContext(browser);
  try {
    const request = context.request;
    expect((await request.post('/api/auth/login', { headers: apiHeaders(), data: { email: user.email, password: user.password } })).status()).toBe(200);
    const setup = (await (await request.post('/api/account/mfa/setup', { headers: apiHeaders() })).json()) as { enrolment: { secret: string } };
    const code = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(setup.enrolment.secret) }).generate();
    expect((await request.post('/api/account/mfa/confirm', { headers: apiHeaders(), data: { code } })).status()).toBe(200);
  } finally {
    await context.close();
  }
}

let browser: Browser;
let agent: CreatedUser & { client: string };
beforeAll(async () => {
  browser = await launchBrowser();
  const client = `CLS-${Date.now().toString(36)}`;
  // One client id: no recipient to choose.
  agent = { ...(await asAdmin(browser, (page) => createUser(page, { role: 'user_agent_ledes', tag: 'announce', idClient: [client] }))), client };
});
afterAll(async () => {
  await browser?.close();
});

/** The LEDES agent's upload page in a context whose announcements are counted. */
async function uploadPageHeard(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await newContext(browser);
  await countAnnouncements(context);
  const page = await context.newPage();
  await login(page, agent.email, agent.password);
  await page.getByTestId('logout-button').waitFor();
  await page.goto('/ledes/upload');
  return { context, page };
}

/** Lets every announcement of an event land (React commits, the toast, the live regions). */
const quiet = (page: Page) => page.waitForTimeout(800);

/**
 * Every visible field message is tied to its control: a control with aria-invalid="true" whose aria-describedby
 * names the message. Answers the messages that are not.
 */
async function untiedMessages(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const messages = [...document.querySelectorAll<HTMLElement>('.mantine-InputWrapper-error, [data-testid^="error-"]')].filter((m) => m.offsetParent !== null && (m.textContent ?? '').trim());
    for (const m of new Set(messages)) {
      // The message's own id, or its live container's (the file picker's message sits in one).
      const id = m.id || m.parentElement?.id || '';
      const controls = id ? [...document.querySelectorAll(`[aria-describedby~="${CSS.escape(id)}"]`)] : [];
      if (!controls.some((c) => c.getAttribute('aria-invalid') === 'true')) out.push(`${id || '(no id)'}: ${(m.textContent ?? '').trim()} → ${controls.map((c) => `${c.tagName.toLowerCase()}[aria-invalid=${c.getAttribute('aria-invalid')}]`).join(', ') || 'no control'}`);
    }
    return out;
  });
}

describe('screen-reader announcements: one per event', () => {
  it('a login error is announced once (empty fields, then a wrong password)', async () => {
    const context = await newContext(browser);
    await countAnnouncements(context);
    const page = await context.newPage();
    await page.goto('/login');
    await page.locator('input[name="email"]').waitFor();
    await quiet(page);

    let mark = await announcementMark(page);
    await page.getByTestId('login-submit').click();
    await page.getByTestId('login-error').waitFor();
    await quiet(page);
    expect(await announcementsSince(page, mark)).toEqual([expect.objectContaining({ text: 'Please enter your email and password.' })]);
    // The empty fields are marked invalid and described by the message.
    expect(await page.locator('input[name="email"]').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('input[name="email"]').getAttribute('aria-describedby')).toContain('login-error');

    mark = await announcementMark(page);
    await page.locator('input[name="email"]').fill(portal().adminEmail);
    await page.locator('input[name="password"]').fill('definitely-not-the-password');
    await page.getByTestId('login-submit').click();
    await page.getByText('Incorrect email or password.').waitFor();
    await quiet(page);
    expect(await announcementsSince(page, mark)).toEqual([expect.objectContaining({ text: 'Incorrect email or password.' })]);
    await context.close();
  });

  it('an empty submit of the upload form is announced once: the summary, not one alert per field', async () => {
    const { context, page } = await uploadPageHeard();
    await page.getByTestId('type-patent').waitFor();
    await quiet(page);
    const mark = await announcementMark(page);
    await page.getByTestId('ledes-submit').click();
    await page.getByTestId('error-file').waitFor();
    await quiet(page);
    const heard = await announcementsSince(page, mark);
    // The summary is the one announcement (before, the file's message was an alert of its own too); the message
    // is read with its focused control.
    expect(heard, JSON.stringify(heard)).toEqual([{ testId: 'upload-summary', text: '1 field needs your attention: see the message under it.' }]);
    await context.close();
  });

  it('an upload refused by the server is announced once (no alert inside an alert)', async () => {
    const { context, page } = await uploadPageHeard();
    await page.getByTestId('ledes-file-input').setInputFiles(freshSample(VALID_SAMPLE));
    await page.getByTestId('type-patent').click();
    await page.getByTestId('office-PAR').click();
    await page.route('**/api/ledes/file/**', (route) =>
      route.fulfill({ status: 503, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ success: false, code: 'unavailable', message: 'The service is unavailable.' }) }),
    );
    await quiet(page);
    const mark = await announcementMark(page);
    await page.getByTestId('ledes-submit').click();
    await page.getByTestId('upload-error').waitFor();
    await quiet(page);
    const heard = await announcementsSince(page, mark);
    expect(heard, JSON.stringify(heard)).toHaveLength(1);
    await context.close();
  });

  it('a result page of several files announces one summary, not one alert per file', async () => {
    const context = await newContext(browser);
    await countAnnouncements(context);
    const page = await context.newPage();
    await login(page, agent.email, agent.password);
    await page.getByTestId('logout-button').waitFor();
    const runs: string[] = [];
    for (const n of [1, 2, 3]) runs.push(await checkLedes(page, agent.client, `announce-${n}.txt`));
    await page.goto(`/result-ledes?runs=${runs.join(',')}`);
    await page.waitForFunction(() => {
      const cards = [...document.querySelectorAll('[data-testid="run-card"]')];
      return cards.length === 3 && cards.every((c) => c.getAttribute('data-run-state') !== 'in_progress');
    });
    await quiet(page);
    // Since the page's start, the navigation's own announcement aside (and the loader's).
    const heard = (await announcementsSince(page, 0)).filter((a) => !/^Loading/.test(a.text));
    expect(heard, JSON.stringify(heard)).toEqual([{ testId: 'result-announcement', text: expect.stringMatching(/^3 files, 3 accepted$/) }]);
    await context.close();
  });
});

describe('fields in error', () => {
  it('are aria-invalid and described by their messages (log in, LEDES upload, add a user)', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await loginAsAdmin(page);
    await page.goto('/ledes/upload');
    await page.getByTestId('ledes-submit').click();
    await page.getByTestId('error-file').waitFor();
    expect(await untiedMessages(page)).toEqual([]);
    await page.goto('/add/user');
    await page.getByTestId('add-user-submit').click();
    await page.getByTestId('add-user-summary').locator('.mantine-Alert-root').waitFor();
    expect(await untiedMessages(page)).toEqual([]);
    await context.close();
  });
});

describe('radio groups', () => {
  it('a group of radio cards is one Tab stop; the arrow keys move and choose within it', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await login(page, agent.email, agent.password);
    await page.getByTestId('logout-button').waitFor();
    await page.goto('/ledes/upload');
    await page.getByTestId('type-patent').waitFor();
    const focusedId = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName ?? '');
    await page.getByTestId('type-patent').focus();
    await page.keyboard.press('ArrowRight');
    expect(await focusedId()).toBe('type-trademark');
    expect(await page.getByTestId('type-trademark').getAttribute('aria-checked')).toBe('true');
    // Tab leaves the group: the next stop is the office group (its first card, none being chosen).
    await page.keyboard.press('Tab');
    expect(await focusedId()).toMatch(/^office-/);
    await page.keyboard.press('Shift+Tab');
    expect(await focusedId()).toBe('type-trademark');
    await context.close();
  });
});

describe('users list', () => {
  for (const lang of ['en', 'fr'] as const) {
    it(`shows role names in words, whole, at 1440 and 768 px, and the second factor's status (${lang})`, async () => {
      const plain = await asAdmin(browser, (page) => createUser(page, { role: 'user_agent_ledes', tag: `roles-${lang}`, company: `Cabinet Roles ${lang}`, idClient: [`ROLES-${lang}`] }));
      const enrolled = await asAdmin(browser, (page) => createUser(page, { role: 'user_annuites', tag: `enrolled-${lang}`, company: `Cabinet Enrolled ${lang}` }));
      await enrolSecondFactor(enrolled);
      const context = await newContext(browser, { lang });
      const page = await context.newPage();
      await loginAsAdmin(page);
      if ((await page.evaluate(() => document.documentElement.lang)) !== lang) {
        await page.getByTestId('language-switcher').getByText(lang.toUpperCase(), { exact: true }).click();
        await page.waitForFunction((l) => document.documentElement.lang === l, lang);
      }
      await page.goto('/admin/user');
      for (const width of [1440, 768]) {
        await page.setViewportSize({ width, height: 900 });
        const row = page.getByTestId('user-table').getByRole('row').filter({ hasText: plain.email });
        await row.waitFor();
        const badge = row.getByTestId('role-badge');
        expect(await badge.textContent()).toBe(lang === 'en' ? 'LEDES agent (user_agent_ledes)' : 'Agent LEDES (user_agent_ledes)');
        // Nothing cut: each badge's label shows all its text.
        const cut = await page.evaluate(() =>
          [...document.querySelectorAll('[data-testid="role-badge"]')]
            .map((b) => b.querySelector('.mantine-Badge-label') ?? b)
            .filter((l) => l.scrollWidth > l.clientWidth + 1 || getComputedStyle(l).textOverflow === 'ellipsis')
            .map((l) => l.textContent),
        );
        expect(cut, `${width}px`).toEqual([]);
        // Never enrolled: "off", and no reset to offer; an enrolled user has "on" and the reset.
        expect(await row.getByTestId('mfa-status').textContent()).toBe(lang === 'en' ? 'Off' : 'Désactivée');
        expect(await row.getByTestId('mfa-reset').count()).toBe(0);
        const enrolledRow = page.getByTestId('user-table').getByRole('row').filter({ hasText: enrolled.email });
        expect(await enrolledRow.getByTestId('mfa-status').textContent()).toBe(lang === 'en' ? 'On' : 'Activée');
        expect(await enrolledRow.getByTestId('mfa-reset').count()).toBe(1);
      }
      await context.close();
    });
  }
});

describe('the role listbox of /add/user', () => {
  it('passes axe open at 360 px (scrollable-region-focusable)', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await loginAsAdmin(page);
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto('/add/user');
    await page.getByTestId('add-user-role').click();
    await page.getByRole('listbox').waitFor();
    await page.waitForTimeout(300);
    const findings = await scan(page, 'add-user role listbox 360', { alsoGate: ['scrollable-region-focusable'] });
    expect(findings, describeFindings(findings)).toEqual([]);
    await context.close();
  });
});
