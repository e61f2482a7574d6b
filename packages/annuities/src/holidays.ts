import { addDays, dayFromYmd, weekday, ymdFromDay, type Day } from './calendar.ts';
import type { Office } from './types.ts';

/**
 * When a payment period that ends on a non-working day runs to the next working day, per office,
 * with the legal text it follows and the office's public holidays as data (docs/decisions.md,
 * "Period ends on non-working days"). Only the ends of periods move (the surcharge-free period and
 * the grace period); the due date itself never does (J 4/91 for the EPO; the national texts speak of
 * the last day of a period).
 *
 * An office is listed here only where the extension is established from the legal text. Where it is
 * not (BE, ES, IT, NL, GB), periods end on their calendar day: that can only make a user pay a day or
 * two early, whereas an extension the office does not grant would make them miss a real deadline.
 */

/** A public holiday: a fixed day, a day relative to Easter Sunday, a weekday within a date range, or one year only. */
export type HolidayRule =
  | { readonly kind: 'fixed'; readonly month: number; readonly day: number; readonly since?: number; readonly name: string }
  | { readonly kind: 'easter'; readonly offset: number; readonly name: string }
  /** The `weekday` (0 = Monday … 6 = Sunday) falling between `month`/`fromDay` and `month`/`fromDay + 6`. */
  | { readonly kind: 'weekday_in_week'; readonly weekday: number; readonly month: number; readonly fromDay: number; readonly name: string }
  | { readonly kind: 'once'; readonly year: number; readonly month: number; readonly day: number; readonly name: string };

export interface PeriodEndExtension {
  /** Saturdays count as non-working days (true for every office listed). */
  readonly saturday: boolean;
  readonly holidays: readonly HolidayRule[];
  /** The legal text the extension follows. */
  readonly basis: string;
}

/** Easter Sunday of a Gregorian year (the anonymous Gregorian algorithm, Meeus/Jones/Butcher). */
export function easterSunday(year: number): Day {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return dayFromYmd(year, month, day);
}

const fixed = (month: number, day: number, name: string, since?: number): HolidayRule => ({ kind: 'fixed', month, day, name, ...(since === undefined ? {} : { since }) });
const easter = (offset: number, name: string): HolidayRule => ({ kind: 'easter', offset, name });

/**
 * Germany: § 193 BGB (a period whose last day is a Saturday, a Sunday or a public holiday at the place
 * ends on the next working day), applied by the DPMA to the payment periods of § 7(1) PatKostG, and
 * § 18a DPMAV: a public holiday at any of the DPMA's offices (Munich: Bavaria; Jena: Thuringia;
 * Berlin) counts. Bavaria's Assumption Day is a holiday in Munich; Augsburg's 8 August is not an
 * office's.
 */
const DE: PeriodEndExtension = {
  saturday: true,
  basis: '§ 193 BGB; § 18a DPMAV (holidays at any DPMA office: Munich, Jena, Berlin); § 7(1) PatKostG',
  holidays: [
    fixed(1, 1, 'Neujahr'),
    fixed(1, 6, 'Heilige Drei Könige (Bayern)'),
    fixed(3, 8, 'Internationaler Frauentag (Berlin)', 2019),
    easter(-2, 'Karfreitag'),
    easter(1, 'Ostermontag'),
    fixed(5, 1, 'Tag der Arbeit'),
    easter(39, 'Christi Himmelfahrt'),
    easter(50, 'Pfingstmontag'),
    easter(60, 'Fronleichnam (Bayern)'),
    fixed(8, 15, 'Mariä Himmelfahrt (München)'),
    fixed(9, 20, 'Weltkindertag (Thüringen)', 2019),
    fixed(10, 3, 'Tag der Deutschen Einheit'),
    fixed(10, 31, 'Reformationstag (Thüringen)'),
    fixed(11, 1, 'Allerheiligen (Bayern)'),
    fixed(12, 25, '1. Weihnachtstag'),
    fixed(12, 26, '2. Weihnachtstag'),
    { kind: 'once', year: 2017, month: 10, day: 31, name: 'Reformationstag 2017 (bundesweit)' },
    { kind: 'once', year: 2020, month: 5, day: 8, name: '75. Jahrestag der Befreiung (Berlin)' },
    { kind: 'once', year: 2025, month: 5, day: 8, name: '80. Jahrestag der Befreiung (Berlin)' },
  ],
};

/**
 * Sweden: Lag (1930:173) om beräkning av lagstadgad tid, 2 §: when the last day for an act falls on a
 * Sunday, another public holiday, a Saturday, Midsummer Eve, Christmas Eve or New Year's Eve, the act
 * may be done on the next weekday. It applies to the due date and the six months of Patentlag 41 §.
 * Public holidays: Lag (1989:253) om allmänna helgdagar.
 */
const SE: PeriodEndExtension = {
  saturday: true,
  basis: 'Lag (1930:173) om beräkning av lagstadgad tid, 2 §; Lag (1989:253) om allmänna helgdagar; Patentlag 41 §',
  holidays: [
    fixed(1, 1, 'Nyårsdagen'),
    fixed(1, 6, 'Trettondedag jul'),
    easter(-2, 'Långfredagen'),
    easter(0, 'Påskdagen'),
    easter(1, 'Annandag påsk'),
    fixed(5, 1, 'Första maj'),
    easter(39, 'Kristi himmelsfärdsdag'),
    easter(49, 'Pingstdagen'),
    fixed(6, 6, 'Sveriges nationaldag', 2005),
    { kind: 'weekday_in_week', weekday: 4, month: 6, fromDay: 19, name: 'Midsommarafton' },
    { kind: 'weekday_in_week', weekday: 5, month: 6, fromDay: 20, name: 'Midsommardagen' },
    { kind: 'weekday_in_week', weekday: 5, month: 10, fromDay: 31, name: 'Alla helgons dag' },
    fixed(12, 24, 'Julafton'),
    fixed(12, 25, 'Juldagen'),
    fixed(12, 26, 'Annandag jul'),
    fixed(12, 31, 'Nyårsafton'),
  ],
};

