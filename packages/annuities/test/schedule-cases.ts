// The schedule cases of the engine's tests, in a module of their own so that other suites (the API's
// end-to-end check of the annuities flow) run the very same rows.
import type { ReasonCode } from '../src/reasons.ts';
import type { ScheduleFlag } from '../src/schedule.ts';
import type { Colour, Office, Origin } from '../src/types.ts';

/**
 * One row per rule of shared/domain/annuities.md. `source` names the line the expectation comes
 * from; the expected values are written out by hand from that line, never computed.
 */
export interface AnnuityExpectation {
  number: number;
  due?: string;
  noSurchargeEnd?: string;
  /** The surcharge-free end with every extension that may apply (equal to noSurchargeEnd where the rule is verified). */
  noSurchargeEndLatest?: string;
  graceEnd?: string;
  /** The grace end with every extension that may apply: the right is lost only after it. */
  lostAfter?: string;
  payableFrom?: string | null;
  fee?: number | null;
  currency?: string;
  /** [payment date, expected surcharge in minor units or null when too late]. */
  surcharge?: [string, number | null];
}

export interface Case {
  name: string;
  source: string;
  office: Office;
  origin: Origin;
  filing: string;
  grant?: string;
  lastPaid?: number;
  euroPctPeriodStart?: string;
  divisionalFiling?: string;
  unitaryRegistration?: string;
  today: string;
  error?: ReasonCode;
  annuity?: AnnuityExpectation;
  absent?: number;
  first?: number;
  last?: number;
  count?: number;
  previous?: number | null;
  previousDate?: string | null;
  next?: number | null;
  nextDate?: string | null;
  instructionLimit?: string | null;
  nextLimit?: string | null;
  /** The next annuity's lost-after day. */
  nextLostAfter?: string | null;
  /** A lapsed right: the missed annuity's number and its lost-after day. */
  missed?: { number: number; lostAfter: string } | null;
  inGrace?: boolean;
  lapsed?: boolean;
  expired?: boolean;
  colour?: Colour;
  flags?: ScheduleFlag[];
  office_applied?: Office;
}

const WE = 'annuities.md §2.1 worked example';
const HO = 'annuities.md §2.2 hand-over example';
const NATIONAL_7: Office[] = ['BE', 'DE', 'ES', 'FR', 'IT', 'NL', 'SE'];

