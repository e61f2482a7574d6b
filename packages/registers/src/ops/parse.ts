import { parseNumber, registerUrl, isOffice, type ParsedNumber } from '@portal/annuities/core';
import { RegisterMalformedAnswerError } from '../errors.ts';
import type {
  EpNumber,
  EpRegisterRecord,
  EpState,
  EpStatus,
  IsoDate,
  LegalEvent,
  LegalEventsRecord,
  RegisterLapse,
  RenewalFeePayment,
  UnitaryEffect,
  UnitaryState,
} from '../types.ts';
import { child, children, descendants, NS, parseXml, XmlReadError, type XmlElement, type XmlLimits } from '../xml.ts';

/** Reads an answer body into a tree, or a typed malformed-answer error. */
export function readXml(body: string, what: string, limits?: XmlLimits): XmlElement {
  try {
    return parseXml(body, limits);
  } catch (error) {
    if (error instanceof XmlReadError) throw new RegisterMalformedAnswerError(`${what}: ${error.message}`);
    throw error;
  }
}

/** `<fault><code>SERVER.EntityNotFound</code>…` or `<error><code>400</code><message>invalid_access_token</message>…`. */
export interface OpsFault {
  readonly code: string;
  readonly message: string;
}

export function parseFault(body: string): OpsFault | null {
  let root: XmlElement;
  try {
    root = parseXml(body, { maxChars: 64 * 1024, maxDepth: 8, maxElements: 100 });
  } catch {
    return null;
  }
  if (root.local !== 'fault' && root.local !== 'error') return null;
  const text = (local: string) => root.children.find((c) => c.local === local)?.text ?? '';
  return { code: text('code'), message: text('message') };
}

/** `20120620` or `2012-06-20` to `2012-06-20`; anything else, or an impossible date, to null. */
export function isoDate(raw: string | undefined): IsoDate | null {
  if (!raw) return null;
  const m = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(raw.trim());
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return null;
  return `${m[1]}-${m[2]}-${m[3]}`;
}

function yearOf(raw: string | undefined): number | null {
  if (!raw || !/^\s*\d{1,2}\s*$/.test(raw)) return null;
  const year = Number(raw);
  return year >= 1 && year <= 25 ? year : null;
}

function epParsed(digits: string | null, kind: 'application' | 'publication'): ParsedNumber | null {
  if (!digits) return null;
  const parsed = parseNumber(`EP${digits}`, kind);
  return parsed.ok ? parsed.value : null;
}

/** The EP register page of a file (main tab), or for a national event its register (federated tab or the office's own). */
export function epRegisterUrl(application: string | null, publication: string | null, country: string = 'EP'): string {
  const app = epParsed(application, 'application');
  const pub = epParsed(publication, 'publication');
  const national = country !== 'EP' && country !== 'UP';
  let url: string | null;
  if (!national) url = registerUrl({ office: 'EP', origin: 'ep_application', application: app, publication: pub });
  else if (isOffice(country)) url = registerUrl({ office: country, origin: 'ep_validated', application: app, publication: pub });
  // A state the portal has no office for (CH, CY, …): the EP register's federated tab lists it.
  else url = app ? `https://register.epo.org/application?number=EP${app.digits}&lng=en&tab=federated` : null;
  return url ?? (pub ? `https://worldwide.espacenet.com/patent/search?q=pn%3DEP${pub.digits}` : 'https://register.epo.org/');
}

// ---------------------------------------------------------------- the EP register (register service)

function registerDocument(root: XmlElement): XmlElement | null {
  return descendants(root, NS.register, 'register-document')[0] ?? null;
}

const STATE_WORDS: ReadonlyArray<[RegExp, EpState]> = [
  [/withdrawn/i, 'withdrawn'],
  [/refused/i, 'refused'],
  [/revoked/i, 'revoked'],
  [/lapsed/i, 'lapsed'],
  [/expired/i, 'expired'],
  [/\bgranted\b|no opposition filed|opposition|maintained|unitary effect/i, 'granted'],
  [/published|examination|search report|grant of patent is intended|request for|international publication|application/i, 'pending'],
];

export function epStateOf(text: string): EpState {
  for (const [re, state] of STATE_WORDS) if (re.test(text)) return state;
  return 'unknown';
}

/** The latest of dated entries (by `change-date`, then document order). */
function latest(elements: XmlElement[]): XmlElement | undefined {
  let best: XmlElement | undefined;
  for (const e of elements) {
    if (!best || (e.attributes.get('change-date') ?? '') > (best.attributes.get('change-date') ?? '')) best = e;
  }
  return best;
}

