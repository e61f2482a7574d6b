import { addMonths, parseIsoDate, type Day } from './calendar.ts';
import type { Currency, Office } from './types.ts';

/** Where a table's amounts were read. `official`: the office, its ministry or the legal text itself; else a firm's or a blog's summary (a lead, not a source). */
export interface FeeSource {
  readonly title: string;
  readonly url: string;
  readonly official: boolean;
}

/** The last look at whether an office's newest table is still the one in force, and what it found. */
export interface FeeCheck {
  readonly on: Day;
  readonly note: string;
}

/**
 * Official renewal fees as dated data (annuities.md §7, docs/annuity-rules.md "Fee tables"). Amounts are
 * integer minor units (cents, pence, öre), indexed by annuity number; null where the office charges nothing.
 * A table is in force for payments made from `validFrom` to `validUntil` (the offices charge the amount in
 * force on the day of payment, not on the due date). `verified`: every amount was read in an official text
 * (`sources`); otherwise the table is kept as the best known and every fee taken from it says so.
 */
export interface FeeTable {
  readonly id: string;
  readonly office: Office;
  readonly validFrom: Day;
  /** Last payment day the table applies to; null while no later table is known or reported. */
  readonly validUntil: Day | null;
  readonly currency: Currency;
  readonly amounts: ReadonlyArray<number | null>;
  readonly verified: boolean;
  readonly sources: readonly FeeSource[];
  /** What is known and what is missing (e.g. which years no official text gave). */
  readonly note: string;
  readonly checked: FeeCheck | null;
}

interface TableSpec {
  readonly office: Office;
  readonly validFrom: string;
  readonly validUntil?: string;
  readonly currency: Currency;
  readonly firstYear: number;
  readonly major: readonly number[];
  readonly verified: boolean;
  readonly sources: readonly FeeSource[];
  readonly note: string;
  readonly checked?: { readonly on: string; readonly note: string };
}

function dayOf(text: string): Day {
  const day = parseIsoDate(text);
  if (day === null) throw new Error(`bad fee table date ${text}`);
  return day;
}

function table(spec: TableSpec): FeeTable {
  const amounts: Array<number | null> = new Array<number | null>(21).fill(null);
  spec.major.forEach((amount, i) => {
    // Amounts are written in major units with at most two decimals; go through the string form to stay exact.
    const [units = '0', cents = ''] = String(amount).split('.');
    amounts[spec.firstYear + i] = Number(units) * 100 + Number(cents.padEnd(2, '0'));
  });
  if (amounts.length !== 21) throw new Error(`fee table ${spec.office} ${spec.validFrom} has more than 20 years`);
  return {
    id: `${spec.office}-${spec.validFrom}`,
    office: spec.office,
    validFrom: dayOf(spec.validFrom),
    validUntil: spec.validUntil === undefined ? null : dayOf(spec.validUntil),
    currency: spec.currency,
    amounts,
    verified: spec.verified,
    sources: spec.sources,
    note: spec.note,
    checked: spec.checked === undefined ? null : { on: dayOf(spec.checked.on), note: spec.checked.note },
  };
}

const DOMAIN = (column: string): FeeSource => ({ title: `shared/domain/annuities.md §7, column ${column}`, url: 'shared/domain/annuities.md', official: false });
const CHECKED = '2026-11-28';

