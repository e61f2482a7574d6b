import { formatIsoDate, parseIsoDate, type Day } from './calendar.ts';

/**
 * ECB euro foreign exchange reference rates, read from the files the ECB publishes and an admin uploads
 * (no network call in the product): the daily and historical CSV (`eurofxref.csv`, `eurofxref-hist.csv`)
 * and XML (`eurofxref-daily.xml`, `eurofxref-hist.xml`, `eurofxref-hist-90d.xml`). A rate is the number of
 * units of the currency for one euro, kept exactly as published (a decimal string).
 *
 * Parsed defensively: no XML parser (no entity, no DTD), bounded text, every day and rate checked, a
 * file that is neither format or holds nothing usable is refused with a reason, never half read.
 */
export interface EcbRate {
  /** ISO day the ECB published the rate for. */
  readonly day: string;
  /** ISO 4217 code, 3 capital letters. */
  readonly currency: string;
  /** Units of `currency` for 1 EUR, as published (e.g. "0.8535"). */
  readonly perEur: string;
}

export type EcbFormat = 'csv' | 'xml';

export interface EcbFile {
  readonly format: EcbFormat;
  readonly rates: readonly EcbRate[];
  readonly firstDay: string;
  readonly lastDay: string;
  readonly days: number;
  /** Cells the ECB leaves empty or "N/A" (a currency not quoted that day): skipped, not errors. */
  readonly skipped: number;
}

/** Why a file was refused (a translated message per reason). */
export type EcbRefusal = 'ecb_file_empty' | 'ecb_file_too_large' | 'ecb_file_format' | 'ecb_file_bad_day' | 'ecb_file_bad_rate' | 'ecb_file_conflict' | 'ecb_file_too_many_days';

export type EcbParse = { ok: true; file: EcbFile } | { ok: false; reason: EcbRefusal; line: number | null };

/** 16 MiB of text: the whole history since 1999 in XML is about 7 MiB, in CSV under 2 MiB. */
export const ECB_MAX_CHARS = 16 * 1024 * 1024;
/** Days in one file at most (the history since 4 January 1999 is under 7,000 working days). */
export const ECB_MAX_DAYS = 20_000;
/** Currencies quoted on one day at most (the ECB quotes about 30). */
export const ECB_MAX_CURRENCIES = 100;

const RATE = /^\d{1,9}(?:\.\d{1,10})?$/;
const CURRENCY = /^[A-Z]{3}$/;
const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** ISO day of a cell: `2026-11-27` (history files) or `27 November 2026` (the daily CSV); null otherwise. */
function dayOfCell(text: string): string | null {
  const t = text.trim();
  const iso = parseIsoDate(t);
  if (iso !== null && /^\d{4}-\d{2}-\d{2}$/.test(t)) return formatIsoDate(iso);
  const m = /^(\d{1,2}) ([A-Za-z]+) (\d{4})$/.exec(t);
  if (!m) return null;
  const month = MONTHS.indexOf(m[2]!.toLowerCase()) + 1;
  if (month === 0) return null;
  const candidate = `${m[3]}-${String(month).padStart(2, '0')}-${m[1]!.padStart(2, '0')}`;
  return parseIsoDate(candidate) === null ? null : candidate;
}

/** "1.0512" → ok, "0" or "N/A" → not a rate. */
function isRate(text: string): boolean {
  return RATE.test(text) && /[1-9]/.test(text);
}

class Refused extends Error {
  constructor(
    readonly reason: EcbRefusal,
    readonly line: number | null,
  ) {
    super(reason);
  }
}

class Collector {
  private readonly byKey = new Map<string, string>();
  private readonly days = new Set<string>();
  readonly rates: EcbRate[] = [];
  skipped = 0;

  /** `line` is a number, or a getter called only on a refusal (counting lines is linear: never per rate). */
  add(day: string, currency: string, value: string, where: number | (() => number)) {
    const line = () => (typeof where === 'number' ? where : where());
    const v = value.trim();
    if (v === '' || v.toUpperCase() === 'N/A') {
      this.skipped++;
      return;
    }
    if (!CURRENCY.test(currency)) throw new Refused('ecb_file_format', line());
    if (!isRate(v)) throw new Refused('ecb_file_bad_rate', line());
    const key = `${day}|${currency}`;
    const seen = this.byKey.get(key);
    if (seen !== undefined) {
      if (Number(seen) !== Number(v)) throw new Refused('ecb_file_conflict', line());
      return;
    }
    this.byKey.set(key, v);
    this.days.add(day);
    if (this.days.size > ECB_MAX_DAYS) throw new Refused('ecb_file_too_many_days', line());
    this.rates.push({ day, currency, perEur: v });
  }