function epStatus(doc: XmlElement): EpStatus {
  const statuses = children(child(doc, NS.register, 'ep-patent-statuses') ?? doc, NS.register, 'ep-patent-status');
  const current = latest(statuses);
  if (current) {
    return { state: epStateOf(current.text), text: current.text, code: current.attributes.get('status-code') ?? null, since: isoDate(current.attributes.get('change-date')) };
  }
  // Without the statuses block, the document's own status attribute.
  const text = doc.attributes.get('status') ?? '';
  return { state: text ? epStateOf(text) : 'unknown', text, code: null, since: null };
}

function unitaryEffect(doc: XmlElement): UnitaryEffect {
  const block = child(doc, NS.register, 'unitary-patent');
  if (!block) return { state: 'none', text: null, code: null, since: null };
  const current = latest(children(child(block, NS.register, 'unitary-patent-statuses') ?? block, NS.register, 'unitary-patent-status'));
  if (!current) return { state: 'other', text: null, code: null, since: null };
  const text = current.text;
  let state: UnitaryState = 'other';
  if (/rejected|refused/i.test(text)) state = 'rejected';
  else if (/registered/i.test(text)) state = 'registered';
  else if (/request/i.test(text)) state = 'requested';
  return { state, text, code: current.attributes.get('status-code') ?? null, since: isoDate(current.attributes.get('change-date')) };
}

function renewals(doc: XmlElement, url: string): RenewalFeePayment[] {
  // Only the file's own procedural data: the unitary-patent block has procedural steps of its own.
  const data = child(doc, NS.register, 'procedural-data');
  if (!data) return [];
  const out: RenewalFeePayment[] = [];
  for (const step of children(data, NS.register, 'procedural-step')) {
    if (child(step, NS.register, 'procedural-step-code')?.text !== 'RFEE') continue;
    const yearText = children(step, NS.register, 'procedural-step-text').find((t) => t.attributes.get('step-text-type') === 'YEAR')?.text;
    const dateElement = children(step, NS.register, 'procedural-step-date').find((d) => d.attributes.get('step-date-type') === 'DATE_OF_PAYMENT');
    const year = yearOf(yearText);
    const paidOn = isoDate(dateElement ? child(dateElement, NS.register, 'date')?.text : undefined);
    if (year === null || paidOn === null) throw new RegisterMalformedAnswerError(`renewal fee step ${step.attributes.get('id') ?? '?'} without a readable year or payment date`);
    out.push({ code: 'RFEE', year, paidOn, url });
  }
  return out.sort((a, b) => a.year - b.year || a.paidOn.localeCompare(b.paidOn));
}

function lapses(doc: XmlElement): RegisterLapse[] {
  const biblio = child(doc, NS.register, 'bibliographic-data');
  const term = biblio ? latest(children(biblio, NS.register, 'term-of-grant')) : undefined;
  if (!term) return [];
  const out: RegisterLapse[] = [];
  for (const entry of children(term, NS.register, 'lapsed-in-country')) {
    const country = child(entry, NS.register, 'country')?.text ?? '';
    const lapsedOn = isoDate(child(entry, NS.register, 'date')?.text);
    if (/^[A-Z]{2}$/.test(country) && lapsedOn) out.push({ country, lapsedOn });
  }
  return out;
}

function numbersOf(doc: XmlElement): { application: string | null; publication: string | null } {
  const biblio = child(doc, NS.register, 'bibliographic-data');
  if (!biblio) return { application: null, publication: null };
  const number = (ref: XmlElement | undefined) => {
    const id = ref ? child(ref, NS.register, 'document-id') : undefined;
    if (!id || child(id, NS.register, 'country')?.text !== 'EP') return null;
    const digits = child(id, NS.register, 'doc-number')?.text ?? '';
    return /^\d{7,8}$/.test(digits) ? digits : null;
  };
  return { application: number(child(biblio, NS.register, 'application-reference')), publication: number(child(biblio, NS.register, 'publication-reference')) };
}

/**
 * One EP register record from the register's answers for a file: the procedural steps (renewal fees) and the
 * unitary-patent constituent (which carries the bibliographic data: numbers, lapses).
 */
