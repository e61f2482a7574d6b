import { isOffice, parseNumber, type NumberKind, type Office } from '@portal/annuities/numbers';

/*
 * The receipts matcher (decision 192): pure, no I/O. From a receipt's text (what the PDF's text extraction
 * gives) and the candidate annuity records the job looked up, it finds which patents and years the receipt
 * pays, each with a confidence. Numbers are compared normalised by the annuity engine's parsers, so
 * "EP 3 456 789 B1", "EP3456789" and "3456789" meet; references as whole tokens, case and accents aside.
 */

export interface MatchCandidate {
  /** The annuity record (patent_records.id). */
  id: string;
  /** The ledger's patent (idbrevet, else the record): two records of one patent are one patent. */
  patentKey: string;
  referenceClient: string | null;
  /** The firm's own reference (nosref). */
  referenceCabinet: string | null;
  numeroDepot: string | null;
  numeroPublication: string | null;
  pays: string;
  /** The record's annuity year. */
  quantieme: number | null;
}

export type MatchConfidence = 'sure' | 'ambiguous' | 'none';
export type Evidence = 'application_number' | 'publication_number' | 'client_reference' | 'office_reference' | 'firm_reference';

export interface PatentMatch {
  recordId: string;
  patentKey: string;
  /** The year paid: printed on the receipt beside the patent, else the record's own year; null when neither is known. */
  year: number | null;
  yearPrinted: boolean;
  amount: string | null;
  currency: string | null;
  evidence: Evidence[];
  confidence: Exclude<MatchConfidence, 'none'>;
}

export interface ReceiptMatch {
  /** sure: every patent named is identified, its year not in doubt (the receipt links); ambiguous: staff decide; none: nothing found. */
  confidence: MatchConfidence;
  matches: PatentMatch[];
}

/** The labelled references the reading step found (`referencesFromText` or the manifest). */
export interface LabelledReferences {
  referenceClient: string | null;
  referenceInpi: string | null;
}

const TEXT_LIMIT = 200_000;
/** Fewer digits than this are never taken for a patent number on their own (years, amounts, dates). */
const MIN_DIGITS = 6;
const SEP = String.raw`[\s.\u00a0\u202f]?`;

const fold = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .normalize('NFKC')
    .toUpperCase();

interface NumberForm {
  kind: NumberKind;
  country: Office | null;
  digits: string;
}

/** A record's number as the engine reads it (country, digits without kind code or check digit); the raw digits when it cannot. */
function numberForm(raw: string | null, kind: NumberKind, pays: string): NumberForm | null {
  if (!raw || raw.trim() === '') return null;
  const office = isOffice(pays) ? pays : null;
  const parsed = parseNumber(raw, kind, office) as { ok: true; value: { country: Office; series: string; digits: string } } | { ok: false };
  if (parsed.ok) return { kind, country: parsed.value.country, digits: parsed.value.series + parsed.value.digits };
  const digits = raw.replace(/\D/g, '');
  return digits.length >= MIN_DIGITS ? { kind, country: null, digits } : null;
}

const COUNTRY_BEFORE = /([A-Z]{2})[\s\u00a0\u202f-]{0,2}$/;
const COUNTRY_ALIASES: Record<string, string> = { UK: 'GB', UP: 'EP' };
const escapeRe = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

interface Found {
  index: number;
  end: number;
}

/**
 * Where `form` appears in the folded text: its digits with or without separators between them (leading zeros
 * optional), not inside a longer number, and not right after another country's prefix.
 */