export const cases: Case[] = [
  // §2.1 worked example, EP filed 15 Mar 2018 (lines 50-55).
  { name: 'EP k3 due and grace', source: `${WE}, line 54`, office: 'EP', origin: 'ep_application', filing: '2018-03-15', today: '2018-04-01', annuity: { number: 3, due: '2020-03-31', noSurchargeEnd: '2020-03-31', graceEnd: '2020-09-30' } },
  { name: 'EP k7 due and grace (due on a Sunday)', source: `${WE}, line 55`, office: 'EP', origin: 'ep_application', filing: '2018-03-15', today: '2018-04-01', annuity: { number: 7, due: '2024-03-31', noSurchargeEnd: '2024-04-02', noSurchargeEndLatest: '2024-04-02', graceEnd: '2024-09-30', lostAfter: '2024-09-30' } },
  // § 193 BGB: 31 May 2020 is a Sunday and 1 June Whit Monday, so the surcharge-free period ends on Tuesday 2 June.
  { name: 'DE k3 surcharge-free until 31 May (a Sunday before Whit Monday: 2 June, § 193 BGB)', source: `${WE}, line 54`, office: 'DE', origin: 'national', filing: '2018-03-15', today: '2018-04-01', annuity: { number: 3, due: '2020-03-31', noSurchargeEnd: '2020-06-02', graceEnd: '2020-09-30' } },
  // Lag (1930:173) 2 §: 31 March 2024 is a Sunday and 1 April Easter Monday (annandag påsk).
  { name: 'SE k7 6-month grace (due Sunday 31 Mar 2024, Easter Monday: Tuesday 2 April)', source: `${WE}, line 55`, office: 'SE', origin: 'national', filing: '2018-03-15', today: '2018-04-01', annuity: { number: 7, due: '2024-03-31', noSurchargeEnd: '2024-04-02', graceEnd: '2024-09-30' } },
  { name: 'DE k7 surcharge-free until 31 May', source: `${WE}, line 55`, office: 'DE', origin: 'national', filing: '2018-03-15', today: '2018-04-01', annuity: { number: 7, due: '2024-03-31', noSurchargeEnd: '2024-05-31', graceEnd: '2024-09-30' } },
  { name: 'ES k3 plain / 25 % / 50 %', source: `${WE}, line 54`, office: 'ES', origin: 'national', filing: '2018-03-15', today: '2018-04-01', annuity: { number: 3, due: '2020-03-31', noSurchargeEnd: '2020-06-30', graceEnd: '2020-12-31' } },
  { name: 'ES k3 25 % step ends 30 Sep', source: `${WE}, line 54`, office: 'ES', origin: 'national', filing: '2018-03-15', today: '2018-04-01', annuity: { number: 3, surcharge: ['2020-09-30', 471] } },
  { name: 'ES k3 50 % step from 1 Oct', source: `${WE}, line 54`, office: 'ES', origin: 'national', filing: '2018-03-15', today: '2018-04-01', annuity: { number: 3, surcharge: ['2020-10-01', 943] } },
  { name: 'ES k7 plain / 25 % / 50 %', source: `${WE}, line 55`, office: 'ES', origin: 'national', filing: '2018-03-15', today: '2018-04-01', annuity: { number: 7, due: '2024-03-31', noSurchargeEnd: '2024-06-30', graceEnd: '2024-12-31' } },
  { name: 'ES k7 25 % window', source: `${WE}, line 55`, office: 'ES', origin: 'national', filing: '2018-03-15', today: '2018-04-01', annuity: { number: 7, surcharge: ['2024-07-01', 2741] } },
  { name: 'ES k7 after 31 Dec: lost', source: `${WE}, line 55`, office: 'ES', origin: 'national', filing: '2018-03-15', today: '2018-04-01', annuity: { number: 7, surcharge: ['2025-01-01', null] } },
  // Due Sunday 31 Mar 2024, Monday 1 April Easter Monday: IT (DM 33/2010 art. 3(1)) and NL (ROW 1995 art. 16) run to
  // Tuesday 2 April; BE's rule is not verified: pay by the Sunday, lost only after the Tuesday.
  ...(['IT', 'NL'] as Office[]).map<Case>((office) => ({ name: `${office} k7 6-month grace (due Sunday 31 Mar 2024, Easter Monday: Tuesday 2 April)`, source: `${WE}, line 55; annuities.md §2.4 IT/NL, lines 112-113`, office, origin: 'national', filing: '2018-03-15', today: '2018-04-01', annuity: { number: 7, due: '2024-03-31', noSurchargeEnd: '2024-04-02', noSurchargeEndLatest: '2024-04-02', graceEnd: '2024-09-30', lostAfter: '2024-09-30' } })),
  { name: 'BE k7 6-month grace (due Sunday 31 Mar 2024: extension unverified, lost only after Tuesday 2 April)', source: `${WE}, line 55; annuities.md §2.4 BE, line 115`, office: 'BE', origin: 'national', filing: '2018-03-15', today: '2018-04-01', annuity: { number: 7, due: '2024-03-31', noSurchargeEnd: '2024-03-31', noSurchargeEndLatest: '2024-04-02', graceEnd: '2024-09-30', lostAfter: '2024-09-30' } },
  ...(['BE', 'SE'] as Office[]).map<Case>((office) => ({ name: `${office} k3 6-month grace`, source: `${WE}, line 54`, office, origin: 'national', filing: '2018-03-15', today: '2018-04-01', annuity: { number: 3, due: '2020-03-31', noSurchargeEnd: '2020-03-31', graceEnd: '2020-09-30' } })),
  // 1 April 2024 is Easter Monday, a public holiday (art. L3133-1 Code du travail): the plain fee runs to Tuesday.
  { name: 'FR k7 (due on a Sunday before Easter Monday, plain fee on Tuesday)', source: `${WE}, line 55`, office: 'FR', origin: 'national', filing: '2018-03-15', today: '2018-04-01', annuity: { number: 7, due: '2024-03-31', noSurchargeEnd: '2024-04-02', graceEnd: '2024-09-30' } },
  { name: 'GB k7 at the 6th anniversary', source: `${WE}, line 55`, office: 'GB', origin: 'national', filing: '2018-03-15', grant: '2020-01-15', today: '2018-04-01', annuity: { number: 7, due: '2024-03-31', noSurchargeEnd: '2024-04-30', graceEnd: '2024-09-30' } },
  { name: 'UP k7 due in the filing month', source: `${WE}, line 55`, office: 'UP', origin: 'unitary', filing: '2018-03-15', grant: '2023-07-01', today: '2018-04-01', annuity: { number: 7, due: '2024-03-31', noSurchargeEnd: '2024-04-02', graceEnd: '2024-09-30' } },

  // §2.2 hand-over example: filed 15 Mar 2018, grant mention 10 Jan 2024 (lines 67-71).
  { name: 'EPO collects years 3-6', source: `${HO}, line 68`, office: 'EP', origin: 'ep_application', filing: '2018-03-15', grant: '2024-01-10', today: '2024-01-10', first: 3, last: 6 },
  { name: 'EP row after the hand-over shows only a previous date', source: `${HO}, line 68`, office: 'EP', origin: 'ep_application', filing: '2018-03-15', grant: '2024-01-10', today: '2024-06-01', previous: 6, previousDate: '2023-03-31', next: null, colour: 'orange' },
  ...NATIONAL_7.map<Case>((office) => ({ name: `${office} national annuity 7 due 31 Mar 2024`, source: `${HO}, line 69`, office, origin: 'ep_validated', filing: '2018-03-15', grant: '2024-01-10', today: '2024-01-11', first: 7, annuity: { number: 7, due: '2024-03-31' }, next: 7, nextDate: '2024-03-31', colour: 'ok' })),
  { name: 'IT fee for year 7 is EUR 120', source: `${HO}, line 69`, office: 'IT', origin: 'ep_validated', filing: '2018-03-15', grant: '2024-01-10', today: '2024-01-11', annuity: { number: 7, fee: 12000, currency: 'EUR' } },
  { name: 'UP fee for year 7 is EUR 630, due 31 Mar 2024', source: `${HO}, line 71`, office: 'UP', origin: 'unitary', filing: '2018-03-15', grant: '2024-01-10', today: '2024-01-11', first: 7, annuity: { number: 7, due: '2024-03-31', fee: 63000, currency: 'EUR' } },
  // Mention 10 Jan 2024: the first renewal date is 9 Apr 2024 (three months beginning with the mention), later than the anniversary.
  { name: 'GB first national renewal is year 7', source: `${HO}, line 70, with Patents Rules 2007 r. 37(4)`, office: 'GB', origin: 'ep_validated', filing: '2018-03-15', grant: '2024-01-10', today: '2024-01-11', first: 7, annuity: { number: 7, due: '2024-04-30', noSurchargeEnd: '2024-05-31', graceEnd: '2024-10-31' } },
  { name: '10 Jan 2024 is in patent year 6', source: `${HO}, line 68`, office: 'DE', origin: 'ep_validated', filing: '2018-03-15', grant: '2024-01-10', today: '2024-01-11', absent: 6 },
  { name: 'instruction limit of the first national annuity', source: `${HO}, line 69 and product.md line 272`, office: 'FR', origin: 'ep_validated', filing: '2018-03-15', grant: '2024-01-10', today: '2024-01-11', instructionLimit: '2024-03-24', nextLimit: '2024-09-30' },
  { name: 'missing grant date is flagged', source: 'annuities.md §2.2, line 61', office: 'NL', origin: 'ep_validated', filing: '2018-03-15', today: '2024-01-11', first: 4, flags: ['grant_date_missing'] },

  // §2.2 line 63, Art. 141(2) EPC: fee due within 2 months of the grant mention (20 Feb 2024 → 20 Apr 2024, a Saturday).
  { name: 'BE fee due within 2 months of grant: plain until 20 Apr', source: 'annuities.md §2.2 Art. 141(2), line 63', office: 'BE', origin: 'ep_validated', filing: '2018-03-15', grant: '2024-02-20', today: '2024-02-21', annuity: { number: 7, due: '2024-03-31', noSurchargeEnd: '2024-04-20', noSurchargeEndLatest: '2024-04-22', graceEnd: '2024-09-30' } },
  // 20 April 2024 is a Saturday: NL and IT run to Monday 22 April.
  { name: 'NL fee due within 2 months of grant', source: 'annuities.md §2.2 Art. 141(2), line 63; ROW 1995 art. 16', office: 'NL', origin: 'ep_validated', filing: '2018-03-15', grant: '2024-02-20', today: '2024-02-21', annuity: { number: 7, noSurchargeEnd: '2024-04-22' } },
  { name: 'SE first fee within 2 months of grant (Saturday 20 Apr: Monday, Lag 1930:173)', source: 'annuities.md §2.2, line 65', office: 'SE', origin: 'ep_validated', filing: '2018-03-15', grant: '2024-02-20', today: '2024-02-21', annuity: { number: 7, noSurchargeEnd: '2024-04-22' } },
  { name: 'IT fee due within 2 months of grant', source: 'annuities.md §2.2 Art. 141(2), line 63; DM 33/2010 art. 3(1)', office: 'IT', origin: 'ep_validated', filing: '2018-03-15', grant: '2024-02-20', today: '2024-02-21', annuity: { number: 7, noSurchargeEnd: '2024-04-22' } },
  { name: 'FR window ends on a Saturday: Monday', source: 'annuities.md §2.2 line 63 with §2.3 line 77', office: 'FR', origin: 'ep_validated', filing: '2018-03-15', grant: '2024-02-20', today: '2024-02-21', annuity: { number: 7, noSurchargeEnd: '2024-04-22' } },
  { name: 'DE keeps its longer 2-month window', source: 'annuities.md §2.2 line 63 with §2.3 line 90', office: 'DE', origin: 'ep_validated', filing: '2018-03-15', grant: '2024-02-20', today: '2024-02-21', annuity: { number: 7, noSurchargeEnd: '2024-05-31' } },
  { name: 'ES keeps its longer 3-month window', source: 'annuities.md §2.2 line 63 with §2.3 line 87', office: 'ES', origin: 'ep_validated', filing: '2018-03-15', grant: '2024-02-20', today: '2024-02-21', annuity: { number: 7, noSurchargeEnd: '2024-06-30' } },
  { name: 'fee due later than 2 months after grant keeps its own window', source: 'annuities.md §2.2 Art. 141(2), line 63', office: 'BE', origin: 'ep_validated', filing: '2018-03-15', grant: '2024-01-10', today: '2024-01-11', annuity: { number: 7, noSurchargeEnd: '2024-03-31' } },
  { name: 'second national annuity not affected', source: 'annuities.md §2.2 Art. 141(2), line 63', office: 'BE', origin: 'ep_validated', filing: '2018-03-15', grant: '2024-02-20', today: '2024-02-21', annuity: { number: 8, due: '2025-03-31', noSurchargeEnd: '2025-03-31' } },

  // §2.3 EP, Euro-PCT (line 75): priority 10 Jan 2018, international filing 15 Mar 2018; 31 months end 10 Aug 2020.
  { name: 'Euro-PCT 3rd-year fee moves to the end of the 31-month period', source: 'annuities.md §2.3 EP Euro-PCT, line 75', office: 'EP', origin: 'ep_application', filing: '2018-03-15', euroPctPeriodStart: '2018-01-10', today: '2018-04-01', annuity: { number: 3, due: '2020-08-10', noSurchargeEnd: '2020-08-10' } },
  { name: 'Euro-PCT grace runs 6 months from the new date', source: 'annuities.md §2.3 EP Euro-PCT, line 75', office: 'EP', origin: 'ep_application', filing: '2018-03-15', euroPctPeriodStart: '2018-01-10', today: '2018-04-01', annuity: { number: 3, graceEnd: '2021-02-10' } },
  { name: 'Euro-PCT 4th-year fee unchanged', source: 'annuities.md §2.3 EP Euro-PCT, line 75', office: 'EP', origin: 'ep_application', filing: '2018-03-15', euroPctPeriodStart: '2018-01-10', today: '2018-04-01', annuity: { number: 4, due: '2021-03-31' } },
  { name: 'Euro-PCT 3rd-year fee after the 31 months stays', source: 'annuities.md §2.3 EP Euro-PCT, line 75', office: 'EP', origin: 'ep_application', filing: '2018-12-20', euroPctPeriodStart: '2018-01-10', today: '2019-01-01', annuity: { number: 3, due: '2020-12-31' } },

  // §2.3 EP divisionals (line 76): parent filed 20 May 2015.
  { name: 'divisional: fees already due fall due on its filing date', source: 'annuities.md §2.3 EP divisionals, line 76', office: 'EP', origin: 'ep_application', filing: '2015-05-20', divisionalFiling: '2019-09-10', today: '2019-09-11', annuity: { number: 3, due: '2019-09-10', noSurchargeEnd: '2020-01-10' } },
  { name: 'divisional: 5th-year fee also payable within the 4 months', source: 'annuities.md §2.3 EP divisionals, line 76', office: 'EP', origin: 'ep_application', filing: '2015-05-20', divisionalFiling: '2019-09-10', today: '2019-09-11', annuity: { number: 5, due: '2019-09-10', noSurchargeEnd: '2020-01-10', graceEnd: '2020-03-10' } },
  { name: 'divisional: later fees on the parent calendar', source: 'annuities.md §2.3 EP divisionals, line 76', office: 'EP', origin: 'ep_application', filing: '2015-05-20', divisionalFiling: '2019-09-10', today: '2019-09-11', annuity: { number: 6, due: '2020-05-31', noSurchargeEnd: '2020-06-02' } },
  { name: 'divisional: fee due within 4 months of filing', source: 'annuities.md §2.3 EP divisionals, line 76', office: 'EP', origin: 'ep_application', filing: '2015-05-20', divisionalFiling: '2019-03-10', today: '2019-03-11', annuity: { number: 5, due: '2019-05-31', noSurchargeEnd: '2019-07-10' } },

  // §2.3 weekends (line 77).
  // Good Friday 29 March and Easter Monday 1 April 2024 are EPO closing days (every list; epo.org 2024): the period runs to Tuesday 2 April.
  { name: 'EP due on Sunday 31 Mar 2024 does not move; its period runs over Easter Monday', source: 'annuities.md §2.3 weekend, line 77; §2.4 EP, line 107', office: 'EP', origin: 'ep_application', filing: '2018-03-15', today: '2024-01-01', annuity: { number: 7, due: '2024-03-31', noSurchargeEnd: '2024-04-02' }, nextDate: '2024-03-31' },
  { name: 'EP grace end on Saturday 31 Jul 2021 runs to Monday', source: 'annuities.md §2.3 weekend, line 77', office: 'EP', origin: 'ep_application', filing: '2019-01-20', today: '2019-02-01', annuity: { number: 3, due: '2021-01-31', noSurchargeEnd: '2021-02-01', graceEnd: '2021-08-02' } },
  { name: 'FR due on Sunday 31 Mar 2019', source: 'annuities.md §2.3 weekend (FR), line 77', office: 'FR', origin: 'national', filing: '2018-03-15', today: '2018-04-01', annuity: { number: 2, due: '2019-03-31', noSurchargeEnd: '2019-04-01' } },
  { name: 'UP due on a Sunday', source: 'annuities.md §2.3 weekend (UP), line 77', office: 'UP', origin: 'unitary', filing: '2018-03-15', grant: '2023-01-10', today: '2023-02-01', annuity: { number: 7, due: '2024-03-31', noSurchargeEnd: '2024-04-02' } },
  { name: 'DE extends a Sunday, then Whit Monday (§ 193 BGB, § 18a DPMAV)', source: 'annuities.md §2.3 weekend, line 77', office: 'DE', origin: 'national', filing: '2018-03-15', today: '2018-04-01', annuity: { number: 3, noSurchargeEnd: '2020-06-02' } },
  // Holidays of the DPMA's offices (§ 18a DPMAV): Saturday 31 Oct 2020 (Reformation Day, Jena), Sunday 1 Nov (All Saints', Munich) → Monday 2 Nov.
  { name: 'DE: Saturday, then Sunday and All Saints’ Day → Monday 2 Nov 2020', source: 'annuities.md §2.3 weekend, line 77', office: 'DE', origin: 'national', filing: '2018-08-31', today: '2018-09-01', annuity: { number: 3, noSurchargeEnd: '2020-11-02', graceEnd: '2021-03-01' } },
  // Corpus Christi 2018 (Easter on 1 April) is Thursday 31 May, a holiday in Munich: the period runs to Friday 1 June.
  { name: 'DE: Corpus Christi (Munich) moves a period end to the next day', source: 'annuities.md §2.3 weekend, line 77', office: 'DE', origin: 'national', filing: '2016-03-10', today: '2016-04-01', annuity: { number: 3, due: '2018-03-31', noSurchargeEnd: '2018-06-01' } },
  // Sweden: 31 Dec 2021 is a Friday but New Year's Eve, then Saturday, Sunday → Monday 3 January 2022.
  { name: 'SE: a due date on New Year’s Eve runs to the next weekday', source: 'annuities.md §2.3 weekend, line 77', office: 'SE', origin: 'national', filing: '2019-12-10', today: '2020-01-01', annuity: { number: 3, due: '2021-12-31', noSurchargeEnd: '2022-01-03' } },
  { name: 'NL extends a Sunday (ROW 1995 art. 16, whatever the Algemene termijnenwet says)', source: 'annuities.md §2.4 NL, line 113', office: 'NL', origin: 'national', filing: '2018-03-15', today: '2018-04-01', annuity: { number: 7, noSurchargeEnd: '2024-04-02' } },
  { name: 'BE does not extend a Sunday', source: 'annuities.md §2.3 weekend, line 77 (EP/UP/FR only)', office: 'BE', origin: 'national', filing: '2018-03-15', today: '2018-04-01', annuity: { number: 7, noSurchargeEnd: '2024-03-31' } },

  // §2.3 GB (lines 78-83).
  { name: 'GB: no renewal before the 5th year', source: 'annuities.md §2.3 GB, line 80', office: 'GB', origin: 'national', filing: '2018-03-15', grant: '2020-06-01', today: '2020-06-02', first: 5, absent: 4 },
  { name: 'GB: 5th year at the 4th anniversary', source: 'annuities.md §2.3 GB, line 80', office: 'GB', origin: 'national', filing: '2018-03-15', grant: '2020-06-01', today: '2020-06-02', annuity: { number: 5, due: '2022-03-31', noSurchargeEnd: '2022-04-30', graceEnd: '2022-09-30', fee: 7000, currency: 'GBP' } },
  { name: 'GB: first late month costs nothing', source: 'annuities.md §1 GB, line 29', office: 'GB', origin: 'national', filing: '2018-03-15', grant: '2020-06-01', today: '2020-06-02', annuity: { number: 5, surcharge: ['2022-04-30', 0] } },
  { name: 'GB: 2nd late month GBP 24', source: 'annuities.md §3 GB, line 170', office: 'GB', origin: 'national', filing: '2018-03-15', grant: '2020-06-01', today: '2020-06-02', annuity: { number: 5, surcharge: ['2022-05-15', 2400] } },
  { name: 'GB: 6th late month GBP 120 (cap)', source: 'annuities.md §3 GB, line 170', office: 'GB', origin: 'national', filing: '2018-03-15', grant: '2020-06-01', today: '2020-06-02', annuity: { number: 5, surcharge: ['2022-09-30', 12000] } },
  { name: 'GB: after the 6 months, lost', source: 'annuities.md §1 GB, line 29', office: 'GB', origin: 'national', filing: '2018-03-15', grant: '2020-06-01', today: '2020-06-02', annuity: { number: 5, surcharge: ['2022-10-01', null] } },
  { name: 'GB: pending application is flagged', source: 'annuities.md §2.3 GB, line 79', office: 'GB', origin: 'national', filing: '2018-03-15', today: '2020-06-02', flags: ['grant_date_missing', 'extension_unverified'] },
  { name: 'GB: late grant, first renewal 3 months after grant', source: 'annuities.md §2.3 GB late grant, line 82; Patents Rules 2007 r. 37(3)', office: 'GB', origin: 'national', filing: '2018-03-15', grant: '2022-08-10', today: '2022-08-11', annuity: { number: 5, due: '2022-11-30', payableFrom: '2022-08-10', noSurchargeEnd: '2022-12-31', noSurchargeEndLatest: '2023-01-03', graceEnd: '2023-05-31', lostAfter: '2023-05-31' }, flags: ['gb_late_grant', 'extension_unverified'] },
  // r. 37(3)(a): "the last day of the period of three months beginning with the date on which the patent was granted": 1 Aug → 31 Oct.
  { name: 'GB: late grant on the 1st, renewal date at the end of the 3rd month', source: 'annuities.md §2.3 GB late grant, line 82; Patents Rules 2007 r. 37(3)(a)', office: 'GB', origin: 'national', filing: '2018-03-15', grant: '2022-08-01', today: '2022-08-02', annuity: { number: 5, due: '2022-10-31', payableFrom: '2022-08-01', noSurchargeEnd: '2022-11-30', graceEnd: '2023-04-30', lostAfter: '2023-05-02' }, flags: ['gb_late_grant', 'extension_unverified'] },
  { name: 'GB: late grant, next year on the normal calendar', source: 'annuities.md §2.3 GB late grant, line 82', office: 'GB', origin: 'national', filing: '2018-03-15', grant: '2022-08-10', today: '2022-08-11', annuity: { number: 6, due: '2023-03-31' } },
  { name: 'GB: late grant covering several years', source: 'annuities.md §2.3 GB late grant, line 82', office: 'GB', origin: 'national', filing: '2018-03-15', grant: '2023-05-02', today: '2023-05-03', annuity: { number: 6, due: '2023-08-31', noSurchargeEnd: '2023-09-30' } },
  { name: 'GB: grant within 3 years 9 months is not late', source: 'annuities.md §2.3 GB late grant, line 82', office: 'GB', origin: 'national', filing: '2018-03-15', grant: '2021-12-15', today: '2021-12-16', annuity: { number: 5, due: '2022-03-31' } },
  // Patents Rules 2007 r. 37(4): mentioned in the three months ending with the 4th anniversary or later, the first renewal date is
  // the later of the last day of the three months beginning with the mention (19 May) and the anniversary (15 Mar); the renewal
  // period ends with that month (31 May), never opens before the mention, and the additional fee's six months of s. 25(4) run from there.
  { name: 'EP(UK): grant mention < 3 months before the anniversary', source: 'annuities.md §2.3 GB EP(UK), line 83; Patents Rules 2007 r. 37(4)', office: 'GB', origin: 'ep_validated', filing: '2018-03-15', grant: '2024-02-20', today: '2024-02-21', annuity: { number: 7, due: '2024-05-31', payableFrom: '2024-02-29', noSurchargeEnd: '2024-06-30', graceEnd: '2024-11-30' } },
  { name: 'EP(UK): mention on the 1st, three months end on the last day of the 3rd month', source: 'annuities.md §2.3 GB EP(UK), line 83; Patents Rules 2007 r. 37(4)(a)(i)', office: 'GB', origin: 'ep_validated', filing: '2018-03-15', grant: '2024-02-01', today: '2024-02-02', annuity: { number: 7, due: '2024-04-30', noSurchargeEnd: '2024-05-31', graceEnd: '2024-10-31' } },
  { name: 'EP(UK): mention within 3 months before the 4th anniversary opens year 5 late', source: 'annuities.md §2.3 GB EP(UK), line 83; Patents Rules 2007 r. 37(4)', office: 'GB', origin: 'ep_validated', filing: '2018-03-15', grant: '2022-01-20', today: '2022-01-21', first: 5, annuity: { number: 5, due: '2022-04-30', noSurchargeEnd: '2022-05-31', graceEnd: '2022-10-31' } },
  { name: 'EP(UK): the renewal date equal to the anniversary keeps the normal calendar', source: 'annuities.md §2.3 GB EP(UK), line 83; Patents Rules 2007 r. 37(4)(a), "the later of"', office: 'GB', origin: 'ep_validated', filing: '2018-03-15', grant: '2023-12-16', today: '2023-12-17', annuity: { number: 7, due: '2024-03-31', payableFrom: '2023-12-31', noSurchargeEnd: '2024-04-30', graceEnd: '2024-09-30' } },
  { name: 'EP(UK): mention long before the anniversary keeps the normal window', source: 'annuities.md §2.3 GB EP(UK), line 83', office: 'GB', origin: 'ep_validated', filing: '2018-03-15', grant: '2023-09-01', today: '2023-09-02', annuity: { number: 7, noSurchargeEnd: '2024-04-30' } },
  { name: 'EP(UK): early grant still starts at year 5', source: 'annuities.md §2.3 GB, line 80', office: 'GB', origin: 'ep_validated', filing: '2018-03-15', grant: '2020-11-10', today: '2020-11-11', first: 5 },

  // §2.3 IT (line 84) and §1 line 30.
  { name: 'IT starts at year 5', source: 'annuities.md §1 IT, line 30', office: 'IT', origin: 'national', filing: '2018-03-15', today: '2018-04-01', first: 5, annuity: { number: 5, due: '2022-03-31', fee: 6000, payableFrom: null } },
  { name: 'grant mention on the filing anniversary: the new patent year (the reference\'s reading), flagged for review', source: 'annuities.md §2.1, line 62; issue 12', office: 'FR', origin: 'ep_validated', filing: '2018-03-15', grant: '2023-03-15', today: '2023-03-16', first: 7, flags: ['grant_on_anniversary'] },
  { name: 'grant mention the day before the anniversary: the old patent year, no flag', source: 'annuities.md §2.1, line 62; issue 12', office: 'FR', origin: 'ep_validated', filing: '2018-03-15', grant: '2023-03-14', today: '2023-03-16', first: 6, flags: ['payment_unknown'] },
  { name: 'IT pending at end of year 4: plain within 4 months of grant, then 6 months with the late fee', source: 'annuities.md §2.3 IT, line 84; Ministerial Decree of 2 April 2007, art. 4', office: 'IT', origin: 'national', filing: '2018-03-15', grant: '2023-01-20', today: '2023-01-21', annuity: { number: 5, due: '2022-03-31', noSurchargeEnd: '2023-05-22', graceEnd: '2023-11-20' }, next: 5, colour: 'nok', flags: ['it_pending_application', 'payment_unknown'] },
  { name: 'IT pending: unpaid 5 months after grant, in the late-fee months, not lapsed', source: 'annuities.md §2.3 IT, line 84; Ministerial Decree of 2 April 2007, art. 4', office: 'IT', origin: 'national', filing: '2018-03-15', grant: '2023-01-20', lastPaid: 4, today: '2023-06-20', next: 5, nextDate: '2022-03-31', colour: 'nok', inGrace: true, lapsed: false },
  { name: 'IT pending: lapsed the day after the late-fee months', source: 'annuities.md §2.3 IT, line 84; Ministerial Decree of 2 April 2007, art. 4', office: 'IT', origin: 'national', filing: '2018-03-15', grant: '2023-01-20', lastPaid: 4, today: '2023-11-21', lapsed: true, next: null },
  { name: 'IT pending: fee falling due after grant is normal', source: 'annuities.md §2.3 IT, line 84', office: 'IT', origin: 'national', filing: '2018-03-15', grant: '2023-01-20', today: '2023-01-21', annuity: { number: 6, due: '2023-03-31', noSurchargeEnd: '2023-03-31' } },
  { name: 'IT granted in year 4: no pending rule', source: 'annuities.md §2.3 IT, line 84', office: 'IT', origin: 'national', filing: '2018-03-15', grant: '2021-05-01', today: '2021-05-02', annuity: { number: 5, noSurchargeEnd: '2022-03-31' } },
  { name: 'IT surcharge EUR 100', source: 'annuities.md §1 IT, line 30', office: 'IT', origin: 'national', filing: '2018-03-15', today: '2018-04-01', annuity: { number: 9, surcharge: ['2026-04-15', 10000] } },

  // §2.3 ES (lines 85-89).
  { name: 'ES: no early payment', source: 'annuities.md §2.3 ES, line 86', office: 'ES', origin: 'national', filing: '2018-03-15', today: '2018-04-01', annuity: { number: 3, payableFrom: '2020-03-31' } },
  { name: 'ES: 3 months without surcharge', source: 'annuities.md §2.3 ES, line 87', office: 'ES', origin: 'national', filing: '2018-03-15', today: '2018-04-01', annuity: { number: 4, due: '2021-03-31', noSurchargeEnd: '2021-06-30', surcharge: ['2021-06-30', 0] } },
  { name: 'ES: in the 25 % months is in grace with surcharge', source: 'annuities.md §2.3 ES, line 88', office: 'ES', origin: 'national', filing: '2018-03-15', lastPaid: 3, today: '2021-07-15', next: 4, colour: 'nok', inGrace: true, nextLimit: '2021-12-31' },
  { name: 'ES: in the plain 3 months is red but not surcharged', source: 'annuities.md §2.3 ES, line 87', office: 'ES', origin: 'national', filing: '2018-03-15', lastPaid: 3, today: '2021-05-15', next: 4, colour: 'nok', inGrace: false },
  { name: 'ES: lapsed after 9 months', source: 'annuities.md §2.3 ES, line 88', office: 'ES', origin: 'national', filing: '2018-03-15', lastPaid: 3, today: '2022-01-01', lapsed: true, next: null, colour: 'orange', missed: { number: 4, lostAfter: '2021-12-31' } },

  // §2.3 DE (line 90).
  { name: 'DE: surcharge only after the end of the 2nd month', source: 'annuities.md §2.3 DE, line 90', office: 'DE', origin: 'national', filing: '2018-03-15', today: '2018-04-01', annuity: { number: 5, due: '2022-03-31', noSurchargeEnd: '2022-05-31', surcharge: ['2022-05-31', 0] } },
  { name: 'DE: EUR 50 from the 3rd month', source: 'annuities.md §3 DE, line 150', office: 'DE', origin: 'national', filing: '2018-03-15', today: '2018-04-01', annuity: { number: 5, surcharge: ['2022-06-01', 5000] } },
  { name: 'DE: 2 months after due is red but not in surcharge', source: 'annuities.md §2.3 DE, line 90', office: 'DE', origin: 'national', filing: '2018-03-15', lastPaid: 7, today: '2025-04-15', next: 8, colour: 'nok', inGrace: false },
  // 31 May 2025 is a Saturday: the surcharge-free period runs to Monday 2 June (§ 193 BGB); on the 3rd the surcharge is due.
  { name: 'DE: grace with surcharge starts 2 months after due', source: 'annuities.md §2.3 DE, line 90', office: 'DE', origin: 'national', filing: '2018-03-15', lastPaid: 7, today: '2025-06-03', next: 8, colour: 'nok', inGrace: true },
  { name: 'DE: no surcharge on the Sunday after a Saturday period end', source: 'annuities.md §2.3 DE, line 90', office: 'DE', origin: 'national', filing: '2018-03-15', lastPaid: 7, today: '2025-06-01', next: 8, inGrace: false },
  { name: 'DE: payable one year ahead', source: 'annuities.md §1 DE, line 26', office: 'DE', origin: 'national', filing: '2018-03-15', today: '2018-04-01', annuity: { number: 3, payableFrom: '2019-03-31' } },
  { name: 'DE: end of 6th month is the grace end', source: 'annuities.md §1 DE, line 26', office: 'DE', origin: 'national', filing: '2018-08-31', today: '2018-09-01', annuity: { number: 3, due: '2020-08-31', noSurchargeEnd: '2020-11-02', graceEnd: '2021-03-01' } },

  // §2.3 FR (line 91) and §1 line 28.
  { name: 'FR starts at year 2', source: 'annuities.md §1 FR, line 28', office: 'FR', origin: 'national', filing: '2018-03-15', today: '2018-04-01', first: 2, count: 19 },
  { name: 'FR grace: last day of the 6th month (30 Sep, not 1 Oct)', source: 'annuities.md §2.3 FR, line 91', office: 'FR', origin: 'national', filing: '2018-03-15', today: '2018-04-01', annuity: { number: 3, due: '2020-03-31', graceEnd: '2020-09-30' } },
  { name: 'FR surcharge is 50 % of the annuity', source: 'annuities.md §3 FR, line 165', office: 'FR', origin: 'national', filing: '2018-03-15', today: '2018-04-01', annuity: { number: 7, surcharge: ['2024-05-02', 4800] } },
  { name: 'FR payable one year ahead', source: 'annuities.md §1 FR, line 28', office: 'FR', origin: 'national', filing: '2018-03-15', today: '2018-04-01', annuity: { number: 4, payableFrom: '2020-03-31' } },

  // §2.3 SE (lines 92-96).
  { name: 'SE: filing month used for a 31 Jan filing, flagged', source: 'annuities.md §2.3 SE, line 95', office: 'SE', origin: 'national', filing: '2019-01-31', today: '2019-02-01', annuity: { number: 3, due: '2021-01-31' }, flags: ['se_month_end_filing'] },
  { name: 'SE: 30 Apr filing flagged', source: 'annuities.md §2.3 SE, line 95', office: 'SE', origin: 'national', filing: '2019-04-30', today: '2019-05-01', flags: ['se_month_end_filing'] },
  { name: 'SE: 28 Feb filing flagged', source: 'annuities.md §2.3 SE, line 95', office: 'SE', origin: 'national', filing: '2019-02-28', today: '2019-03-01', annuity: { number: 4, due: '2022-02-28' }, flags: ['se_month_end_filing'] },
  { name: 'SE: PRV example, filed 5 Aug 2017 pays in Aug 2019', source: 'annuities.md §2.3 SE, line 94', office: 'SE', origin: 'national', filing: '2017-08-05', today: '2017-09-01', annuity: { number: 3, due: '2019-08-31' }, flags: [] },
  { name: 'SE: surcharge 20 %', source: 'annuities.md §1 SE, line 32', office: 'SE', origin: 'national', filing: '2017-08-05', today: '2017-09-01', annuity: { number: 3, surcharge: ['2019-09-15', 28000], currency: 'SEK', fee: 140000 } },
  { name: 'SE: payable 6 months ahead', source: 'annuities.md §1 SE, line 32', office: 'SE', origin: 'national', filing: '2017-08-05', today: '2017-09-01', annuity: { number: 3, payableFrom: '2019-02-28' } },

  // §2.3 UP (line 97) and §3 UP (lines 137-139).
  { name: 'UP: fee due within 3 months of the registration notice', source: 'annuities.md §2.3 UP, line 97', office: 'UP', origin: 'unitary', filing: '2018-03-15', grant: '2024-01-10', unitaryRegistration: '2024-02-15', today: '2024-02-16', annuity: { number: 7, due: '2024-03-31', noSurchargeEnd: '2024-05-15', graceEnd: '2024-09-30' } },
  { name: 'UP: later fee not affected', source: 'annuities.md §2.3 UP, line 97', office: 'UP', origin: 'unitary', filing: '2018-03-15', grant: '2024-01-10', unitaryRegistration: '2024-02-15', today: '2024-02-16', annuity: { number: 8, noSurchargeEnd: '2025-03-31' } },
  { name: 'UP: first year after the grant-mention year', source: 'annuities.md §1 UP, line 24', office: 'UP', origin: 'unitary', filing: '2020-06-10', grant: '2021-07-01', today: '2021-07-02', first: 3 },
  { name: 'UP: table starts at year 2', source: 'annuities.md §1 UP, line 24', office: 'UP', origin: 'unitary', filing: '2020-06-10', grant: '2020-12-01', today: '2020-12-02', first: 2, annuity: { number: 2, due: '2021-06-30', fee: 3500 } },
  ...(['BE', 'DE', 'FR', 'IT', 'NL', 'SE'] as Office[]).map<Case>((office) => ({ name: `UP replaces ${office}`, source: 'annuities.md §3 UP, line 138', office, origin: 'unitary', filing: '2018-03-15', grant: '2024-01-10', today: '2024-01-11', office_applied: 'UP', flags: ['replaced_by_unitary', 'closing_days_provisional'], annuity: { number: 7, fee: 63000 } })),
  { name: 'UP does not cover ES', source: 'annuities.md §3 UP, line 139', office: 'ES', origin: 'unitary', filing: '2018-03-15', grant: '2024-01-10', today: '2024-01-11', error: 'unitary_not_available' },
  { name: 'UP does not cover GB', source: 'annuities.md §3 UP, line 139', office: 'GB', origin: 'unitary', filing: '2018-03-15', grant: '2024-01-10', today: '2024-01-11', error: 'unitary_not_available' },

  // §2.3 NL and BE (line 98), §1 lines 25 and 31.
  { name: 'NL starts at year 4', source: 'annuities.md §1 NL, line 31', office: 'NL', origin: 'national', filing: '2018-03-15', today: '2018-04-01', first: 4, absent: 3, annuity: { number: 4, due: '2021-03-31', fee: 4000 } },
  { name: 'NL: no surcharge-free window', source: 'annuities.md §2.3 NL/BE, line 98', office: 'NL', origin: 'national', filing: '2018-03-15', today: '2018-04-01', annuity: { number: 5, surcharge: ['2022-04-01', 5000] } },
  { name: 'BE: no free month since 2014', source: 'annuities.md §2.3 NL/BE, line 98', office: 'BE', origin: 'national', filing: '2018-03-15', today: '2018-04-01', annuity: { number: 5, noSurchargeEnd: '2022-03-31', surcharge: ['2022-04-01', 8500] } },
  { name: 'BE: surcharge EUR 230 from year 11', source: 'annuities.md §1 BE, line 25', office: 'BE', origin: 'national', filing: '2018-03-15', today: '2018-04-01', annuity: { number: 12, surcharge: ['2029-04-01', 23000] } },
  { name: 'BE: payable 6 months ahead', source: 'annuities.md §1 BE, line 25', office: 'BE', origin: 'national', filing: '2018-03-15', today: '2018-04-01', annuity: { number: 3, payableFrom: '2019-09-30' } },
  { name: 'NL: payable any time', source: 'annuities.md §1 NL, line 31', office: 'NL', origin: 'national', filing: '2018-03-15', today: '2018-04-01', annuity: { number: 4, payableFrom: null } },

  // §1 EP (line 23) and §3 EP (line 126-127).
  { name: 'EP: 3rd-year fee payable 6 months ahead', source: 'annuities.md §3 EP, line 126', office: 'EP', origin: 'ep_application', filing: '2018-03-15', today: '2018-04-01', annuity: { number: 3, payableFrom: '2019-09-30' } },
  { name: 'EP: other fees 3 months ahead', source: 'annuities.md §3 EP, line 126', office: 'EP', origin: 'ep_application', filing: '2018-03-15', today: '2018-04-01', annuity: { number: 4, payableFrom: '2020-12-31' } },
  // The fee is the one in force on the payment day (EPO Guidelines A-XI 5.1.2): a 3rd-year fee paid in grace on 15 Apr 2024 is 690, its surcharge 345.
  { name: 'EP: surcharge 50 %', source: 'annuities.md §3 EP, line 127', office: 'EP', origin: 'ep_application', filing: '2022-03-15', today: '2022-04-01', annuity: { number: 3, surcharge: ['2024-04-15', 34500] } },
  { name: 'EP: pending application runs to year 20', source: 'annuities.md §1 EP, line 23', office: 'EP', origin: 'ep_application', filing: '2018-03-15', today: '2018-04-01', first: 3, last: 20, count: 18 },

  // §2.4 portal fields and colours (lines 100-114) and product.md lines 258-262, 272.
  { name: 'green: next date in the future', source: 'annuities.md §2.4, line 110', office: 'FR', origin: 'national', filing: '2018-03-15', today: '2026-11-21', previous: 9, previousDate: '2026-03-31', next: 10, nextDate: '2027-03-31', colour: 'ok' },
  { name: 'instruction limit = next due - 7 days', source: 'annuities.md §2.4, line 109', office: 'FR', origin: 'national', filing: '2018-03-15', today: '2026-11-21', instructionLimit: '2027-03-24' },
  { name: 'limit of the next annuity = its grace end', source: 'annuities.md §2.4, line 107', office: 'FR', origin: 'national', filing: '2018-03-15', today: '2026-11-21', nextLimit: '2027-09-30' },
  { name: 'due today without payment data: next, red, payment not known', source: 'annuities.md §2.5, line 121; issue 25 §2', office: 'NL', origin: 'national', filing: '2018-03-15', today: '2024-03-31', previous: 6, next: 7, colour: 'nok', flags: ['payment_unknown'] },
  { name: 'red: next date past, still in grace', source: 'annuities.md §2.4, line 103', office: 'NL', origin: 'national', filing: '2018-03-15', lastPaid: 7, today: '2025-04-15', previous: 7, next: 8, nextDate: '2025-03-31', colour: 'nok', inGrace: true, lapsed: false },
  { name: 'red on the due date itself', source: 'annuities.md §2.4, line 110', office: 'NL', origin: 'national', filing: '2018-03-15', lastPaid: 7, today: '2025-03-31', colour: 'nok', inGrace: false },
  { name: 'last day of grace still red', source: 'annuities.md §2.4, line 112', office: 'NL', origin: 'national', filing: '2018-03-15', lastPaid: 7, today: '2025-09-30', colour: 'nok', inGrace: true, lapsed: false },
  { name: 'lapsed the day after the grace end', source: 'annuities.md §2.4, line 113', office: 'NL', origin: 'national', filing: '2018-03-15', lastPaid: 7, today: '2025-10-01', lapsed: true, next: null, colour: 'orange', previous: 7, missed: { number: 8, lostAfter: '2025-09-30' } },
  { name: 'lapsed before any payment: no date', source: 'annuities.md §2.4, line 110', office: 'EP', origin: 'ep_application', filing: '2018-03-15', lastPaid: 0, today: '2021-01-01', lapsed: true, previous: null, next: null, colour: 'no_date', missed: { number: 3, lostAfter: '2020-09-30' } },
  { name: 'last paid ahead of the calendar', source: 'annuities.md §2.4, line 102', office: 'DE', origin: 'national', filing: '2018-03-15', lastPaid: 10, today: '2026-11-21', previous: 10, next: 11, nextDate: '2028-03-31', colour: 'ok' },
  { name: 'last paid below the first national year', source: 'annuities.md §2.2, line 61', office: 'BE', origin: 'ep_validated', filing: '2018-03-15', grant: '2024-01-10', lastPaid: 6, today: '2024-02-01', previous: null, next: 7, colour: 'ok' },
  { name: 'first annuity not yet due: green without previous', source: 'annuities.md §2.4, line 110', office: 'EP', origin: 'ep_application', filing: '2025-06-01', today: '2026-11-21', previous: null, next: 3, nextDate: '2027-06-30', colour: 'ok' },
  { name: 'orange: all paid, nothing next (expired)', source: 'annuities.md §2.4, line 114', office: 'FR', origin: 'national', filing: '2000-01-10', today: '2026-11-21', expired: true, previous: 20, previousDate: '2019-01-31', next: null, colour: 'orange', lapsed: false },
  { name: 'expired wins over lapsed', source: 'annuities.md §2.4, line 114', office: 'FR', origin: 'national', filing: '2000-01-10', lastPaid: 12, today: '2026-11-21', expired: true, lapsed: false },

  // Leap-day and month-end filings (§2.1 line 48).
  { name: 'leap-day filing: due on 28 Feb in common years', source: 'annuities.md §2.1, line 48', office: 'DE', origin: 'national', filing: '2020-02-29', today: '2020-03-01', annuity: { number: 3, due: '2022-02-28', noSurchargeEnd: '2022-05-02', graceEnd: '2022-08-31' } },
  { name: 'leap-day filing: due on 29 Feb in leap years', source: 'annuities.md §2.1, line 48', office: 'DE', origin: 'national', filing: '2020-02-29', today: '2020-03-01', annuity: { number: 5, due: '2024-02-29' } },
  { name: 'leap-day filing FR: 28 Feb 2021 is a Sunday', source: 'annuities.md §2.1 line 48 with §2.3 line 77', office: 'FR', origin: 'national', filing: '2020-02-29', today: '2020-03-01', annuity: { number: 2, due: '2021-02-28', noSurchargeEnd: '2021-03-01', graceEnd: '2021-08-31' } },
  { name: 'leap-day filing EP grace end', source: 'annuities.md §2.1, line 48', office: 'EP', origin: 'ep_application', filing: '2020-02-29', today: '2020-03-01', annuity: { number: 4, due: '2023-02-28', graceEnd: '2023-08-31' } },
  { name: 'leap-day filing: grant on 28 Feb 2021 is in year 2', source: 'annuities.md §2.2, line 62', office: 'UP', origin: 'unitary', filing: '2020-02-29', grant: '2021-02-28', today: '2021-03-01', first: 3 },
  { name: 'leap-day filing: grant on 27 Feb 2021 is in year 1', source: 'annuities.md §2.2, line 62', office: 'UP', origin: 'unitary', filing: '2020-02-29', grant: '2021-02-27', today: '2021-03-01', first: 2 },
  { name: 'leap-day filing runs to 29 Feb 2040', source: 'annuities.md §1, line 34', office: 'NL', origin: 'national', filing: '2020-02-29', today: '2040-02-29', expired: false },
  { name: 'month-end filing 31 Jan, GB windows', source: 'annuities.md §2.1 line 46 with §1 GB line 29', office: 'GB', origin: 'national', filing: '2019-01-31', grant: '2021-01-01', today: '2021-01-02', annuity: { number: 5, due: '2023-01-31', noSurchargeEnd: '2023-02-28', graceEnd: '2023-07-31' } },
  { name: 'month-end filing 31 Aug, ES windows', source: 'annuities.md §2.1 line 46 with §2.3 ES line 87', office: 'ES', origin: 'national', filing: '2019-08-31', today: '2019-09-01', annuity: { number: 3, due: '2021-08-31', noSurchargeEnd: '2021-11-30', graceEnd: '2022-05-31' } },
  { name: 'month-end filing 31 Dec, year rollover', source: 'annuities.md §2.1, line 46', office: 'BE', origin: 'national', filing: '2019-12-31', today: '2020-01-01', annuity: { number: 3, due: '2021-12-31', graceEnd: '2022-06-30' } },
  { name: 'filing on the 1st of a month', source: 'annuities.md §2.1, line 46', office: 'IT', origin: 'national', filing: '2019-07-01', today: '2019-07-02', annuity: { number: 5, due: '2023-07-31', graceEnd: '2024-01-31' } },

  // 20th year and expiry (§1 line 34, §2.1 line 47).
  { name: 'the 20th is the last annuity', source: 'annuities.md §1, line 34', office: 'DE', origin: 'national', filing: '2006-05-10', today: '2006-06-01', last: 20, annuity: { number: 20, due: '2025-05-31', fee: 203000 } },
  { name: 'no 21st annuity', source: 'annuities.md §2.1, line 47', office: 'DE', origin: 'national', filing: '2006-05-10', today: '2006-06-01', absent: 21 },
  { name: 'after the 20th: only a previous date until expiry', source: 'annuities.md §2.1, line 47', office: 'DE', origin: 'national', filing: '2006-05-10', today: '2026-05-10', previous: 20, next: null, expired: false, colour: 'orange' },
  { name: 'expired the day after F + 20 years', source: 'annuities.md §2.1, line 47', office: 'DE', origin: 'national', filing: '2006-05-10', today: '2026-05-11', expired: true, lapsed: false },
  { name: '20th annuity is next in year 19', source: 'annuities.md §2.1, line 47', office: 'GB', origin: 'national', filing: '2006-05-10', grant: '2008-01-01', lastPaid: 19, today: '2024-06-01', next: 20, nextDate: '2025-05-31', colour: 'ok' },
  ...(['BE', 'DE', 'ES', 'FR', 'GB', 'IT', 'NL', 'SE', 'EP'] as Office[]).map<Case>((office) => ({
    name: `${office} schedule ends at 20`,
    source: 'annuities.md §1, line 34',
    office,
    origin: office === 'EP' ? 'ep_application' : 'national',
    filing: '2010-10-10',
    grant: office === 'EP' ? undefined : '2012-01-01',
    today: '2011-01-01',
    last: 20,
  })),

  // Fees from the dated tables (§7 lines 338-359).
  { name: 'EP 3rd-year fee', source: 'annuities.md §7, line 341', office: 'EP', origin: 'ep_application', filing: '2022-05-02', today: '2022-06-01', annuity: { number: 3, fee: 69000, currency: 'EUR' } },
  { name: 'EP 10th-year fee', source: 'annuities.md §7, line 348', office: 'EP', origin: 'ep_application', filing: '2022-05-02', today: '2022-06-01', annuity: { number: 10, fee: 177500 } },
  { name: 'UP 20th-year fee', source: 'annuities.md §7, line 358', office: 'UP', origin: 'unitary', filing: '2022-05-02', grant: '2024-01-01', today: '2024-06-01', annuity: { number: 20, fee: 485500 } },
  { name: 'DE 3rd-year fee', source: 'annuities.md §7, line 341', office: 'DE', origin: 'national', filing: '2022-05-02', today: '2022-06-01', annuity: { number: 3, fee: 7000 } },
  { name: 'FR 2nd-year fee', source: 'annuities.md §7, line 340', office: 'FR', origin: 'national', filing: '2024-05-02', today: '2024-06-01', annuity: { number: 2, fee: 3800 } },
  { name: 'FR 20th-year fee', source: 'annuities.md §7, line 358', office: 'FR', origin: 'national', filing: '2024-05-02', today: '2024-06-01', annuity: { number: 20, fee: 80000 } },
  { name: 'NL 20th-year fee', source: 'annuities.md §7, line 358', office: 'NL', origin: 'national', filing: '2022-05-02', today: '2022-06-01', annuity: { number: 20, fee: 140000 } },
  { name: 'BE 11th-year fee (210 read, 215 open)', source: 'annuities.md §7, line 349', office: 'BE', origin: 'national', filing: '2022-05-02', today: '2022-06-01', annuity: { number: 11, fee: 21000 } },
  { name: 'IT 20th-year fee', source: 'annuities.md §7, line 358', office: 'IT', origin: 'national', filing: '2022-05-02', today: '2022-06-01', annuity: { number: 20, fee: 65000 } },
  { name: 'ES 3rd-year fee with cents', source: 'annuities.md §7, line 341', office: 'ES', origin: 'national', filing: '2022-05-02', today: '2022-06-01', annuity: { number: 3, fee: 1885 } },
  { name: 'ES 10th-year fee', source: 'annuities.md §7, line 348', office: 'ES', origin: 'national', filing: '2022-05-02', today: '2022-06-01', annuity: { number: 10, fee: 22040 } },
  { name: 'GB 20th-year fee in GBP', source: 'annuities.md §7, line 358', office: 'GB', origin: 'national', filing: '2022-05-02', grant: '2024-01-01', today: '2024-06-01', annuity: { number: 20, fee: 61000, currency: 'GBP' } },
  // annuities.md §7 gives SFS 2017:1058 (7,000); PRV's fees for payments from 18 March 2023 are 7,300 (docs/annuity-rules.md "Fee tables").
  { name: 'SE 20th-year fee in SEK (PRV, payments from 18 Mar 2023)', source: 'annuities.md §7, line 358; PRV 18 March 2023', office: 'SE', origin: 'national', filing: '2022-05-02', today: '2022-06-01', annuity: { number: 20, fee: 730000, currency: 'SEK' } },
  { name: 'SE 20th-year fee in SEK paid in 2021 (SFS 2017:1058)', source: 'annuities.md §7, line 358', office: 'SE', origin: 'national', filing: '2002-05-02', today: '2002-06-01', annuity: { number: 20, fee: 700000, currency: 'SEK' } },
  { name: 'DE 20th-year fee', source: 'annuities.md §7, line 358', office: 'DE', origin: 'national', filing: '2022-05-02', today: '2022-06-01', annuity: { number: 20, fee: 203000 } },

  // Input errors, reported as reason codes.
  { name: 'grant before filing', source: 'annuities.md §9, line 389', office: 'DE', origin: 'ep_validated', filing: '2018-03-15', grant: '2017-01-01', today: '2024-01-01', error: 'grant_before_filing' },
  { name: 'last paid above 20', source: 'annuities.md §1, line 34', office: 'DE', origin: 'national', filing: '2018-03-15', lastPaid: 21, today: '2024-01-01', error: 'invalid_last_paid' },
  { name: 'EP office with a national origin', source: 'annuities.md §9, line 392', office: 'EP', origin: 'national', filing: '2018-03-15', today: '2024-01-01', error: 'origin_not_allowed' },
  { name: 'national office as a pending EP application', source: 'annuities.md §9, line 392', office: 'FR', origin: 'ep_application', filing: '2018-03-15', today: '2024-01-01', error: 'origin_not_allowed' },
  { name: 'UP office with a national origin', source: 'annuities.md §9, line 393', office: 'UP', origin: 'national', filing: '2018-03-15', today: '2024-01-01', error: 'origin_not_allowed' },
  // ---- Periods ending on a day the office is closed: every office, each edge computed by hand from the text (annuities.md §2.4, docs/annuity-rules.md).
  // IT, DM 33/2010 art. 3(1) (verified): due Sat 31 May 2025; Sun 1 June; Mon 2 June Festa della Repubblica → Tue 3 June. Mora end Sun 30 Nov 2025 → Mon 1 Dec.
  { name: 'IT: a chain of weekend and national holiday (2 June) moves both ends', source: 'annuities.md §2.4 IT, line 112', office: 'IT', origin: 'national', filing: '2019-05-10', today: '2019-06-01', annuity: { number: 7, due: '2025-05-31', noSurchargeEnd: '2025-06-03', noSurchargeEndLatest: '2025-06-03', graceEnd: '2025-12-01', lostAfter: '2025-12-01' } },
  // IT: due Sun 31 Dec 2028, Mon 1 Jan 2029 Capodanno → Tue 2 Jan; mora end Sat 30 June 2029 → Mon 2 July.
  { name: 'IT: New Year after a Sunday month end', source: 'annuities.md §2.4 IT, line 112', office: 'IT', origin: 'national', filing: '2022-12-05', today: '2023-01-01', annuity: { number: 7, due: '2028-12-31', noSurchargeEnd: '2029-01-02', graceEnd: '2029-07-02' } },
  // IT: due Sat 31 Oct 2026; Sun 1 Nov (Ognissanti) → Mon 2 Nov.
  { name: 'IT: weekend with All Saints on the Sunday', source: 'annuities.md §2.4 IT, line 112', office: 'IT', origin: 'national', filing: '2020-10-20', today: '2020-11-01', annuity: { number: 7, due: '2026-10-31', noSurchargeEnd: '2026-11-02' } },
  // NL, ROW 1995 art. 16 (verified): due Sat 31 Mar 2029; Easter Sunday 1 April, Tweede Paasdag 2 April → Tue 3 April; grace end Sun 30 Sep 2029 → Mon 1 Oct.
  { name: 'NL: Saturday, Easter Sunday and Easter Monday in a row', source: 'annuities.md §2.4 NL, line 113', office: 'NL', origin: 'national', filing: '2023-03-15', today: '2023-04-01', annuity: { number: 7, due: '2029-03-31', noSurchargeEnd: '2029-04-03', noSurchargeEndLatest: '2029-04-03', graceEnd: '2029-10-01', lostAfter: '2029-10-01' } },
  // NL: due Sat 31 May 2031; Whit Sunday 1 June, Tweede Pinksterdag 2 June → Tue 3 June.
  { name: 'NL: Whitsun after a Saturday month end', source: 'annuities.md §2.4 NL, line 113', office: 'NL', origin: 'national', filing: '2025-05-20', today: '2025-06-01', annuity: { number: 7, due: '2031-05-31', noSurchargeEnd: '2031-06-03' } },
  // GB, s.120(2) unverified: k5 due Fri 31 Mar 2023; surcharge-free end Sun 30 Apr 2023 (pay by), lost only after Mon 1 May (early May bank holiday) → Tue 2 May.
  // Grace end Sat 30 Sep 2023 (pay by) → Mon 2 Oct 2023 (lost after).
  { name: 'GB: both edges of an unverified extension (weekend, early May bank holiday)', source: 'annuities.md §2.4 GB, line 114', office: 'GB', origin: 'national', filing: '2019-03-10', grant: '2021-06-01', today: '2019-04-01', annuity: { number: 5, due: '2023-03-31', noSurchargeEnd: '2023-04-30', noSurchargeEndLatest: '2023-05-02', graceEnd: '2023-09-30', lostAfter: '2023-10-02' } },
  // Same right, last paid 4: on Sun 1 Oct 2023 the pay-by grace end has passed but the right is not lost (an extension may apply): red, in grace, flagged.
  { name: 'GB: not lapsed between pay by and lost after', source: 'annuities.md §2.4, lines 104-105; GB line 114', office: 'GB', origin: 'national', filing: '2019-03-10', grant: '2021-06-01', lastPaid: 4, today: '2023-10-01', next: 5, nextLimit: '2023-09-30', nextLostAfter: '2023-10-02', inGrace: true, lapsed: false, missed: null, colour: 'nok', flags: ['extension_unverified'] },
  { name: 'GB: lapsed the day after lost after', source: 'annuities.md §2.4, lines 104-105; GB line 114', office: 'GB', origin: 'national', filing: '2019-03-10', grant: '2021-06-01', lastPaid: 4, today: '2023-10-03', next: null, lapsed: true, colour: 'no_date', missed: { number: 5, lostAfter: '2023-10-02' } },
  // BE, AR 3 Feb 2023 unverified: due Sun 31 Dec 2023 (pay by); Mon 1 Jan 2024 Nouvel An → lost after Tue 2 Jan. Grace end Sun 30 June 2024 → lost after Mon 1 July.
  { name: 'BE: both edges over New Year', source: 'annuities.md §2.4 BE, line 115', office: 'BE', origin: 'national', filing: '2020-12-10', today: '2021-01-01', annuity: { number: 4, due: '2023-12-31', noSurchargeEnd: '2023-12-31', noSurchargeEndLatest: '2024-01-02', graceEnd: '2024-06-30', lostAfter: '2024-07-01' } },
  { name: 'BE: in grace, not lapsed, on the day only an extension allows', source: 'annuities.md §2.4 BE, line 115', office: 'BE', origin: 'national', filing: '2020-12-10', lastPaid: 3, today: '2024-07-01', next: 4, nextLimit: '2024-06-30', nextLostAfter: '2024-07-01', lapsed: false, inGrace: true, colour: 'nok', flags: ['extension_unverified'] },
  // BE: due Sat 31 Oct 2026; Sun 1 Nov Toussaint; Mon 2 Nov (federal administration closed) → lost after Tue 3 Nov.
  { name: 'BE: a chain of weekend, All Saints and All Souls', source: 'annuities.md §2.4 BE, line 115', office: 'BE', origin: 'national', filing: '2021-10-05', today: '2021-11-01', annuity: { number: 6, due: '2026-10-31', noSurchargeEnd: '2026-10-31', noSurchargeEndLatest: '2026-11-03' } },
  // ES, Ley 39/2015 art. 30.5 via Ley 24/2015 DA 1ª (application to annual fees unverified): k5 due Sat 30 Sep 2023 (the due date never moves);
  // 3-month plain end Sun 31 Dec 2023 (pay by) → Mon 1 Jan 2024 Año Nuevo → lost after Tue 2 Jan; 9-month end Sun 30 June 2024 → Mon 1 July.
  { name: 'ES: both edges of the plain and the late window', source: 'annuities.md §2.4 ES, line 116', office: 'ES', origin: 'national', filing: '2019-09-12', today: '2019-10-01', annuity: { number: 5, due: '2023-09-30', noSurchargeEnd: '2023-12-31', noSurchargeEndLatest: '2024-01-02', graceEnd: '2024-06-30', lostAfter: '2024-07-01' } },
  // EP, Rule 134(1) EPC with OJ EPO 2022, A107: due Sun 30 Apr 2023; Mon 1 May closed in Munich and Berlin → Tue 2 May. 31 Oct 2023 is no EPO closing day.
  { name: 'EP: a day closed at two filing offices of three (1 May 2023) extends the period', source: 'annuities.md §2.4 EP, line 107', office: 'EP', origin: 'ep_application', filing: '2018-04-16', today: '2018-05-01', annuity: { number: 6, due: '2023-04-30', noSurchargeEnd: '2023-05-02', graceEnd: '2023-10-31' } },
  // EP: additional period ending Thu 31 Dec 2020 (OJ EPO 2019, A97), then the closure until 10 Jan 2021 (EPO notice of 17 Dec 2020) → Mon 11 Jan 2021.
  { name: 'EP: a chain of closing days across a year end (31 Dec 2020 to 10 Jan 2021)', source: 'annuities.md §2.4 EP, line 107', office: 'EP', origin: 'ep_application', filing: '2015-06-10', today: '2015-07-01', annuity: { number: 6, due: '2020-06-30', graceEnd: '2021-01-11', lostAfter: '2021-01-11' } },
  // EP: due Sun 31 Dec 2023; 1 Jan 2024 closed (EPO notice: offices closed 23 Dec 2023 to 1 Jan 2024) → Tue 2 Jan 2024; 2024's list is not published whole: provisional.
  { name: 'EP: New Year 2024, as the EPO announced it, flagged provisional', source: 'annuities.md §2.4 EP, line 107', office: 'EP', origin: 'ep_application', filing: '2017-12-05', today: '2023-12-01', next: 7, annuity: { number: 7, due: '2023-12-31', noSurchargeEnd: '2024-01-02', noSurchargeEndLatest: '2024-01-02' }, flags: ['closing_days_provisional', 'payment_unknown'] },
  // UP, Rule 20(2)(g) UPR applies Rule 134 EPC: due Sun 30 Apr 2023 → Tue 2 May 2023 as for EP.
  { name: 'UP: the EPO’s closing days apply (Rule 20(2)(g) UPR)', source: 'annuities.md §2.4 UP, line 108', office: 'UP', origin: 'unitary', filing: '2018-04-16', grant: '2022-12-01', today: '2023-01-01', annuity: { number: 6, due: '2023-04-30', noSurchargeEnd: '2023-05-02' } },
  // Without payment data: in grace (due 31 Mar 2024, FR, today 15 May) → next, red; past its last day → assumed paid, never lapsed.
  { name: 'no payment data, in grace: next with red, payment not known', source: 'annuities.md §2.5, line 121; issue 25 §2', office: 'FR', origin: 'national', filing: '2018-03-15', today: '2024-05-15', next: 7, previous: 6, colour: 'nok', inGrace: true, lapsed: false, flags: ['payment_unknown'] },
  { name: 'no payment data, due in 20 days: red, payment not known', source: 'annuities.md §2.5, line 121 (red while in grace, line 130); issue 25 §2', office: 'FR', origin: 'national', filing: '2018-03-15', today: '2024-03-11', next: 7, previous: 6, colour: 'nok', inGrace: false, flags: ['payment_unknown'] },
  { name: 'no payment data, due in 60 days: green', source: 'annuities.md §2.5, line 121 (red while in grace, line 130); issue 25 §2', office: 'FR', origin: 'national', filing: '2018-03-15', today: '2024-01-31', next: 7, colour: 'ok', flags: [] },
  { name: 'no payment data, past the grace end: assumed paid, not lapsed', source: 'annuities.md §2.5, line 121 (red while in grace, line 130); issue 25 §2', office: 'FR', origin: 'national', filing: '2018-03-15', today: '2024-10-02', previous: 7, next: 8, colour: 'ok', lapsed: false, flags: [] },
];