export function parseEpRegister(asked: EpNumber, steps: XmlElement, upp: XmlElement | null): EpRegisterRecord {
  const stepsDoc = registerDocument(steps);
  if (!stepsDoc) throw new RegisterMalformedAnswerError('procedural steps: no register-document');
  const uppDoc = upp ? registerDocument(upp) : null;
  if (upp && !uppDoc) throw new RegisterMalformedAnswerError('unitary patent: no register-document');
  const numbers = numbersOf(uppDoc ?? stepsDoc);
  const application = numbers.application ?? (asked.kind === 'application' ? asked.digits : null);
  const publication = numbers.publication ?? (asked.kind === 'publication' ? asked.digits : null);
  const url = epRegisterUrl(application, publication);
  return {
    application,
    publication,
    status: epStatus(uppDoc ?? stepsDoc),
    renewals: renewals(stepsDoc, url),
    unitary: uppDoc ? unitaryEffect(uppDoc) : { state: 'none', text: null, code: null, since: null },
    lapses: uppDoc ? lapses(uppDoc) : [],
    url,
    producedOn: isoDate((uppDoc ?? stepsDoc).attributes.get('date-produced')),
  };
}

// ---------------------------------------------------------------- INPADOC legal events (legal service)

function docdbNumber(ref: XmlElement | undefined): { country: string; digits: string } | null {
  if (!ref) return null;
  const id = children(ref, NS.exchange, 'document-id').find((d) => d.attributes.get('document-id-type') === 'docdb');
  if (!id) return null;
  return { country: child(id, NS.exchange, 'country')?.text ?? '', digits: (child(id, NS.exchange, 'doc-number')?.text ?? '').trim() };
}

function legalField(event: XmlElement, local: string): string | undefined {
  const direct = child(event, NS.ops, local);
  if (direct) return direct.text;
  const extra = child(event, NS.ops, 'L500EP');
  return extra ? child(extra, NS.ops, local)?.text : undefined;
}

function legalEvent(event: XmlElement, application: string | null, publication: string | null): LegalEvent | null {
  let code = (event.attributes.get('code') ?? '').trim();
  let country = (legalField(event, 'L501EP') ?? '').trim();
  // National codes come as `REG` (reference to a national code) with the office's own code in L502EP.
  if (code === 'REG') code = (legalField(event, 'L502EP') ?? '').trim();
  if (code !== 'PGFP' && code !== 'PG25' && code !== 'PLFP') return null;
  if (code === 'PLFP' && country === '') country = (legalField(event, 'L001EP') ?? '').trim();
  if (!/^[A-Z]{2}$/.test(country)) throw new RegisterMalformedAnswerError(`${code} event without a country`);
  const publishedOn = isoDate(legalField(event, 'L007EP'));
  const url = epRegisterUrl(application, publication, country);
  if (code === 'PG25') {
    const reason = legalField(event, 'L510EP')?.trim() || null;
    return { kind: 'lapsed', code, country, effectiveOn: isoDate(legalField(event, 'L525EP')), publishedOn, reason, url };
  }
  return { kind: 'annual_fee_paid', code, country, year: yearOf(legalField(event, 'L520EP')), paidOn: isoDate(legalField(event, 'L518EP')), publishedOn, url };
}

/**
 * The annuity events of the asked EP patent. An answer lists the family members of the document; the events
 * hang on one of the members filed under the same application (often the A1, not the B1), so the members are
 * matched by the asked number, then every member of the matched applications contributes its events.
 */
export function parseLegalEvents(asked: EpNumber, root: XmlElement): LegalEventsRecord {
  const family = descendants(root, NS.ops, 'patent-family')[0];
  if (!family) throw new RegisterMalformedAnswerError('legal events: no patent-family');
  const members = children(family, NS.ops, 'family-member').map((member) => ({
    member,
    application: docdbNumber(child(member, NS.exchange, 'application-reference')),
    publication: docdbNumber(child(member, NS.exchange, 'publication-reference')),
  }));
  const matches = (n: { country: string; digits: string } | null) => n !== null && n.country === 'EP' && n.digits === asked.digits;
  const applications = new Set(
    members.filter((m) => (asked.kind === 'application' ? matches(m.application) : matches(m.publication))).flatMap((m) => (m.application?.country === 'EP' ? [m.application.digits] : [])),
  );
  const application = [...applications][0] ?? (asked.kind === 'application' ? asked.digits : null);
  const publication = asked.kind === 'publication' ? asked.digits : null;
  const events: LegalEvent[] = [];
  for (const m of members) {
    if (!m.application || m.application.country !== 'EP' || !applications.has(m.application.digits)) continue;
    for (const event of children(m.member, NS.ops, 'legal')) {
      const parsed = legalEvent(event, application, publication);
      if (parsed) events.push(parsed);
    }
  }
  return { application, events };
}