function findNumber(folded: string, form: NumberForm): Found[] {
  const digits = form.digits.replace(/^0+/, '');
  if (digits.replace(/\D/g, '').length < MIN_DIGITS - 1) return [];
  const body = [...digits].map((ch) => escapeRe(ch)).join(SEP);
  // Not inside a longer number: no digit (or digit group) before, no digit or decimal part after (a check digit after a
  // dot or a dash, "EP16839078.9", "10 2015 004 488.5", is allowed; so is a year or a fee code after a space: PDF text
  // extraction collapses the spaces between a table's columns).
  const re = new RegExp(String.raw`(?<!\d|\d[\s.\u00a0\u202f])(?:0${SEP})*${body}(?!\d|[.,]\d\d)`, 'g');
  const found: Found[] = [];
  for (const m of folded.matchAll(re)) {
    const head = folded.slice(Math.max(0, m.index - 8), m.index);
    // Letters stuck to the number must be a country prefix ("EP3456789"); a longer word ("ACME123456") is not a number.
    const stuck = /([A-Z]+)$/.exec(head)?.[1];
    if (stuck !== undefined && (stuck.length !== 2 || !isOffice(COUNTRY_ALIASES[stuck] ?? stuck))) continue;
    const before = COUNTRY_BEFORE.exec(head);
    const prefix = before && !/[A-Z]{3}[\s\u00a0\u202f-]{0,2}$/.test(head) ? (COUNTRY_ALIASES[before[1]!] ?? before[1]!) : null;
    if (prefix !== null && form.country !== null && isOffice(prefix) && prefix !== (COUNTRY_ALIASES[form.country] ?? form.country)) continue;
    found.push({ index: m.index, end: m.index + m[0].length });
  }
  return found;
}

/** A reference as a whole token of the folded text (letters, digits and - _ / . inside it). */
function findReference(folded: string, reference: string | null): Found[] {
  if (!reference) return [];
  const ref = fold(reference).trim();
  if (ref.length < 4 || !/[0-9]/.test(ref) || /^\d+$/.test(ref)) return [];
  const re = new RegExp(String.raw`(?<![A-Z0-9_/-])${escapeRe(ref)}(?![A-Z0-9_/]|-[A-Z0-9])`, 'g');
  return [...folded.matchAll(re)].map((m) => ({ index: m.index, end: m.index + m[0].length }));
}

const ORDINAL = String.raw`(?:ST|ND|RD|TH|E|EME|ER|RE|\.)?`;
/** "Annuité 5", "5e annuité", "renewal fee year 5", "5th year", "Jahresgebühr 5. Patentjahr", "5. Jahr", "year: 05". */
const YEAR_PATTERNS: RegExp[] = [
  new RegExp(String.raw`(?:ANNUITE|ANNUITY|RENEWAL\s+FEE|ANNUAL\s+FEE|JAHRESGEBUHR|JAHRESGEBUEHR)(?:\s+(?:N[O°]|FOR|POUR|DE\s+L'ANNEE|FUR\s+DAS|FOR\s+THE|YEAR|ANNEE|-|:))*\s*(\d{1,2})${ORDINAL}(?!\d)`, 'g'),
  new RegExp(String.raw`(?<!\d)(\d{1,2})${ORDINAL}\s*(?:ANNUITE|ANNUITY|YEAR|ANNEE|JAHR|PATENTJAHR)(?![A-Z])`, 'g'),
  new RegExp(String.raw`(?:YEAR|ANNEE|JAHR|PATENTJAHR|ANNUITE)\s*(?:N[O°]\s*)?[:]?\s*(\d{1,2})(?!\d)`, 'g'),
];
/** The EPO's renewal fee codes: 033 is the 3rd year's, … 050 the 20th's. */
const EPO_FEE_CODE = /(?:FEE\s+CODE|GEBUHRENCODE|CODE)\s*:?\s*0(3[3-9]|4\d|50)(?!\d)|(?<![\d.,]\s?)0(3[3-9]|4\d|50)\s+(?:-\s+)?RENEWAL/g;

function yearsIn(segment: string): number[] {
  const years: number[] = [];
  const add = (year: number) => {
    if (year >= 1 && year <= 25 && !years.includes(year)) years.push(year);
  };
  for (const re of YEAR_PATTERNS) for (const m of segment.matchAll(re)) add(Number(m[1]));
  if (/RENEWAL|JAHRESGEB|ANNUIT|FEE\s+CODE|GEBUHRENCODE/.test(segment)) for (const m of segment.matchAll(EPO_FEE_CODE)) add(Number(m[1] ?? m[2]) - 30);
  return years;
}

