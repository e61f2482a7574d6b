/**
 * Civil dates as integer day numbers (days since 1970-01-01, proleptic Gregorian).
 * Integers avoid every timezone and DST question and keep the schedule engine allocation-free.
 */
export type Day = number & { readonly __day: unique symbol };

/** Month index: year * 12 + (month - 1). Due dates are month ends, so most arithmetic is on months. */
export type MonthIndex = number;

// Howard Hinnant's days_from_civil / civil_from_days.
export function dayFromYmd(year: number, month: number, day: number): Day {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = (month + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return (era * 146097 + doe - 719468) as Day;
}

export interface Ymd {
  readonly year: number;
  readonly month: number;
  readonly day: number;
}

export function ymdFromDay(d: Day): Ymd {
  const z = d + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

export function monthIndexOf(d: Day): MonthIndex {
  const { year, month } = ymdFromDay(d);
  return year * 12 + month - 1;
}

// Month ends are looked up far more than anything else (three per annuity); a table makes them O(1).
const TABLE_FIRST_YEAR = 1900;
const TABLE_LAST_YEAR = 2200;
const MONTH_END_TABLE = new Int32Array((TABLE_LAST_YEAR - TABLE_FIRST_YEAR + 1) * 12);
for (let i = 0; i < MONTH_END_TABLE.length; i++) {
  const year = TABLE_FIRST_YEAR + Math.floor(i / 12);
  const month = (i % 12) + 1;
  MONTH_END_TABLE[i] = dayFromYmd(year, month, daysInMonth(year, month));
}
const TABLE_OFFSET = TABLE_FIRST_YEAR * 12;

/** Last day of the month with the given index. */
export function monthEnd(m: MonthIndex): Day {
  const v = MONTH_END_TABLE[m - TABLE_OFFSET];
  if (v !== undefined) return v as Day;
  const year = Math.floor(m / 12);
  const month = m - year * 12 + 1;
  return dayFromYmd(year, month, daysInMonth(year, month));
}

/**
 * Same day-of-month `months` later (or earlier), clamped to the month end:
 * the way the EPC (Rule 131(4)) and the national laws count periods in months or years.
 */
export function addMonths(d: Day, months: number): Day {
  const { year, month, day } = ymdFromDay(d);
  const m = year * 12 + month - 1 + months;
  const y = Math.floor(m / 12);
  const mo = m - y * 12 + 1;
  return dayFromYmd(y, mo, Math.min(day, daysInMonth(y, mo)));
}

export function addYears(d: Day, years: number): Day {
  return addMonths(d, years * 12);
}

export function addDays(d: Day, days: number): Day {
  return (d + days) as Day;
}

/** 0 = Monday … 6 = Sunday (1970-01-01 was a Thursday). */
export function weekday(d: Day): number {
  return (((d + 3) % 7) + 7) % 7;
}

export function isLastDayOfMonth(d: Day): boolean {
  const { year, month, day } = ymdFromDay(d);
  return day === daysInMonth(year, month);
}

const ISO_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Strict YYYY-MM-DD; null when the text is not a real calendar date. */
export function parseIsoDate(text: string): Day | null {
  const m = ISO_RE.exec(text);
  if (!m) return null;
  return validDay(Number(m[1]), Number(m[2]), Number(m[3]));
}

export function validDay(year: number, month: number, day: number): Day | null {
  if (!Number.isInteger(year) || !Number.isInteger(month) || !Number.isInteger(day)) return null;
  if (year < 1900 || year > 2199 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return dayFromYmd(year, month, day);
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : `${n}`;
}

export function formatIsoDate(d: Day): string {
  const { year, month, day } = ymdFromDay(d);
  return `${year}-${pad2(month)}-${pad2(day)}`;
}

/** The Day of a JS Date, read in UTC (spreadsheet libraries hand out dates at UTC midnight). */
export function dayFromDate(date: Date): Day | null {
  const t = date.getTime();
  if (Number.isNaN(t)) return null;
  return Math.floor(t / 86_400_000) as Day;
}

// Excel serial 25569 is 1970-01-01 in the 1900 system (which keeps Lotus's fictitious 29 Feb 1900,
// harmless for serials after 1 Mar 1900); the 1904 system is 1462 days behind.
const EXCEL_1900_EPOCH = 25569;
const EXCEL_1904_OFFSET = 1462;

export function dayFromExcelSerial(serial: number, date1904 = false): Day | null {
  if (!Number.isFinite(serial) || serial < 61) return null;
  const d = Math.floor(serial) - EXCEL_1900_EPOCH + (date1904 ? EXCEL_1904_OFFSET : 0);
  const { year } = ymdFromDay(d as Day);
  return year >= 1900 && year <= 2199 ? (d as Day) : null;
}

/**
 * Patent year containing `d` for a right filed on `filing`: year n runs from the (n-1)th
 * anniversary up to the day before the nth (OJ EPO 6/1984 p. 272). 0 before the filing date.
 */
export function patentYear(filing: Day, d: Day): number {
  if (d < filing) return 0;
  const f = ymdFromDay(filing);
  const t = ymdFromDay(d);
  let years = t.year - f.year;
  if (addYears(filing, years) > d) years -= 1;
  return years + 1;
}
