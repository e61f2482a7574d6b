import type { ParsedNumber } from './numbers.ts';
import type { Office, Origin } from './types.ts';

export interface RegisterInput {
  readonly office: Office;
  readonly origin: Origin;
  readonly publication: ParsedNumber | null;
  readonly application: ParsedNumber | null;
}

// Registers without a confirmed deep link (annuities.md §4 lines 207-210): the search page is the honest fallback.
const REGISTER_HOME: Partial<Record<Office, string>> = {
  IT: 'https://www.uibm.gov.it/bancadati/',
  NL: 'https://mijnoctrooi.rvo.nl/fo-eregister-view/',
  BE: 'https://bpp.economie.fgov.be/fo-eregister-view/',
  SE: 'https://search.prv.se/',
};

export function espacenetUrl(publication: ParsedNumber | null): string | null {
  if (publication === null || publication.kind !== 'publication') return null;
  return `https://worldwide.espacenet.com/patent/search?q=pn%3D${publication.country}${publication.digits}`;
}

/** The EP application number behind a row: an EP number, or the ES "E" file that carries it. */
function epApplicationDigits(n: ParsedNumber | null): ParsedNumber | null {
  if (n === null || n.kind !== 'application') return null;
  if (n.country === 'EP' && n.digits.length === 8) return n;
  return null;
}

function epoRegister(app: ParsedNumber, tab: 'main' | 'federated'): string {
  return `https://register.epo.org/application?number=EP${app.digits}&lng=en&tab=${tab}`;
}

/**
 * Link to the patent in its official register (annuities.md §1 last column and §4), falling back
 * to Espacenet, then to the register's search page.
 */
export function registerUrl(input: RegisterInput): string | null {
  const { office, origin, publication, application } = input;
  const epApp = epApplicationDigits(application);
  const epPub = publication !== null && publication.country === 'EP' ? publication : null;

  if (office === 'EP' || office === 'UP' || origin === 'unitary') {
    if (epApp) return epoRegister(epApp, 'main');
  } else if (origin === 'ep_validated') {
    if (office === 'DE' && epApp) return `https://register.dpma.de/DPMAregister/pat/register?AKZ=E${epApp.digits}${epApp.checkDigit ?? ''}&CURSOR=0`;
    if (office === 'ES') {
      const file = epApp ?? (application?.country === 'ES' && application.series === 'E' ? application : null);
      if (file) return `https://consultas2.oepm.es/InvenesWeb/detalle?referencia=E${file.digits}`;
    }
    if (office === 'GB' && epPub) return `https://www.ipo.gov.uk/p-ipsum/Case/PublicationNumber/EP${epPub.digits}`;
    if (office === 'SE' && epApp) return `https://was.prv.se/spd/ep/an/${epApp.digits}`;
    if (epApp) return epoRegister(epApp, 'federated');
  } else {
    const app = application?.country === office ? application : null;
    const pub = publication?.country === office ? publication : null;
    if (office === 'DE' && app) return `https://register.dpma.de/DPMAregister/pat/register?AKZ=${app.digits}${app.checkDigit ?? ''}&CURSOR=0`;
    if (office === 'FR' && pub) return `https://data.inpi.fr/brevets/FR${pub.digits}`;
    if (office === 'GB' && pub) return `https://www.ipo.gov.uk/p-ipsum/Case/PublicationNumber/GB${pub.digits}`;
    if (office === 'GB' && app) return `https://www.ipo.gov.uk/p-ipsum/Case/ApplicationNumber/GB${app.digits}`;
    if (office === 'ES' && app) return `https://consultas2.oepm.es/InvenesWeb/detalle?referencia=${app.series}${app.digits}`;
  }
  return espacenetUrl(publication) ?? REGISTER_HOME[office] ?? null;
}