export const FEE_TABLES: readonly FeeTable[] = [
  table({
    office: 'EP', validFrom: '2023-04-01', validUntil: '2024-03-31', currency: 'EUR', firstYear: 3,
    major: [530, 660, 925, 1180, 1305, 1440, 1570, 1775, 1775, 1775, 1775, 1775, 1775, 1775, 1775, 1775, 1775, 1775],
    verified: false,
    sources: [
      { title: 'Williams Powell, "European Patent Office Fees increase from 1 April 2024" (column "current amount", years 3-10)', url: 'https://www.williamspowell.com/news/european-patent-office-fees-increase-from-1-april-2024', official: false },
      { title: 'Lewis Silkin, "EPO fee increases", 15 March 2024 (years 3-6 before 1 April 2024)', url: 'https://www.lewissilkin.com/en/insights/epo-fee-increases', official: false },
    ],
    note: 'The Rules relating to Fees, Art. 2(1) item 4, as in force from 1 April 2023 were not read; amounts from two firms that agree.',
  }),
  table({
    office: 'EP', validFrom: '2024-04-01', validUntil: '2026-03-31', currency: 'EUR', firstYear: 3,
    major: [690, 845, 1000, 1155, 1310, 1465, 1620, 1775, 1775, 1775, 1775, 1775, 1775, 1775, 1775, 1775, 1775, 1775],
    verified: false,
    sources: [
      { title: 'Williams Powell, "European Patent Office Fees increase from 1 April 2024" (years 3-10 from 1 April 2024)', url: 'https://www.williamspowell.com/news/european-patent-office-fees-increase-from-1-april-2024', official: false },
      { title: 'Lewis Silkin, "EPO fee increases", 15 March 2024 (years 3-6)', url: 'https://www.lewissilkin.com/en/insights/epo-fee-increases', official: false },
      { title: 'HGF (Mondaq, "EPO Annual Fee Increases", 21 February 2024: years 3-5 before and from 1 April 2024, 530/690, 660/845, 925/1,000)', url: 'https://www.mondaq.com/uk/patent/1426844/epo-annual-fee-increases', official: false },
      { title: 'Mewburn Ellis, "EPO announces fee increases from 1 April 2024" (the decision: CA/D 16/23 of 14 December 2023, OJ EPO January 2024)', url: 'https://www.mewburn.com/news-insights/epo-announces-fee-increases-from-1-april-2024', official: false },
      { title: 'OJ EPO 2026, A1: report on the 185th meeting of the Administrative Council (10 and 11 December 2025): "The Office\'s proposal on the 5% biennial inflation-based adjustment of EPO fees was unanimously approved", filing, opposition and appeal fees excepted (the end of this table)', url: 'https://www.epo.org/en/legal/official-journal/2026/01/a1', official: true },
    ],
    note: 'Decision CA/D 16/23 amending Art. 2(1) item 4 of the Rules relating to Fees was not read; years 3-10 are firms\' tables that agree (years 7-9, 1,310 / 1,465 / 1,620, from one firm only). The Council approved a 5 % adjustment of the EPO fees in December 2025 (OJ EPO 2026, A1, official): this table therefore has a successor whose amounts were not read. Its end, 31 March 2026, is inferred, not read: the EPO\'s fee decisions read on epo.org take effect on 1 April (1 April 2005, OJ EPO 2005, 10; 1 April 2019, OJ EPO 2019, A3) and so did CA/D 16/23 (1 April 2024, firms\' notes). Payments from 1 April 2026 are shown with these amounts, marked unverified; no 2026 amount is invented.',
    checked: { on: CHECKED, note: 'Searched on 28 Nov 2026 for Art. 2(1) item 4 RFees as amended by CA/D 16/23 and for the December 2025 decision (epo.org legal texts and OJ 2024-2026, firms\' notes, public code): only the Council\'s report (OJ EPO 2026, A1) was found, approving a 5 % biennial adjustment; the decision\'s number, date of effect and renewal amounts were not found.' },
  }),
  table({
    office: 'UP', validFrom: '2023-06-01', currency: 'EUR', firstYear: 2,
    major: [35, 105, 145, 315, 475, 630, 815, 990, 1175, 1460, 1775, 2105, 2455, 2830, 3240, 3640, 4055, 4455, 4855],
    verified: false,
    sources: [
      { title: 'EPO, "Cost of a Unitary Patent" (years 10-20 and the 20-year total, 35,555)', url: 'https://www.epo.org/en/applying/european/unitary/unitary-patent/cost', official: true },
      { title: 'Vinazzer, "Are the renewal fees for unitary patents affordable?" (years 2-20 from the Rules relating to Fees for Unitary Patent Protection, OJ EPO April 2022)', url: 'https://www.vinazzer.com/en-us/jahresgebuehren-fuer-einheitspatente/', official: false },
    ],
    note: 'Years 10-20 read on the EPO page; years 2-9 from a firm\'s transcription, whose sum with years 10-20 equals the EPO\'s 20-year total (35,555).',
    checked: { on: CHECKED, note: 'No change to the UP renewal fees found since 1 June 2023. Whether the 5 % adjustment of the EPO fees approved in December 2025 (OJ EPO 2026, A1) covers the Rules relating to Fees for Unitary Patent Protection is not established (searched on 28 Nov 2026).' },
  }),
  table({
    office: 'DE', validFrom: '2022-07-01', currency: 'EUR', firstYear: 3,
    major: [70, 70, 100, 150, 210, 280, 350, 430, 540, 680, 830, 980, 1130, 1310, 1490, 1670, 1840, 2030],
    verified: false,
    sources: [
      { title: 'DPMA, "Gebühren für Patentschutz" (years 3-6: 70, 70, 100, 150)', url: 'http://dpma.de/patent/patentschutz/europaeischeundinternationalepatente/pct-gebuehrenbeimdpma/index.html', official: true },
      { title: 'Franke IP, "DPMA: Gebührenerhöhung zum 1. Mai 2022 und 1. Juli 2022" (years 3-20 from 1 July 2022)', url: 'https://blog.franke-ip.com/de/dpma-gebuehrenerhoehung-zum-1-mai-2022-und-1-juli-2022/', official: false },
      { title: 'Grünecker, "Deutsches Patent- und Markenamt: Gebührenänderungen" (years 5-20)', url: 'https://grunecker.de/informationen/detail/deutsches-patent-und-markenamt-gebuehrenaenderungen/', official: false },
    ],
    note: 'The PatKostG fee schedule (Anlage zu § 2 Abs. 1) was not read; years 7-20 from two firms that agree.',
    checked: { on: CHECKED, note: 'No DPMA change after 1 July 2022 found.' },
  }),
  table({
    office: 'FR', validFrom: '2024-04-01', currency: 'EUR', firstYear: 2,
    major: [38, 38, 38, 38, 76, 96, 136, 180, 220, 260, 300, 350, 400, 460, 520, 580, 650, 730, 800],
    verified: false,
    sources: [
      { title: 'Accior, "Redevances des procédures INPI - Année 2024, tarifs au 1er avril 2024" (years 2-9)', url: 'https://accior.fr/actualite/redevances-des-procedures-inpi-annee-2024', official: false },
      { title: 'Efisciences, "Barème 2020 des redevances de procédures devant l\'INPI" (years 2-18, the same amounts)', url: 'https://efisciences.fr/actualites/chiffres/bareme-2020-des-redevances-de-procedures-devant-linstitut-national-de-la-propriete-industrielle', official: false },
      DOMAIN('FR (years 19-20 from a 2023 law-firm page)'),
    ],
    note: 'The arrêté fixing the INPI fees was not read; years 19-20 rest on one firm\'s page.',
    checked: { on: CHECKED, note: 'No INPI change after 1 April 2024 found.' },
  }),
  table({
    office: 'NL', validFrom: '2022-01-01', currency: 'EUR', firstYear: 4,
    major: [40, 100, 160, 220, 280, 340, 400, 500, 600, 700, 800, 900, 1000, 1100, 1200, 1300, 1400],
    verified: false,
    sources: [DOMAIN('NL (RVO 2022, tagged official there but without an address)')],
    note: 'The Uitvoeringsbesluit Rijksoctrooiwet 1995 fee annex and RVO\'s fee page were not reachable.',
    checked: { on: CHECKED, note: 'Searched for RVO\'s current fees: nothing reachable; neither confirmed nor contradicted.' },
  }),
  table({
    office: 'BE', validFrom: '2022-01-01', currency: 'EUR', firstYear: 3,
    major: [40, 55, 75, 95, 110, 135, 165, 185, 210, 240, 275, 320, 360, 400, 450, 500, 555, 600],
    verified: false,
    sources: [DOMAIN('BE (law-firm pages, 2022)')],
    note: 'No official text read; the 11th year is 210 or 215 depending on the firm.',
    checked: { on: CHECKED, note: 'Searched for the FPS Economy\'s current fees: nothing reachable; neither confirmed nor contradicted.' },
  }),
  table({
    office: 'IT', validFrom: '2007-04-02', currency: 'EUR', firstYear: 5,
    major: [60, 90, 120, 170, 200, 230, 310, 410, 530, 600, 650, 650, 650, 650, 650, 650],
    verified: true,
    sources: [
      { title: 'Camera di Commercio di Avellino, "Tasse di mantenimento in vita (annualità)" (years 5-20 and the EUR 100 late fee, as set by the Ministerial Decree of 2 April 2007)', url: 'https://av.camcom.it/print/4863', official: true },
    ],
    note: 'Read as restated by a Chamber of Commerce (a public office that receives filings); the decree itself was not read.',
    checked: { on: CHECKED, note: 'No change since the Ministerial Decree of 2 April 2007 found.' },
  }),
  table({
    office: 'ES', validFrom: '2024-01-01', currency: 'EUR', firstYear: 3,
    major: [18.85, 23.52, 45.0, 66.41, 109.63, 136.47, 171.26, 220.4, 276.27, 324.37, 372.39, 420.86, 449.45, 468.07, 499.85, 499.85, 499.85, 499.85],
    verified: false,
    sources: [DOMAIN('ES (the EPO\'s national-law table, 2024)')],
    note: 'The OEPM\'s fee list and the budget law setting the 2024 amounts were not read.',
    checked: { on: CHECKED, note: 'The OEPM publishes its fees each year ("Tasas y precios públicos"; its FAQ: "Las cantidades ... se publican anualmente"); they are updated by a law of each year (the OJ EPO\'s "ES Spain - New fee rates" notices cite law 41/1994 of 30 Dec 1994, "law 12/1995" of 28 Dec 1995 and Ley 51/2007 of 26 Dec 2007, BOE 310 of 27 Dec 2007), so an extended budget does not by itself settle whether the amounts changed. Searched on 28 Nov 2026 (oepm.es, boe.es, the OJ EPO, firms\' notes): no OEPM list for 2024, 2025 or 2026, no budget law after Ley 31/2022 (budget for 2023, BOE 24 Dec 2022) and no official statement that its fees stay extended (prorrogados) were found; the 2024 amounts here equal those a firm (hasegawa-ip.com) copied from the EPO\'s "National law relating to the EPC" (2024), table VI.A. Lead only: a public code repository (parkerhancock/patent-client-agents, scrapers/oepm.py) says the OEPM\'s consolidated list (TASAS_y_PRECIOS_PUBLICOS.pdf) is stamped "Actualizado a fecha: 1 de abril de 2026", so a 2026 list exists; its annuity amounts were not read. Payments from 2025 are shown with the 2024 amounts, unverified.' },
  }),
  table({
    office: 'GB', validFrom: '2018-04-06', validUntil: '2026-03-31', currency: 'GBP', firstYear: 5,
    major: [70, 90, 110, 130, 150, 170, 190, 220, 260, 300, 360, 420, 470, 520, 570, 610],
    verified: true,
    sources: [
      { title: 'GOV.UK (Intellectual Property Office), "Renew a patent" (years 5-20, GBP 24 per late month)', url: 'https://www.gov.uk/renew-patent', official: true },
      { title: 'Wilson Gunn, "Changes to UK Patent Fees", 16 January 2018 (old and new renewal fees from 6 April 2018)', url: 'https://www.wilsongunn.com/who-we-are/news/2018/01/16/changes-to-uk-patent-fees/', official: false },
      { title: 'The Patents and Patents (Fees) (Amendment) Rules 2017, SI 2017/1100, r. 1(1): "come into force on 6th April 2018" (the start of this table; the renewal amounts of its Schedule not read there)', url: 'https://www.legislation.gov.uk/uksi/2017/1100/made', official: true },
    ],
    note: 'In force for payments from 6 April 2018. An increase of about 25 % from 1 April 2026 is reported (webtms.com, "Fees increase at the IPO"), so the table is taken to end on 31 March 2026.',
    checked: { on: CHECKED, note: 'Searched again on 28 Nov 2026 (legislation.gov.uk for a 2025 or 2026 amending Patents (Fees) Rules, gov.uk "Patent forms and fees" and "Renew a patent", firms\' notes, public code): no 2026 amending instrument and no IPO renewal table from 1 April 2026 were found; the stored gov.uk "Renew a patent" page still lists the 2018 amounts (its date unknown) and gov.uk "Patent forms and fees" was last updated on 22 January 2025 in the copy read. Leads only: webtms.com reports an average 25 % increase of the IPO fees from 1 April 2026, without renewal amounts; a public code repository (parkerhancock/patent-client-agents, scrapers/ukipo.py) says the gov.uk Patents Form 12 page now gives renewal fees as a range "£90 - £810" from 1 April 2026, with no per-year amounts (that page itself not reached). Payments from 1 April 2026 are shown with the 2018 amounts, marked unverified; no 2026 amount is invented.' },
  }),
  table({
    office: 'SE', validFrom: '2018-01-01', validUntil: '2023-03-17', currency: 'SEK', firstYear: 3,
    major: [1400, 1500, 1700, 1900, 2100, 2400, 2700, 3000, 3400, 3800, 4200, 4600, 5000, 5400, 5800, 6200, 6600, 7000],
    verified: true,
    sources: [{ title: 'SFS 2017:1058, förordning om ändring i patentkungörelsen (1967:838), bilaga avdelning B (Norstedts\' copy of the SFS)', url: 'https://lagar.nj.se/immaterialratt/SFS2017-1058', official: true }],
    note: 'Amounts and the 20 % increase read in SFS 2017:1058 (issued 9 November 2017); its entry into force (1 January 2018) was not read.',
  }),
  table({
    office: 'SE', validFrom: '2023-03-18', currency: 'SEK', firstYear: 3,
    major: [1500, 1600, 1800, 2000, 2200, 2600, 2900, 3200, 3600, 4000, 4500, 4900, 5300, 5700, 6100, 6500, 6900, 7300],
    verified: true,
    sources: [
      { title: 'PRV, "PRV inför ett flertal avgiftsändringar från och med den 18 mars 2023" ("De nya patentavgifterna gäller vid betalningsdatum som inträffar från och med den 18:e mars 2023")', url: 'https://www.prv.se/sv/om-oss/nyheter/avgiftsforandringar-18-mars-2023/', official: true },
      { title: 'PRV, "Betala årsavgiften" (the 20 % increase within six months)', url: 'https://www.prv.se/sv/patent/stora-patentguiden/forvalta-ansokan-eller-patent/uppratthall-patenskyddet/betala-arsavgiften/', official: true },
    ],
    note: 'Read in PRV\'s announcement; the SFS amending the patentkungörelse\'s annex was not read.',
    checked: { on: CHECKED, note: 'Searched on 28 Nov 2026 whether patentlagen (2024:945) and patentförordningen (2024:1020) changed the annual fees: the ordinance\'s text was reached only in part (lagen.se, a copy of the SFS: issued 14 Nov 2024, amended up to SFS 2025:958; its fee provisions not in the part read); prop. 2023/24:150 (rkrattsbaser.gov.se) proposed the new act for 1 Jan 2025 and says nothing of the annual fees in the part read; PRV\'s pages ("Prislista för patent", "Betala årsavgiften": 20 % within six months) announce no new annual fees, and no PRV notice of new annual fees after 18 March 2023 was found. No change is known; the amounts stay those of 18 March 2023.' },
  }),
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
 * The table for a payment on `on`: the newest one in force from that day or earlier; before the oldest
 * known table, the oldest one (then not in force: `feeOf` marks the fee unverified).
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

/** The official fee of annuity `k` paid on `payDay`, and whether an official text gives that amount for that day. */
export interface Fee {
  readonly feeMinor: number | null;
  readonly currency: Currency;
  readonly table: FeeTable;
  /** The table is verified and in force on the payment day (not before its start, not past a known end). */
  readonly verified: boolean;
}

export function feeOf(tables: readonly FeeTable[], k: number, payDay: Day): Fee {
  const table = pickFeeTable(tables, payDay);
  return { feeMinor: table.amounts[k] ?? null, currency: table.currency, table, verified: verifiedOn(table, payDay) };
}

/** The table is verified and in force for a payment on `payDay` (not before its start, not past a known end). */
export function verifiedOn(table: FeeTable, payDay: Day): boolean {
  return table.verified && payDay >= table.validFrom && (table.validUntil === null || payDay <= table.validUntil);
}

/** 18 months: an office's newest table older than this needs a check at least this recent (issue 30). */
export const FEE_CHECK_MONTHS = 18;

/**
 * Offices whose newest table started more than `months` before `today` without a check in those months:
 * their fees may have changed unseen. Pure (the clock is the caller's), so a test can move it.
 */
export function staleFeeOffices(tables: readonly FeeTable[], today: Day, months = FEE_CHECK_MONTHS): Office[] {
  const limit = addMonths(today, -months);
  const newest = new Map<Office, FeeTable>();
  for (const t of tables) {
    const current = newest.get(t.office);
    if (current === undefined || t.validFrom > current.validFrom) newest.set(t.office, t);
  }
  const stale: Office[] = [];
  for (const [office, t] of newest) {
    if (t.validFrom >= limit) continue;
    if (t.checked !== null && t.checked.on >= limit) continue;
    stale.push(office);
  }
  return stale.sort();
}

/** Minor units as a decimal string ("18.85"), for display and JSON without floats. */
export function formatMinor(minor: number): string {
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  const cents = abs % 100;
  return `${sign}${(abs - cents) / 100}.${cents < 10 ? '0' : ''}${cents}`;
}