/**
 * France: the INPI's periods follow the rule of Article 642 of the Code de procédure civile (a period
 * that would end on a Saturday, a Sunday or a public holiday runs to the next working day), as the
 * domain reference records (annuities.md §2.3). Public holidays: Article L3133-1 of the Code du travail.
 */
const FR: PeriodEndExtension = {
  saturday: true,
  basis: 'INPI practice recorded by annuities.md §2.3 (the rule of art. 642 Code de procédure civile: a period ending on a Saturday, Sunday or public holiday runs to the next working day); public holidays of art. L3133-1 Code du travail',
  holidays: [
    fixed(1, 1, 'Jour de l’an'),
    easter(1, 'Lundi de Pâques'),
    fixed(5, 1, 'Fête du travail'),
    fixed(5, 8, 'Victoire 1945'),
    easter(39, 'Ascension'),
    easter(50, 'Lundi de Pentecôte'),
    fixed(7, 14, 'Fête nationale'),
    fixed(8, 15, 'Assomption'),
    fixed(11, 1, 'Toussaint'),
    fixed(11, 11, 'Armistice 1918'),
    fixed(12, 25, 'Noël'),
  ],
};

/**
 * EPO (EP and UP): Rule 134(1) EPC. The EPO's own closing days are announced each year in the
 * Official Journal and are not data here: only weekends are, so a period is never extended beyond
 * what the EPO grants (an EPO closing day only makes the user pay a day early).
 */
const EPO: PeriodEndExtension = {
  saturday: true,
  basis: 'Rule 134(1) EPC (EPO closing days of the Official Journal not modelled); J 4/91 (the due date does not move)',
  holidays: [],
};

export const PERIOD_END_EXTENSIONS: Readonly<Partial<Record<Office, PeriodEndExtension>>> = { EP: EPO, UP: EPO, FR, DE, SE };

/** Why the offices without an extension have none: kept next to the data so the reading is reviewable. */
export const NO_EXTENSION_REASONS: Readonly<Partial<Record<Office, string>>> = {
  GB: 'Since the UK IPO’s online renewal service of 2020, a renewal fee due on a weekend or bank holiday is late if paid on the next working day (CIPA, 2020); rule 110 Patents Rules 2007 extends only certified interrupted days.',
  NL: 'The Algemene termijnenwet (art. 1) does not apply to periods longer than three months (art. 4), such as the six months of art. 62 ROW 1995; the due date is a day, not a period.',
  BE: 'No provision extending the payment periods of art. XI.48 CDE to the next working day was established; periods end on their calendar day.',
  ES: 'Whether the OEPM applies art. 30.5 of Ley 39/2015 (a period ending on a non-working day runs to the next working day) to the annual fee periods of Ley 24/2015 was not established from an official text; periods end on their calendar day.',
  IT: 'No provision extending the payment periods of the Codice della proprietà industriale to the next working day was established; periods end on their calendar day.',
};

/** Each extension's holidays by year, computed once (the engine asks for the same few years millions of times). */
const holidayCache = new WeakMap<PeriodEndExtension, Map<number, ReadonlySet<Day>>>();

function holidaysOf(extension: PeriodEndExtension, year: number): ReadonlySet<Day> {
  let byYear = holidayCache.get(extension);
  if (!byYear) holidayCache.set(extension, (byYear = new Map<number, ReadonlySet<Day>>()));
  const cached = byYear.get(year);
  if (cached) return cached;
  const days = new Set<Day>();
  const easterDay = easterSunday(year);
  for (const rule of extension.holidays) {
    switch (rule.kind) {
      case 'fixed':
        if (rule.since === undefined || year >= rule.since) days.add(dayFromYmd(year, rule.month, rule.day));
        break;
      case 'easter':
        days.add(addDays(easterDay, rule.offset));
        break;
      case 'weekday_in_week': {
        const first = dayFromYmd(year, rule.month, rule.fromDay);
        days.add(addDays(first, (rule.weekday - weekday(first) + 7) % 7));
        break;
      }
      case 'once':
        if (rule.year === year) days.add(dayFromYmd(year, rule.month, rule.day));
        break;
    }
  }
  byYear.set(year, days);
  return days;
}

/** True when the office's payment periods do not end on `d` (a weekend or one of its public holidays). */
export function isNonWorkingDay(office: Office, d: Day): boolean {
  const extension = PERIOD_END_EXTENSIONS[office];
  return extension !== undefined && nonWorking(extension, d);
}

function nonWorking(extension: PeriodEndExtension, d: Day): boolean {
  const w = weekday(d);
  if (w === 6 || (w === 5 && extension.saturday)) return true;
  return extension.holidays.length > 0 && holidaysOf(extension, ymdFromDay(d).year).has(d);
}

/** The day a period ending on `d` really ends at the office: `d`, or the next working day after it. */
export function periodEnd(office: Office, d: Day): Day {
  const extension = PERIOD_END_EXTENSIONS[office];
  if (!extension) return d;
  let end = d;
  // At most a long weekend plus a few holidays in a row; the bound only guards the loop.
  for (let i = 0; i < 14 && nonWorking(extension, end); i++) end = addDays(end, 1);
  return end;
}
