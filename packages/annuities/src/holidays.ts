import { addDays, dayFromYmd, parseIsoDate, weekday, ymdFromDay, type Day } from './calendar.ts';
import { EPO_CLOSING_DAYS, EPO_CONFIRMED_CLOSURES } from './epo-closing-days.ts';
import type { Office } from './types.ts';

/**
 * When a payment period that ends on a day the office is closed runs to its next open day, per office,
 * with the legal text it follows and the closing days as data (docs/annuity-rules.md, "A payment
 * period ending on a non-working day"). Only the ends of periods move (the surcharge-free end and the
 * grace end); the due date itself never does (J 4/91 for the EPO; the national texts speak of the last
 * day of a period).
 *
 * Every period end has two edges (issue 25):
 * - *pay by*, the earliest date the law may mean: it moves only over days certainly closed under a rule
 *   read in its official text. Reminders, colours and the agent's limit date use it.
 * - *lost after*, the latest date the law may allow: it moves over every day that may be closed under a
 *   rule that may apply. A right is called lapsed only after it.
 * For an office whose rule is verified the two are the same day.
 */

/** A closing day: a fixed day, a day relative to Easter Sunday, a weekday of a week, the last weekday of a month, or one year only. */
export type HolidayRule =
  | {
      readonly kind: 'fixed';
      readonly month: number;
      readonly day: number;
      readonly name: string;
      readonly since?: number;
      readonly until?: number;
      /** On a Sunday the day before is the holiday instead (the Netherlands' King's Day). */
      readonly sundayToSaturday?: boolean;
      /** On a Saturday or Sunday, the next weekday not already a holiday is closed instead (GB's substitute days). */
      readonly substitute?: boolean;
      /** Only when it falls on this weekday (0 = Monday … 4 = Friday): a bridging day. */
      readonly onlyOn?: number;
    }
  | { readonly kind: 'easter'; readonly offset: number; readonly name: string }
  /** The `weekday` (0 = Monday … 6 = Sunday) falling between `month`/`fromDay` and `month`/`fromDay + 6`. */
  | { readonly kind: 'weekday_in_week'; readonly weekday: number; readonly month: number; readonly fromDay: number; readonly name: string }
  | { readonly kind: 'once'; readonly year: number; readonly month: number; readonly day: number; readonly name: string };

/**
 * How sure the engine is that a period ending on a closed day runs to the next open day:
 * - `verified`: the rule was read in its official text; both edges move over `holidays` and weekends;
 * - `unverified`: the rule was not established from an official text; *pay by* keeps the calendar day,
 *   *lost after* moves over `holidays` and weekends (and the schedule is flagged `extension_unverified`).
 */
export type ExtensionStatus = 'verified' | 'unverified';

export interface OfficeCalendar {
  readonly status: ExtensionStatus;
  /** The days the office's payment periods cannot end on, besides Saturdays and Sundays. */
  readonly holidays: readonly HolidayRule[];
  /** The legal text the extension follows, and for an unverified one what is missing. */
  readonly basis: string;
}