  finish(format: EcbFormat): EcbFile {
    if (this.rates.length === 0) throw new Refused('ecb_file_empty', null);
    const sorted = [...this.days].sort();
    return { format, rates: this.rates, firstDay: sorted[0]!, lastDay: sorted[sorted.length - 1]!, days: sorted.length, skipped: this.skipped };
  }
}

function parseCsv(text: string): EcbFile {
  const lines = text.split(/\r?\n/);
  const header = (lines[0] ?? '').split(',').map((c) => c.trim());
  if (header[0]?.toLowerCase() !== 'date') throw new Refused('ecb_file_format', 1);
  const currencies = header.slice(1);
  // The ECB ends every line with a comma: an empty last column is not a currency.
  while (currencies.length > 0 && currencies[currencies.length - 1] === '') currencies.pop();
  if (currencies.length === 0 || currencies.length > ECB_MAX_CURRENCIES) throw new Refused('ecb_file_format', 1);
  for (const c of currencies) if (!CURRENCY.test(c)) throw new Refused('ecb_file_format', 1);
  if (new Set(currencies).size !== currencies.length) throw new Refused('ecb_file_format', 1);
  const out = new Collector();
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
    const cells = line.split(',');
    const day = dayOfCell(cells[0] ?? '');
    if (day === null) throw new Refused('ecb_file_bad_day', i + 1);
    const extra = cells.slice(currencies.length + 1);
    if (extra.some((c) => c.trim() !== '')) throw new Refused('ecb_file_format', i + 1);
    currencies.forEach((currency, c) => out.add(day, currency, cells[c + 1] ?? '', i + 1));
  }
  return out.finish('csv');
}

const ATTR = (name: string) => new RegExp(`\\b${name}\\s*=\\s*(?:'([^']*)'|"([^"]*)")`);
const TIME = ATTR('time');
const CUR = ATTR('currency');
const RATE_ATTR = ATTR('rate');

function lineAt(text: string, index: number): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

function parseXml(text: string): EcbFile {
  // No DTD, no entity: the ECB's files have none, and nothing here would expand one anyway.
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) throw new Refused('ecb_file_format', null);
  if (!/<Cube\b/.test(text)) throw new Refused('ecb_file_format', null);
  const out = new Collector();
  let day: string | null = null;
  const tags = /<Cube\b([^<>]*)>/g;
  for (let m = tags.exec(text); m !== null; m = tags.exec(text)) {
    const attrs = m[1]!;
    const time = TIME.exec(attrs);
    if (time) {
      day = dayOfCell(time[1] ?? time[2] ?? '');
      if (day === null) throw new Refused('ecb_file_bad_day', lineAt(text, m.index));
      continue;
    }
    const currency = CUR.exec(attrs);
    const rate = RATE_ATTR.exec(attrs);
    if (!currency && !rate) continue; // the enclosing <Cube>
    if (!currency || !rate || day === null) throw new Refused('ecb_file_format', lineAt(text, m.index));
    const at = m.index;
    out.add(day, currency[1] ?? currency[2] ?? '', rate[1] ?? rate[2] ?? '', () => lineAt(text, at));
  }
  return out.finish('xml');
}

/** Reads an ECB reference-rate file (CSV or XML, told apart by its first characters). */
export function parseEcbRates(text: string): EcbParse {
  if (text.length > ECB_MAX_CHARS) return { ok: false, reason: 'ecb_file_too_large', line: null };
  const body = text.replace(/^\ufeff/, '').trimStart();
  if (body === '') return { ok: false, reason: 'ecb_file_empty', line: null };
  try {
    const file = body.startsWith('<') ? parseXml(body) : parseCsv(body);
    return { ok: true, file };
  } catch (error) {
    if (error instanceof Refused) return { ok: false, reason: error.reason, line: error.line };
    throw error;
  }
}

/**
 * The rate for a payment on `day`: the one published that day, else the last published before it (the
 * ECB publishes on TARGET working days only). `rates` are one currency's, any order. Null when none is
 * that old.
 */
export function pickEcbRate<R extends { readonly day: string }>(rates: readonly R[], day: Day | string): R | null {
  const on = typeof day === 'string' ? day : formatIsoDate(day);
  let best: R | null = null;
  for (const r of rates) if (r.day <= on && (best === null || r.day > best.day)) best = r;
  return best;
}

/**
 * `minor` units of a currency in euro cents at `perEur` units for one euro, rounded half up, exactly (no
 * float: the published decimal is scaled to an integer).
 */
export function toEuroMinor(minor: number, perEur: string): number {
  if (!isRate(perEur)) throw new Error(`bad rate ${perEur}`);
  const [units = '0', decimals = ''] = perEur.split('.');
  const scaled = BigInt(units + decimals);
  const scale = 10n ** BigInt(decimals.length);
  const negative = minor < 0;
  const n = BigInt(Math.abs(minor)) * scale;
  const q = (2n * n + scaled) / (2n * scaled);
  return Number(negative ? -q : q);
}
