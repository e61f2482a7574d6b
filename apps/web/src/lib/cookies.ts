const CONSENT_COOKIE = 'cookie-consent';
export type ConsentValue = 'accepted' | 'declined';
const CONSENT_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/** Reads one cookie from a `document.cookie` style string. */
export function readCookie(cookieString: string, name: string): string | undefined {
  for (const part of cookieString.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) {
      const raw = part.slice(eq + 1).trim();
      try {
        return decodeURIComponent(raw);
      } catch {
        return raw;
      }
    }
  }
  return undefined;
}

export function parseConsent(value: string | undefined): ConsentValue | undefined {
  return value === 'accepted' || value === 'declined' ? value : undefined;
}

/** The Set-Cookie style string for the consent choice: one year, whole site, SameSite=Lax. */
export function consentCookie(value: ConsentValue, now: Date = new Date(), secure = false): string {
  const expires = new Date(now.getTime() + CONSENT_MAX_AGE_SECONDS * 1000).toUTCString();
  return `${CONSENT_COOKIE}=${value}; Max-Age=${CONSENT_MAX_AGE_SECONDS}; Expires=${expires}; Path=/; SameSite=Lax${secure ? '; Secure' : ''}`;
}

export function getConsent(): ConsentValue | undefined {
  if (typeof document === 'undefined') return undefined;
  return parseConsent(readCookie(document.cookie, CONSENT_COOKIE));
}

export function setConsent(value: ConsentValue): void {
  document.cookie = consentCookie(value, new Date(), window.location.protocol === 'https:');
}
