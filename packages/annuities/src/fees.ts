import { parseIsoDate, type Day } from './calendar.ts';
import type { Currency, Office } from './types.ts';

/**
 * Official renewal fees as dated data (annuities.md §7). Amounts are integer minor units
 * (cents, pence, öre), indexed by annuity number; null where the office charges nothing.
 */
export interface FeeTable {
  readonly id: string;
  readonly office: Office;
  readonly validFrom: Day;
  readonly currency: Currency;
  readonly amounts: ReadonlyArray<number | null>;
  readonly source: string;
}

function table(
  office: Office,
  validFrom: string,
  currency: Currency,
  firstYear: number,
  major: readonly number[],
  source: string,
): FeeTable {
  const day = parseIsoDate(validFrom);
  if (day === null) throw new Error(`bad fee table date ${validFrom}`);
  const amounts: Array<number | null> = new Array<number | null>(21).fill(null);
  major.forEach((amount, i) => {
    // Amounts are written in major units with at most two decimals; go through the string form to stay exact.
    const [units = '0', cents = ''] = String(amount).split('.');
    amounts[firstYear + i] = Number(units) * 100 + Number(cents.padEnd(2, '0'));
  });
  if (amounts.length !== 21) throw new Error(`fee table ${office} ${validFrom} has more than 20 years`);
  return { id: `${office}-${validFrom}`, office, validFrom: day, currency, amounts, source };
}

export const FEE_TABLES: readonly FeeTable[] = [
  table('EP', '2024-04-01', 'EUR', 3, [690, 845, 1000, 1155, 1310, 1465, 1620, 1775, 1775, 1775, 1775, 1775, 1775, 1775, 1775, 1775, 1775, 1775], 'annuities.md §7 EP (EUR, from 1 Apr 2024) [S]'),
  table('UP', '2023-06-01', 'EUR', 2, [35, 105, 145, 315, 475, 630, 815, 990, 1175, 1460, 1775, 2105, 2455, 2830, 3240, 3640, 4055, 4455, 4855], 'annuities.md §7 UP (RFeesUPP) [O]'),
  table('DE', '2022-07-01', 'EUR', 3, [70, 70, 100, 150, 210, 280, 350, 430, 540, 680, 830, 980, 1130, 1310, 1490, 1670, 1840, 2030], 'annuities.md §7 DE (from 1 Jul 2022) [S]'),
  table('FR', '2024-04-01', 'EUR', 2, [38, 38, 38, 38, 76, 96, 136, 180, 220, 260, 300, 350, 400, 460, 520, 580, 650, 730, 800], 'annuities.md §7 FR (1 Apr 2024) [S]'),
  table('NL', '2022-01-01', 'EUR', 4, [40, 100, 160, 220, 280, 340, 400, 500, 600, 700, 800, 900, 1000, 1100, 1200, 1300, 1400], 'annuities.md §7 NL (RVO 2022) [O]'),
  table('BE', '2022-01-01', 'EUR', 3, [40, 55, 75, 95, 110, 135, 165, 185, 210, 240, 275, 320, 360, 400, 450, 500, 555, 600], 'annuities.md §7 BE (2022) [S]; 11th year 210 (a source says 215)'),
  table('IT', '2007-04-02', 'EUR', 5, [60, 90, 120, 170, 200, 230, 310, 410, 530, 600, 650, 650, 650, 650, 650, 650], 'annuities.md §7 IT (DM 2 Apr 2007) [O]'),
  table('ES', '2024-01-01', 'EUR', 3, [18.85, 23.52, 45.0, 66.41, 109.63, 136.47, 171.26, 220.4, 276.27, 324.37, 372.39, 420.86, 449.45, 468.07, 499.85, 499.85, 499.85, 499.85], 'annuities.md §7 ES (EPO table 2024) [S]'),
  table('GB', '2018-04-06', 'GBP', 5, [70, 90, 110, 130, 150, 170, 190, 220, 260, 300, 360, 420, 470, 520, 570, 610], 'annuities.md §7 GB (from 6 Apr 2018) [O]'),
  table('SE', '2018-01-01', 'SEK', 3, [1400, 1500, 1700, 1900, 2100, 2400, 2700, 3000, 3400, 3800, 4200, 4600, 5000, 5400, 5800, 6200, 6600, 7000], 'annuities.md §7 SE (SFS 2017:1058) [O]'),
];

const TABLES_BY_OFFICE = new Map<Office, readonly FeeTable[]>();
for (const t of FEE_TABLES) {
  const list = [...(TABLES_BY_OFFICE.get(t.office) ?? []), t].sort((a, b) => a.validFrom - b.validFrom);
  TABLES_BY_OFFICE.set(t.office, list);
}

/** Every table of an office, oldest first. */
export function feeTablesOf(office: Office): readonly FeeTable[] {
  const list = TABLES_BY_OFFICE.get(office);
  if (!list || list.length === 0) throw new Error(`no fee table for ${office}`);
  return list;
}

/**
 * The table in force on `on`; before the oldest known table, the oldest one (the annuity
 * carries the table id, so an estimate is visible as such).
 */
export function pickFeeTable(tables: readonly FeeTable[], on: Day): FeeTable {
  let chosen = tables[0] as FeeTable;
  for (let i = 1; i < tables.length; i++) {
    const t = tables[i] as FeeTable;
    if (t.validFrom <= on) chosen = t;
  }
  return chosen;
}

export function feeTableFor(office: Office, on: Day): FeeTable {
  return pickFeeTable(feeTablesOf(office), on);
}

/** Minor units as a decimal string ("18.85"), for display and JSON without floats. */
export function formatMinor(minor: number): string {
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  const cents = abs % 100;
  return `${sign}${(abs - cents) / 100}.${cents < 10 ? '0' : ''}${cents}`;
}