const AMOUNT_RE = /(?:(EUR|€|GBP|£)\s*(\d{1,3}(?:[ \u00a0\u202f.,]\d{3})*(?:[.,]\d{2})|\d+(?:[.,]\d{2}))|(\d{1,3}(?:[ \u00a0\u202f.,]\d{3})*(?:[.,]\d{2})|\d+(?:[.,]\d{2}))\s*(EUR|€|GBP|£))/g;

/** The first amount of a segment, as a decimal string, and its currency. */
function amountIn(segment: string): { amount: string; currency: string } | null {
  for (const m of segment.matchAll(AMOUNT_RE)) {
    const symbol = m[1] ?? m[4]!;
    const raw = (m[2] ?? m[3]!).replace(/[ \u00a0\u202f]/g, '');
    // The last separator followed by two digits is the decimal one; any other is a thousands separator.
    const decimal = raw.slice(0, -3).replace(/[.,]/g, '') + '.' + raw.slice(-2);
    return { amount: decimal, currency: symbol === '€' ? 'EUR' : symbol === '£' ? 'GBP' : symbol };
  }
  return null;
}

/** The line of the text around `index`. */
function lineAround(text: string, index: number, end: number): string {
  const start = text.lastIndexOf('\n', index) + 1;
  const stop = text.indexOf('\n', end);
  return text.slice(start, stop === -1 ? text.length : stop);
}

interface Hit {
  candidate: MatchCandidate;
  evidence: Evidence;
  at: Found;
  /** Numbers are strong (normalised, country-checked); a reference found only as a label's value or a token is as strong when unique. */
  strong: boolean;
}

/**
 * Matches a receipt's text to candidate records. A mention (a number or a reference found in the text) that
 * names one patent identifies it; one naming several patents is ambiguous. The year is the one printed on the
 * mention's line, else (one patent on the receipt) anywhere on it, else the record's own year.
 */