/** The two edges of a period's end, and why they may differ. */
export interface PeriodEdges {
  readonly payBy: Day;
  readonly lostAfter: Day;
  /** The edges differ because the office's extension rule is not verified. */
  readonly unverified: boolean;
  /** EPO: the end was computed for a year without a published list of closing days. */
  readonly provisional: boolean;
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

type FixedOptions = { since?: number; until?: number; sundayToSaturday?: boolean; substitute?: boolean; onlyOn?: number };
const fixed = (month: number, day: number, name: string, options: FixedOptions = {}): HolidayRule => ({ kind: 'fixed', month, day, name, ...options });
const easter = (offset: number, name: string): HolidayRule => ({ kind: 'easter', offset, name });
/** The last `weekday` of a 31-day month (it falls between the 25th and the 31st). */
const lastWeekdayOf31 = (weekdayIndex: number, month: number, name: string): HolidayRule => ({ kind: 'weekday_in_week', weekday: weekdayIndex, month, fromDay: 25, name });

/**
 * Germany: § 193 BGB (a period whose last day is a Saturday, a Sunday or a public holiday at the place
 * ends on the next working day), applied by the DPMA to the payment periods of § 7(1) PatKostG, and
 * § 18a DPMAV: a public holiday at any of the DPMA's offices (Munich: Bavaria; Jena: Thuringia;
 * Berlin) counts. Bavaria's Assumption Day is a holiday in Munich; Augsburg's 8 August is not an
 * office's.
 */
const DE: OfficeCalendar = {
  status: 'verified',
  basis: '§ 193 BGB; § 18a DPMAV (holidays at any DPMA office: Munich, Jena, Berlin); § 7(1) PatKostG',
  holidays: [
    fixed(1, 1, 'Neujahr'),
    fixed(1, 6, 'Heilige Drei Könige (Bayern)'),
    fixed(3, 8, 'Internationaler Frauentag (Berlin)', { since: 2019 }),
    easter(-2, 'Karfreitag'),
    easter(1, 'Ostermontag'),
    fixed(5, 1, 'Tag der Arbeit'),
    easter(39, 'Christi Himmelfahrt'),
    easter(50, 'Pfingstmontag'),
    easter(60, 'Fronleichnam (Bayern)'),
    fixed(8, 15, 'Mariä Himmelfahrt (München)'),
    fixed(9, 20, 'Weltkindertag (Thüringen)', { since: 2019 }),
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
const SE: OfficeCalendar = {
  status: 'verified',
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
    fixed(6, 6, 'Sveriges nationaldag', { since: 2005 }),
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
 * France: Code de la propriété intellectuelle art. R618-3 (a period that would end on a Saturday, a
 * Sunday or a public holiday runs to the next working day; the domain reference's §2.4), the rule of
 * art. 642 Code de procédure civile. Public holidays: art. L3133-1 Code du travail. The INPI's own
 * closure days are not published as data.
 */
const FR: OfficeCalendar = {
  status: 'verified',
  basis: 'CPI art. R618-3 (the rule of art. 642 Code de procédure civile: a period ending on a Saturday, Sunday or public holiday runs to the next working day); public holidays of art. L3133-1 Code du travail',
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
 * Italy: DM 13 January 2010 n. 33 (regolamento di attuazione del CPI), art. 3(1): terms "per il
 * versamento di tasse" expiring on a Saturday, a Sunday, a national holiday or a day the offices are
 * closed are extended to the next day they are open. The annual fees are "tasse" of that text (art. 38
 * of the same decree: "tassa o diritto di mantenimento"); it covers the plain term and the six months
 * with the mora of CPI art. 227(4). National holidays: Legge 260/1949 as amended (6 Jan since 1986,
 * 2 Jun since 2001), 4 Oct since 2026 (Legge 8 ottobre 2025 n. 151). Local holidays count only for
 * filings at a given office (second sentence of art. 3(1)), not for payments.
 */
const IT: OfficeCalendar = {
  status: 'verified',
  basis: 'DM 13 gennaio 2010 n. 33, art. 3(1) ("per il versamento di tasse"); CPI art. 227(1), (2), (4); national holidays of Legge 27 maggio 1949 n. 260 as amended and Legge 8 ottobre 2025 n. 151',
  holidays: [
    fixed(1, 1, 'Capodanno'),
    fixed(1, 6, 'Epifania', { since: 1986 }),
    easter(1, 'Lunedì dell’Angelo'),
    fixed(4, 25, 'Festa della Liberazione'),
    fixed(5, 1, 'Festa del Lavoro'),
    fixed(6, 2, 'Festa della Repubblica', { since: 2001 }),
    fixed(8, 15, 'Ferragosto'),
    fixed(10, 4, 'San Francesco d’Assisi', { since: 2026 }),
    fixed(11, 1, 'Ognissanti'),
    fixed(12, 8, 'Immacolata Concezione'),
    fixed(12, 25, 'Natale'),
    fixed(12, 26, 'Santo Stefano'),
  ],
};

/**
 * Netherlands: Rijksoctrooiwet 1995 art. 16: a period to be observed towards the office (Octrooicentrum
 * Nederland) whose last day falls while the office is closed runs to the end of the next day it is
 * open. It is the patent act's own rule, with no length limit (the Algemene termijnenwet's art. 4 does
 * not decide it), so it covers the due date of the renewal fee and the six months of art. 62. No list
 * of the office's own closing days was found: the public holidays of Algemene termijnenwet art. 3 stand
 * for them (Good Friday by art. 3(2); King's Day on the 26th when the 27th is a Sunday).
 */
const NL: OfficeCalendar = {
  status: 'verified',
  basis: 'Rijksoctrooiwet 1995 art. 16; closing days: the public holidays of Algemene termijnenwet art. 3 (the office publishes no list of its own)',
  holidays: [
    fixed(1, 1, 'Nieuwjaarsdag'),
    easter(-2, 'Goede Vrijdag'),
    easter(1, 'Tweede Paasdag'),
    fixed(4, 30, 'Koninginnedag', { until: 2013, sundayToSaturday: true }),
    fixed(4, 27, 'Koningsdag', { since: 2014, sundayToSaturday: true }),
    fixed(5, 5, 'Bevrijdingsdag'),
    easter(39, 'Hemelvaartsdag'),
    easter(50, 'Tweede Pinksterdag'),
    fixed(12, 25, 'Eerste Kerstdag'),
    fixed(12, 26, 'Tweede Kerstdag'),
  ],
};

/**
 * Great Britain: Patents Act 1977 s.120(2): time expiring on an "excluded day" (directions of the
 * comptroller in force since 15 July 2011) runs to the next day that is not excluded. Neither s.120(2)
 * nor the 2011 patents directions could be read verbatim; their sister directions for trade marks (2011)
 * and designs (2022) exclude Saturdays, Sundays, Good Friday, Christmas Day and bank holidays. A reported
 * UK IPO proposal (2020) to treat online renewals on excluded days as late was not found in an official
 * text. Until both are read: unverified (pay by the calendar day; lost only after the excluded days).
 * Bank holidays of England and Wales: Banking and Financial Dealings Act 1971 Sch. 1 and proclamations.
 */
const GB: OfficeCalendar = {
  status: 'unverified',
  basis: 'Patents Act 1977 s.120(2) and the comptroller’s directions of 15 July 2011 on excluded days (not read verbatim); bank holidays: Banking and Financial Dealings Act 1971 Sch. 1 and proclamations',
  holidays: [
    fixed(1, 1, 'New Year’s Day', { substitute: true }),
    easter(-2, 'Good Friday'),
    easter(1, 'Easter Monday'),
    { kind: 'weekday_in_week', weekday: 0, month: 5, fromDay: 1, name: 'Early May bank holiday' },
    lastWeekdayOf31(0, 5, 'Spring bank holiday'),
    lastWeekdayOf31(0, 8, 'Summer bank holiday'),
    fixed(12, 25, 'Christmas Day', { substitute: true }),
    fixed(12, 26, 'Boxing Day', { substitute: true }),
    { kind: 'once', year: 2020, month: 5, day: 8, name: 'VE Day' },
    { kind: 'once', year: 2022, month: 6, day: 2, name: 'Spring bank holiday (Platinum Jubilee)' },
    { kind: 'once', year: 2022, month: 6, day: 3, name: 'Platinum Jubilee' },
    { kind: 'once', year: 2022, month: 9, day: 19, name: 'State Funeral of Queen Elizabeth II' },
    { kind: 'once', year: 2023, month: 5, day: 8, name: 'Coronation of King Charles III' },
  ],
};

/**
 * Belgium: the Arrêté royal of 3 February 2023 on the calculation of certain time limits in
 * intellectual property (Moniteur belge 15 February 2023; based on art. XI.78 § 1 CDE) probably extends
 * periods ending on a day the Office is closed, but its operative article, and whether it covers the
 * due date and the six months of art. XI.48 CDE, were not read. Unverified: pay by the calendar day;
 * lost only after the ten legal holidays (AR 18 April 1974) and the federal administration's days
 * (2 Nov, 15 Nov, 26 Dec).
 */
const BE: OfficeCalendar = {
  status: 'unverified',
  basis: 'Arrêté royal du 3 février 2023 (MB 15.02.2023; art. XI.78 § 1 CDE), operative article not read; legal holidays of the AR of 18 April 1974 and the federal administration’s closing days',
  holidays: [
    fixed(1, 1, 'Nouvel An'),
    easter(1, 'Lundi de Pâques'),
    fixed(5, 1, 'Fête du Travail'),
    easter(39, 'Ascension'),
    easter(50, 'Lundi de Pentecôte'),
    fixed(7, 21, 'Fête nationale'),
    fixed(8, 15, 'Assomption'),
    fixed(11, 1, 'Toussaint'),
    fixed(11, 2, 'Jour des défunts (administration fédérale)'),
    fixed(11, 11, 'Armistice'),
    fixed(11, 15, 'Fête du Roi (administration fédérale)'),
    fixed(12, 25, 'Noël'),
    fixed(12, 26, 'Lendemain de Noël (administration fédérale)'),
  ],
};

/**
 * Spain: Ley 24/2015 de Patentes, disposición adicional 2ª.3 (a period expiring on a Saturday runs to
 * the next working day) and disposición adicional 1ª (Ley 39/2015 applies where the patent law is
 * silent: art. 30.5, a period whose last day is not a working day runs to the next working day; art.
 * 30.6, a day that is non-working at the office's seat counts). Whether the OEPM applies them to the
 * annual fees (art. 182.1 sends fees to tax law) was not established. Unverified: pay by the calendar
 * day; lost only after the national holidays, Madrid's (Holy Thursday, 2 May, San Isidro, Almudena)
 * and their Monday replacements.
 */
const ES: OfficeCalendar = {
  status: 'unverified',
  basis: 'Ley 24/2015 arts. 184–185, disposiciones adicionales 1ª and 2ª.3; Ley 39/2015 art. 30.5–30.6 (application to annual fees not established); national holidays and those of the Comunidad and city of Madrid',
  holidays: [
    fixed(1, 1, 'Año Nuevo', { substitute: true }),
    fixed(1, 6, 'Epifanía del Señor', { substitute: true }),
    easter(-3, 'Jueves Santo (Madrid)'),
    easter(-2, 'Viernes Santo'),
    fixed(5, 1, 'Fiesta del Trabajo', { substitute: true }),
    fixed(5, 2, 'Fiesta de la Comunidad de Madrid', { substitute: true }),
    fixed(5, 15, 'San Isidro (Madrid)', { substitute: true }),
    fixed(8, 15, 'Asunción de la Virgen', { substitute: true }),
    fixed(10, 12, 'Fiesta Nacional de España', { substitute: true }),
    fixed(11, 1, 'Todos los Santos', { substitute: true }),
    fixed(11, 9, 'Nuestra Señora de la Almudena (Madrid)', { substitute: true }),
    fixed(12, 6, 'Día de la Constitución', { substitute: true }),
    fixed(12, 8, 'Inmaculada Concepción', { substitute: true }),
    fixed(12, 25, 'Natividad del Señor', { substitute: true }),
  ],
};

/**
 * The EPO (EP, and UP by Rule 20(2)(g) of the Rules relating to Unitary Patent Protection): Rule 134(1)
 * EPC extends a period expiring on a day at least one filing office (Munich, The Hague, Berlin) is
 * closed, or mail is not delivered there, to the next day all are open; it covers the renewal fee and
 * the additional period of Rule 51(2) (Guidelines E-VIII 1.6.2; for UP, Guidelines UP 3.1.7.3). The
 * days are the Official Journal's yearly lists (epo-closing-days.ts). For a year without one:
 * *pay by* moves over the days closed in every list read (`EPO_CLOSED_EVERY_LIST`) and the closures the
 * EPO confirmed; *lost after* also over the days closed in some list (`EPO_CLOSED_IN_SOME_LIST`), and
 * the result is flagged `closing_days_provisional`.
 */
const EPO_BASIS = 'Rule 134(1) EPC (closing days of the Official Journal, e.g. OJ EPO 2022, A107 for 2023); Rule 20(2)(g) UPR for UP; J 4/91 (the due date does not move)';

/** Closed in every list read (2015, 2017, 2020, 2023) whenever it fell on a weekday. */
export const EPO_CLOSED_EVERY_LIST: readonly HolidayRule[] = [
  fixed(1, 1, 'New Year’s Day'),
  fixed(1, 6, 'Epiphany (Munich)'),
  easter(-2, 'Good Friday'),
  easter(1, 'Easter Monday'),
  fixed(4, 27, 'King’s Day (The Hague)'),
  fixed(5, 1, 'Labour Day'),
  fixed(5, 5, 'Liberation Day (The Hague)'),
  easter(39, 'Ascension Day'),
  easter(50, 'Whit Monday'),
  easter(60, 'Corpus Christi (Munich)'),
  fixed(8, 15, 'Assumption Day (Munich)'),
  fixed(10, 3, 'Day of German Unity (Munich, Berlin)'),
  fixed(11, 1, 'All Saints’ Day (Munich)'),
  fixed(12, 24, 'Christmas Eve'),
  fixed(12, 25, 'Christmas Day'),
  fixed(12, 26, 'Boxing Day'),
  // The weekdays between Christmas and New Year were bridging days in every list (2015, 2017, 2020, 2023).
  fixed(12, 27, 'Bridging day'),
  fixed(12, 28, 'Bridging day'),
  fixed(12, 29, 'Bridging day'),
  fixed(12, 30, 'Bridging day'),
  fixed(12, 31, 'New Year’s Eve'),
];

/** Closed in some list only: Berlin's Women's Day (2023) and 2 January when a Friday (2015). */
export const EPO_CLOSED_IN_SOME_LIST: readonly HolidayRule[] = [
  fixed(3, 8, 'International Women’s Day (Berlin)', { since: 2019 }),
  fixed(1, 2, 'Bridging day', { onlyOn: 4 }),
];

const NATIONAL_CALENDARS: Readonly<Record<Exclude<Office, 'EP' | 'UP'>, OfficeCalendar>> = { BE, DE, ES, FR, GB, IT, NL, SE };

/** Each office's calendar for docs and screens (the EPO's is described, its days are dated lists). */
export const OFFICE_CALENDARS: Readonly<Record<Office, OfficeCalendar>> = {
  ...NATIONAL_CALENDARS,
  EP: { status: 'verified', basis: EPO_BASIS, holidays: EPO_CLOSED_EVERY_LIST },
  UP: { status: 'verified', basis: EPO_BASIS, holidays: EPO_CLOSED_EVERY_LIST },
};

/* ---------- day sets ---------- */

/** The days of `rules` in `year`, substitutes included. */
function daysOf(rules: readonly HolidayRule[], year: number): Set<Day> {
  const days = new Set<Day>();
  const easterDay = easterSunday(year);
  const substitutes: Day[] = [];
  for (const rule of rules) {
    switch (rule.kind) {
      case 'fixed': {
        if ((rule.since !== undefined && year < rule.since) || (rule.until !== undefined && year > rule.until)) break;
        let d = dayFromYmd(year, rule.month, rule.day);
        if (rule.sundayToSaturday && weekday(d) === 6) d = addDays(d, -1);
        if (rule.onlyOn !== undefined && weekday(d) !== rule.onlyOn) break;
        days.add(d);
        if (rule.substitute && weekday(d) >= 5) substitutes.push(d);
        break;
      }
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
  // A holiday on a weekend gives the next weekday that is not already a holiday, in date order.
  substitutes.sort((a, b) => a - b);
  for (const d of substitutes) {
    let s = addDays(d, 1);
    while (weekday(s) >= 5 || days.has(s)) s = addDays(s, 1);
    days.add(s);
  }
  return days;
}

const isWeekend = (d: Day) => weekday(d) >= 5;

/** A year's closing days per edge: `sure` (both edges) and `possible` (lost-after only, a superset). */
interface YearDays {
  readonly sure: ReadonlySet<Day>;
  readonly possible: ReadonlySet<Day>;
  readonly provisional: boolean;
}

const EMPTY: ReadonlySet<Day> = new Set();
/** Per calendar (the EPO's, or a national office's), its years' days: computed once, read millions of times. */
const yearCache = new Map<Office | 'EPO', Map<number, YearDays>>();

function nationalYear(calendar: OfficeCalendar, year: number): YearDays {
  const days = daysOf(calendar.holidays, year);
  return calendar.status === 'verified' ? { sure: days, possible: days, provisional: false } : { sure: EMPTY, possible: days, provisional: false };
}

const PUBLISHED = new Map<number, ReadonlySet<Day>>(EPO_CLOSING_DAYS.map((y) => [y.year, new Set(y.days.map((d) => parseIsoDate(d)!))]));

function confirmedClosuresOf(year: number): Set<Day> {
  const days = new Set<Day>();
  for (const closure of EPO_CONFIRMED_CLOSURES) {
    for (let d = parseIsoDate(closure.from)!, to = parseIsoDate(closure.to)!; d <= to; d = addDays(d, 1)) if (ymdFromDay(d).year === year) days.add(d);
  }
  return days;
}

function epoYear(year: number): YearDays {
  const published = PUBLISHED.get(year);
  if (published) return { sure: published, possible: published, provisional: false };
  const sure = daysOf(EPO_CLOSED_EVERY_LIST, year);
  for (const d of confirmedClosuresOf(year)) sure.add(d);
  const possible = new Set(sure);
  for (const d of daysOf(EPO_CLOSED_IN_SOME_LIST, year)) possible.add(d);
  return { sure, possible, provisional: true };
}

function yearDays(office: Office, year: number): YearDays {
  const key = office === 'EP' || office === 'UP' ? 'EPO' : office;
  let byYear = yearCache.get(key);
  if (!byYear) yearCache.set(key, (byYear = new Map<number, YearDays>()));
  let days = byYear.get(year);
  if (!days) byYear.set(year, (days = key === 'EPO' ? epoYear(year) : nationalYear(NATIONAL_CALENDARS[key], year)));
  return days;
}

/*
 * Each calendar's days as one byte each, filled a year at a time on first use: the engine asks about the
 * same few years millions of times, and a period end is one array read when the day is open.
 */
const OPEN = 1;
const SURE = 2; // closed on both edges
const POSSIBLE = 3; // closed on the lost-after edge only
const TABLE_FIRST_YEAR = 1900;
const TABLE_LAST_YEAR = 2199;
const TABLE_BASE = dayFromYmd(TABLE_FIRST_YEAR, 1, 1);
const TABLE_SPAN = dayFromYmd(TABLE_LAST_YEAR + 1, 1, 1) - TABLE_BASE;
const tables = new Map<Office | 'EPO', Uint8Array>();

function calendarKey(office: Office): Office | 'EPO' {
  return office === 'EP' || office === 'UP' ? 'EPO' : office;
}

function unverified(office: Office): boolean {
  return calendarKey(office) !== 'EPO' && NATIONAL_CALENDARS[office as Exclude<Office, 'EP' | 'UP'>].status === 'unverified';
}

/** OPEN, SURE or POSSIBLE for a day of `office`, from its year's closing days. */
function classify(office: Office, d: Day, days: YearDays): number {
  if (!unverified(office) && (isWeekend(d) || days.sure.has(d))) return SURE;
  return isWeekend(d) || days.possible.has(d) ? POSSIBLE : OPEN;
}

function fillYear(table: Uint8Array, office: Office, year: number): void {
  const days = yearDays(office, year);
  for (let d = dayFromYmd(year, 1, 1), end = dayFromYmd(year + 1, 1, 1); d < end; d = addDays(d, 1)) table[d - TABLE_BASE] = classify(office, d, days);
}

/** OPEN, SURE or POSSIBLE for a day of `office`'s calendar. */
function dayStatus(office: Office, d: Day): number {
  const i = d - TABLE_BASE;
  if (i < 0 || i >= TABLE_SPAN) return classify(office, d, yearDays(office, ymdFromDay(d).year));
  const key = calendarKey(office);
  let table = tables.get(key);
  if (!table) tables.set(key, (table = new Uint8Array(TABLE_SPAN)));
  if (table[i] === 0) fillYear(table, office, ymdFromDay(d).year);
  return table[i]!;
}

/** True when a period of `office` cannot end on `d` under the *lost after* edge (every day that may be closed). */
export function isNonWorkingDay(office: Office, d: Day): boolean {
  return dayStatus(office, d) !== OPEN;
}

/** True when a period of `office` certainly cannot end on `d` (the *pay by* edge). */
export function isCertainlyClosed(office: Office, d: Day): boolean {
  return dayStatus(office, d) === SURE;
}

// At most a long weekend plus a year-end closure in a row; the bound only guards the loop.
const MAX_RUN = 21;

/** The two edges of a period of `office` whose calendar end is `d` (see the module's comment). */
export function periodEdges(office: Office, d: Day): PeriodEdges {
  let payBy = d;
  for (let i = 0; i < MAX_RUN && dayStatus(office, payBy) === SURE; i++) payBy = addDays(payBy, 1);
  let lostAfter = payBy;
  for (let i = 0; i < MAX_RUN && dayStatus(office, lostAfter) !== OPEN; i++) lostAfter = addDays(lostAfter, 1);
  if (payBy === d && lostAfter === d) return { payBy, lostAfter, unverified: false, provisional: false };
  const epo = calendarKey(office) === 'EPO';
  const unverified = !epo && lostAfter !== payBy;
  const provisional = epo && (yearDays(office, ymdFromDay(d).year).provisional || yearDays(office, ymdFromDay(lostAfter).year).provisional);
  return { payBy, lostAfter, unverified, provisional };
}

/** The *pay by* edge of a period ending on `d`. */
export function periodEnd(office: Office, d: Day): Day {
  return periodEdges(office, d).payBy;
}
