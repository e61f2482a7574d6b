import { resources } from '@portal/i18n';
import { describe, expect, it } from 'vitest';
import { MAIL_TEMPLATES, MailTemplateError, renderMail } from '../src/index.ts';

const LINK = 'https://portal.example.com/reset?token=abc123';

function keysOf(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, child]) => keysOf(child, prefix ? `${prefix}.${key}` : key));
}

describe('renderMail', () => {
  it('has the same e-mail keys in fr and en', () => {
    expect(keysOf(resources.fr.emails).sort()).toEqual(keysOf(resources.en.emails).sort());
  });

  it.each(['en', 'fr'] as const)('renders reset_password in %s with the link and 10 minutes', (locale) => {
    const mail = renderMail('reset_password', locale, { link: LINK });
    expect(mail.subject).toBe(locale === 'fr' ? 'Réinitialisation de votre mot de passe du Portail PI' : 'Reset your IP Portal password');
    expect(mail.text).toContain(LINK);
    expect(mail.text).toContain('10 minutes');
    expect(mail.html).toContain(`<a href="${LINK}"`);
    expect(mail.html).toContain(`<html lang="${locale}">`);
  });

  it.each(['en', 'fr'] as const)('renders first_connection in %s with name, link and 72 hours', (locale) => {
    const mail = renderMail('first_connection', locale, { link: LINK, name: 'Marie Curie' });
    expect(mail.text).toContain(locale === 'fr' ? 'Bonjour Marie Curie,' : 'Hello Marie Curie,');
    expect(mail.text).toContain(locale === 'fr' ? '72 heures' : '72 hours');
    expect(mail.text).toContain(LINK);
  });

  it.each(['en', 'fr'] as const)('renders contact in %s with every field and multi-line details', (locale) => {
    const mail = renderMail('contact', locale, {
      mail: 'client@example.com', issue: 'ledes', topic: 'ledes_verification', details: 'Line one\r\nLine two',
    });
    expect(mail.subject).toContain('ledes / ledes_verification');
    expect(mail.text).toContain('client@example.com');
    expect(mail.text).toContain('Line one\nLine two');
    expect(mail.html).toContain('Line one<br>Line two');
  });

  it('leaves no placeholder or marker behind in any template and locale', () => {
    const params = {
      ...{ link: LINK, name: 'N', mail: 'a@b.co', issue: 'i', topic: 't', details: 'd' },
      // The patent templates' parameters.
      ...{ filename: 'f.pdf', count: '2', instructions: '- a\n- b', reference: 'R', reason: 'r', step: 's', rows: '- a', total: '1 €' },
      // The LEDES notifications' parameters.
      ...{ errors: '3', settings: LINK, day: '2026-11-27', runs: '4', accepted: '2', refused: '1', failed: '1', findings: '- MTH-001 (3)' },
      // The renewal calls' parameters.
      ...{ client: 'C1', totals: '136.00 EUR', before: '2027-03-31' },
    };
    for (const template of MAIL_TEMPLATES) {
      for (const locale of ['en', 'fr'] as const) {
        const mail = renderMail(template, locale, params);
        for (const part of [mail.subject, mail.text, mail.html]) {
          expect(part).not.toMatch(/\{\{|\}\}|[\uE000\uE001]/);
        }
      }
    }
  });

  it.each(['en', 'fr'] as const)('renders ledes_refused in %s: the file in the subject, the lines in error, the result and the settings as links', (locale) => {
    const mail = renderMail('ledes_refused', locale, { name: 'Cabinet', filename: 'invoice-12.txt', errors: '3', link: 'https://portal.example.com/result-ledes?runs=1', settings: 'https://portal.example.com/account/notifications' });
    expect(mail.subject).toContain('invoice-12.txt');
    expect(mail.text).toMatch(/\b3\b/);
    expect(mail.html).toContain(`href="https://portal.example.com/result-ledes?runs=1"`);
    expect(mail.html).toContain(`href="https://portal.example.com/account/notifications"`);
  });

  it.each(['en', 'fr'] as const)('renders patent_reminder in %s: the step in the subject, one line per patent, the total', (locale) => {
    const mail = renderMail('patent_reminder', locale, { name: 'Agent', step: 'Reminder', count: '2', rows: 'REF-1 | a\nREF-2 | b', total: '€10.00' });
    expect(mail.subject).toContain('Reminder');
    expect(mail.text).toContain('REF-1 | a\nREF-2 | b');
    expect(mail.text).toContain('€10.00');
    expect(mail.html).toContain('REF-1 | a<br>REF-2 | b');
  });

  it('VAL-09: escapes every parameter in HTML and flattens header-bound values', () => {
    const mail = renderMail('contact', 'en', {
      mail: 'x@example.com',
      issue: 'other\r\nBcc: victim@example.com',
      topic: '<script>alert(1)</script>',
      details: '<img src=x onerror=alert(1)> & "quotes" {{link}} $t(emails:layout.greeting)',
    });
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(mail.subject).toBe('Contact request: other Bcc: victim@example.com / <script>alert(1)</script>');
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('<img');
    expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(mail.html).toContain('&lt;img src=x onerror=alert(1)&gt; &amp; &quot;quotes&quot;');
    // User text is never interpreted by i18next.
    expect(mail.text).toContain('{{link}} $t(emails:layout.greeting)');
  });

  it('escapes a hostile name in first_connection', () => {
    const mail = renderMail('first_connection', 'fr', { link: LINK, name: '<script>x</script>\r\nBcc: x@y.z' });
    expect(mail.html).toContain('Bonjour &lt;script&gt;x&lt;/script&gt; Bcc: x@y.z,');
    expect(mail.text).toContain('Bonjour <script>x</script> Bcc: x@y.z,');
  });

  it('refuses a missing parameter or a non-http link', () => {
    expect(() => renderMail('reset_password', 'en', {})).toThrow(MailTemplateError);
    expect(() => renderMail('reset_password', 'en', { link: 'javascript:alert(1)' })).toThrow(MailTemplateError);
    expect(() => renderMail('reset_password', 'en', { link: '/relative/path' })).toThrow(MailTemplateError);
    expect(() => renderMail('contact', 'en', { mail: 'a@b.co', issue: 'i', topic: 't' })).toThrow(/details/);
  });

  it('HTML-escapes a link with quotes so it cannot break out of href', () => {
    const mail = renderMail('reset_password', 'en', { link: 'https://portal.example.com/r?t=1&x="><script>' });
    expect(mail.html).toContain('href="https://portal.example.com/r?t=1&amp;x=&quot;&gt;&lt;script&gt;"');
  });
});