export function matchReceipt(fullText: string, candidates: readonly MatchCandidate[], labelled: LabelledReferences = { referenceClient: null, referenceInpi: null }): ReceiptMatch {
  const source = fold(fullText.slice(0, TEXT_LIMIT));
  const hits: Hit[] = [];
  for (const candidate of candidates) {
    const forms: Array<[Evidence, NumberForm | null]> = [
      ['application_number', numberForm(candidate.numeroDepot, 'application', candidate.pays)],
      ['publication_number', numberForm(candidate.numeroPublication, 'publication', candidate.pays)],
    ];
    for (const [evidence, form] of forms) {
      if (!form) continue;
      for (const at of findNumber(source, form)) hits.push({ candidate, evidence, at, strong: true });
    }
    for (const at of findReference(source, candidate.referenceClient)) hits.push({ candidate, evidence: 'client_reference', at, strong: true });
    for (const at of findReference(source, candidate.referenceCabinet)) hits.push({ candidate, evidence: 'firm_reference', at, strong: true });
    if (labelled.referenceClient && candidate.referenceClient && fold(labelled.referenceClient).trim() === fold(candidate.referenceClient).trim()) {
      hits.push({ candidate, evidence: 'client_reference', at: { index: -1, end: -1 }, strong: true });
    }
    if (labelled.referenceInpi && candidate.referenceCabinet && fold(labelled.referenceInpi) === fold(candidate.referenceCabinet)) {
      hits.push({ candidate, evidence: 'office_reference', at: { index: 0, end: 0 }, strong: true });
    }
  }
  if (hits.length === 0) return { confidence: 'none', matches: [] };

  // A mention is a place in the text (or the labelled office reference): the patents it names.
  const mentionOf = (hit: Hit) => (hit.evidence === 'office_reference' ? 'office' : hit.at.index < 0 ? 'label' : `${hit.at.index}:${hit.at.end}`);
  const named = new Map<string, Set<string>>();
  for (const hit of hits) named.set(mentionOf(hit), (named.get(mentionOf(hit)) ?? new Set()).add(hit.candidate.patentKey));
  // A patent is identified when one mention names it alone; named only alongside others, it is ambiguous.
  const identified = new Map<string, { hits: Hit[]; ambiguous: boolean }>();
  for (const hit of hits) {
    const entry = identified.get(hit.candidate.patentKey) ?? { hits: [], ambiguous: true };
    entry.hits.push(hit);
    if (named.get(mentionOf(hit))!.size === 1) entry.ambiguous = false;
    identified.set(hit.candidate.patentKey, entry);
  }

  // A patent named only by mentions that also name an identified patent is not named: the identified one explains them.
  for (const [key, entry] of identified) {
    if (!entry.ambiguous) continue;
    const explained = entry.hits.every((h) => [...named.get(mentionOf(h))!].some((other) => other !== key && identified.get(other)?.ambiguous === false));
    if (explained) identified.delete(key);
  }
  const single = identified.size === 1;
  const wholeYears = yearsIn(source);
  const matches: PatentMatch[] = [];
  for (const [patentKey, entry] of identified) {
    const textual = entry.hits.filter((h) => h.evidence !== 'office_reference' && h.at.index >= 0);
    const lines = textual.map((h) => lineAround(source, h.at.index, h.at.end));
    const lineYears = [...new Set(lines.flatMap(yearsIn))];
    const years = lineYears.length > 0 ? lineYears : single ? wholeYears : [];
    // Of the patent's records, the one of the printed year if the portfolio has it, else its first.
    const records = [...new Map(entry.hits.map((h) => [h.candidate.id, h.candidate])).values()];
    const printed = years.length === 1 ? years[0]! : null;
    const record = records.find((r) => r.quantieme === printed) ?? records[0]!;
    // Without a printed year, a patent with records of several years does not say which one was paid.
    const severalYears = printed === null && new Set(records.map((r) => r.quantieme)).size > 1;
    const year = printed ?? (years.length === 0 && !severalYears ? record.quantieme : null);
    const money = lines.map(amountIn).find((a) => a !== null) ?? (single ? amountIn(source) : null);
    // Sure: the patent is named alone by some mention and its year is not in doubt (a record without a year still
    // links the receipt; the ledger is written only with a year).
    const sure = !entry.ambiguous && years.length <= 1 && !severalYears;
    matches.push({
      recordId: record.id,
      patentKey,
      year,
      yearPrinted: printed !== null,
      amount: money?.amount ?? null,
      currency: money?.currency ?? null,
      evidence: [...new Set(entry.hits.map((h) => h.evidence))],
      confidence: sure ? 'sure' : 'ambiguous',
    });
  }
  matches.sort((a, b) => (a.patentKey < b.patentKey ? -1 : a.patentKey > b.patentKey ? 1 : 0));
  return { confidence: matches.every((m) => m.confidence === 'sure') ? 'sure' : 'ambiguous', matches };
}

/**
 * What the job looks candidates up by (decision 192): the digit runs of the text that could be patent numbers
 * (separators inside them dropped, and every run of consecutive groups, so "5 3 456 789" gives 3456789 too),
 * and the tokens that could be references (letters and digits with at least one digit). Bounded.
 */
export function lookupKeys(fullText: string): { digits: string[]; tokens: string[] } {
  const folded = fold(fullText.slice(0, TEXT_LIMIT));
  const digits = new Set<string>();
  for (const m of folded.matchAll(/\d+(?:[\s.\u00a0\u202f]\d+)*/g)) {
    const groups = m[0].split(/[\s.\u00a0\u202f]/);
    for (let i = 0; i < groups.length && i < 8; i++) {
      let joined = '';
      for (let j = i; j < groups.length && j < i + 8; j++) {
        joined += groups[j];
        const core = joined.replace(/^0+/, '');
        if (core.length >= MIN_DIGITS && core.length <= 15) digits.add(core);
      }
    }
    if (digits.size > 200) break;
  }
  const tokens = new Set<string>();
  for (const m of folded.matchAll(/[A-Z0-9][A-Z0-9_./-]{2,39}/g)) {
    const token = m[0].replace(/[./-]+$/, '');
    if (token.length >= 4 && /\d/.test(token) && /[A-Z]/.test(token)) tokens.add(token);
    if (tokens.size > 200) break;
  }
  return { digits: [...digits], tokens: [...tokens] };
}
