import { describe, expect, it } from 'vitest';
import { consentCookie, parseConsent, readCookie } from '../src/lib/cookies.ts';
import { formatDate } from '../src/lib/format.ts';
import { filterUsers } from '../src/features/users/filterUsers.ts';

describe('consent cookie', () => {
  it('lasts one year on the whole site with SameSite=Lax', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    const c = consentCookie('accepted', now);
    expect(c).toContain('cookie-consent=accepted');
    expect(c).toContain('Max-Age=31536000');
    expect(c).toContain('Expires=Fri, 01 Jan 2027 00:00:00 GMT');
    expect(c).toContain('Path=/');
    expect(c).toContain('SameSite=Lax');
    expect(c).not.toContain('Secure');
    expect(consentCookie('declined', now, true)).toContain('; Secure');
  });
  it('reads the consent back', () => {
    expect(parseConsent(readCookie('a=1; cookie-consent=declined; b=2', 'cookie-consent'))).toBe('declined');
    expect(parseConsent(readCookie('a=1', 'cookie-consent'))).toBeUndefined();
    expect(parseConsent(readCookie('cookie-consent=maybe', 'cookie-consent'))).toBeUndefined();
  });
});

describe('formatDate', () => {
  // Issue 26 §2, decision 153: by the page's language (was DD-MM-YYYY in both).
  it('formats as DD/MM/YYYY in French and D Mon YYYY in English', () => {
    expect(formatDate(new Date(2024, 0, 5), 'fr')).toBe('05/01/2024');
    expect(formatDate(new Date(2024, 0, 5), 'en')).toBe('5\u00A0Jan\u00A02024');
    expect(formatDate('not a date', 'fr')).toBe('');
    expect(formatDate(null, 'fr')).toBe('');
  });
});

describe('filterUsers', () => {
  const users = [
    { company_agent: 'Cabinet Dupré', email: 'a@dupre.fr' },
    { company_agent: 'Acme IP', email: 'ops@acme.com' },
  ];
  it('matches name or e-mail, ignoring case and accents', () => {
    expect(filterUsers(users, 'dupre')).toHaveLength(1);
    expect(filterUsers(users, 'ACME.COM')).toEqual([users[1]]);
    expect(filterUsers(users, '  ')).toHaveLength(2);
    expect(filterUsers(users, 'zzz')).toHaveLength(0);
  });
});
