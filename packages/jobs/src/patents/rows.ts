import {
  cellDate,
  checkRecord,
  computeSchedule,
  dayFromDate,
  formatIsoDate,
  isOffice,
  parseIsoDate,
  type Annuity,
  type Day,
  type Office,
  type Origin,
} from '@portal/annuities/core';
import { PATENT_COST_MAX, PATENT_TEXT_MAX, patentNumberProblem, startsLikeFormula, type PatentPortfolioField, type PatentRowRejection } from '@portal/contracts';
import type { SCHEDULE_MISMATCH_CODES } from '@portal/db';

/**
 * One portfolio row as the import and the sync give it, checked and completed: the missing due date,
 * annuity number and cost computed by `@portal/annuities` from office, origin and dates, and a cost
 * in another currency converted to euros with the rate valid on the due date.
 */
export interface PatentUpsertRow {
  idagenda: string;
  idbrevet: string | null;
  clientCode: string;
  cabinetName: string;
  referenceClient: string | null;
  referenceCabinet: string | null;
  numeroDepot: string | null;
  numeroPublication: string | null;
  pays: string;
  origine: string | null;
  dateDepot: string | null;
  dateExpiration: string | null;
  dateEcheance: string | null;
  quantieme: number | null;
  /** Euros, two decimals, as text (numeric on the database side: no float drift, so a re-import compares equal). */
  cost: string | null;
  titreAnglais: string | null;
  titreFrancais: string | null;
  donneurOrdre: string | null;
  donneurOrdreAn: string | null;
  dateAcquit: string | null;
  datePaiementOffice: string | null;
  dateReponseCourrier: string | null;
  datePaiementClient: string | null;
  /** Whether the source carries the instruction (a column or key present): otherwise the portal's stays. */
  setsInstruction: boolean;
  instructionId: number | null;
  /** The row checked against the computed schedule: stored with it, flagged when it disagrees. */
  schedule: ScheduleColumns;
}

export type RowOutcome = { ok: true; row: PatentUpsertRow } | { ok: false; code: PatentRowRejection; field?: string };

/** What a record claims, as stored (`patent_records` columns, days YYYY-MM-DD). */
export interface StoredClaim {
  pays: string;
  origine: string | null;
  dateDepot: string | null;
  quantieme: number | null;
  dateEcheance: string | null;
}

/** The columns a write path sets with the record: the disagreement (all null when it agrees or cannot be checked), and "checked". */
export interface ScheduleColumns {
  scheduleCode: (typeof SCHEDULE_MISMATCH_CODES)[number] | null;
  scheduleQuantieme: number | null;
  scheduleEcheance: string | null;
  scheduleChecked: true;
}

const AGREES: ScheduleColumns = Object.freeze({ scheduleCode: null, scheduleQuantieme: null, scheduleEcheance: null, scheduleChecked: true });

/**
 * The record checked against the schedule `@portal/annuities` computes from its office, origin and
 * filing date (`checkRecord`): no date arithmetic here, only the engine's answer in column form. An
 * office the engine does not know, or no filing date, is not checked (no flag).
 */
export function scheduleColumnsOf(claim: StoredClaim): ScheduleColumns {
  const office = claim.pays.trim().toUpperCase();
  if (!isOffice(office)) return AGREES;
  const filing = claim.dateDepot === null ? null : parseIsoDate(claim.dateDepot);
  const due = claim.dateEcheance === null ? null : parseIsoDate(claim.dateEcheance);
  const check = checkRecord({ office, origin: originOf(office, claim.origine), filing, number: claim.quantieme, due });
  if (check.status !== 'disagrees') return AGREES;
  const { code, number, due: engineDue } = check.disagreement;
  return { scheduleCode: code, scheduleQuantieme: number, scheduleEcheance: formatIsoDate(engineDue), scheduleChecked: true };
}

/** Euros per unit of a currency from a day on, oldest first per currency (the `currency_rates` table). */
export type RateTable = ReadonlyMap<string, ReadonlyArray<{ validFrom: string; eurPerUnit: number }>>;

/** The rate valid on `day` (the latest from that day or before), or null when none is known. */
export function rateOn(rates: RateTable, currency: string, day: string): number | null {
  if (currency === 'EUR') return 1;
  const list = rates.get(currency);
  if (!list) return null;
  let found: number | null = null;
  for (const rate of list) if (rate.validFrom <= day) found = rate.eurPerUnit;
  return found;
}

/** Raw values by wire name (a spreadsheet cell, a CSV field or a JSON value); `present` lists the columns the source has. */
export interface RawPatentRow {
  values: Partial<Record<PatentPortfolioField, unknown>>;
  present: ReadonlySet<PatentPortfolioField>;
}

const MAX_TEXT: number = PATENT_TEXT_MAX.title;

class Refusal extends Error {
  constructor(
    readonly code: PatentRowRejection,
    readonly field?: string,
  ) {
    super(code);
  }
}

function textOf(raw: RawPatentRow, field: PatentPortfolioField, max = MAX_TEXT): string | null {
  const value = raw.values[field];
  if (value === null || value === undefined) return null;
  let out: string;
  if (value instanceof Date) out = Number.isNaN(value.getTime()) ? '' : value.toISOString().slice(0, 10);
  else if (typeof value === 'number') out = Number.isFinite(value) ? String(value) : '';
  else if (typeof value === 'string') out = value;
  else if (typeof value === 'boolean') out = String(value);
  else out = '';
  // Control characters never reach the database (the wire's text() rule, applied to file cells too).
  out = out.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '').trim();
  if (out === '') return null;
  if (out.length > max) throw new Refusal('value_too_long', field);
  return out;
}

function dayOf(raw: RawPatentRow, field: PatentPortfolioField): string | null {
  const value = raw.values[field];
  if (value === null || value === undefined || value === '') return null;
  const day = typeof value === 'string' || typeof value === 'number' || value instanceof Date ? cellDate(value, false) : null;
  if (day === null) {
    if (typeof value === 'string' && value.trim() === '') return null;
    throw new Refusal('invalid_date', field);
  }
  return formatIsoDate(day);
}

/**
 * An identifier (agenda id, client code, reference, number): a text that must not start like a
 * spreadsheet formula (= + - @); such a cell is refused, never silently changed (issue 25 §3).
 */
function identifierOf(raw: RawPatentRow, field: PatentPortfolioField, max: number): string | null {
  const value = textOf(raw, field, max);
  if (value !== null && startsLikeFormula(value)) throw new Refusal('formula_not_allowed', field);
  return value;
}

/** An application or publication number in the format of the row's office (the engine's parser). */
function patentNumberOf(raw: RawPatentRow, field: 'noDepot' | 'NoPublication', pays: string): string | null {
  const value = identifierOf(raw, field, PATENT_TEXT_MAX.number);
  const problem = value === null ? null : patentNumberProblem(value, field === 'noDepot' ? 'application' : 'publication', pays);
  if (problem !== null) throw new Refusal(problem, field);
  return value;
}

/** "1 234,50", "1234.5", 1234.5: a number, or a refusal (`refusal`: its code). */
function numberOf(raw: RawPatentRow, field: PatentPortfolioField, refusal: PatentRowRejection = 'invalid_number'): number | null {
  const value = raw.values[field];
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Refusal(refusal, field);
    return value;
  }
  if (typeof value !== 'string') throw new Refusal(refusal, field);
  let text = value.replace(/[\s\u00a0\u202f']/g, '');
  if (text === '') return null;
  if (/^-?\d+,\d+$/.test(text)) text = text.replace(',', '.');
  else if (/^-?\d{1,3}(,\d{3})+(\.\d+)?$/.test(text)) text = text.replace(/,/g, '');
  if (!/^-?\d+(\.\d+)?$/.test(text)) throw new Refusal(refusal, field);
  return Number(text);
}

/** The engine's origin for the record's `Origine` (its codes, or the usual words), else the office's default. */
export function originOf(office: Office, origine: string | null): Origin {
  const word = (origine ?? '').toLowerCase().normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/[^a-z]/g, '');
  if (office === 'EP') return 'ep_application';
  if (office === 'UP') return 'unitary';
  if (/^(unitary|unitaire|up|unitarypatent|brevetunitaire)$/.test(word)) return 'unitary';
  if (/^(epvalidated|validated|validation|ep|european|europeen|euro|epvalidation)$/.test(word)) return 'ep_validated';
  return 'national';
}

function pickAnnuity(annuities: readonly Annuity[], quantieme: number | null, due: string | null, next: Annuity | null): Annuity | null {
  if (quantieme !== null) return annuities.find((a) => a.number === quantieme) ?? null;
  if (due !== null) {
    const day = parseIsoDate(due);
    if (day === null) return null;
    return annuities.find((a) => a.due === day) ?? annuities.find((a) => a.due >= day) ?? null;
  }
  return next;
}

/**
 * Checks one raw row and completes what the engine can compute. `today` is the job's day (the next
 * annuity when neither due date nor number is given). A value the engine cannot find (no filing
 * date, an office it does not know, a fee in a currency without a rate) stays empty: the patent then
 * shows in "missing information" instead of being refused.
 */
export function prepareRow(raw: RawPatentRow, rates: RateTable, today: Day): RowOutcome {
  try {
    const idagenda = identifierOf(raw, 'idagenda', PATENT_TEXT_MAX.idagenda);
    if (idagenda === null) return { ok: false, code: 'missing_idagenda' };
    const clientCode = identifierOf(raw, 'code_client', PATENT_TEXT_MAX.clientCode);
    if (clientCode === null) return { ok: false, code: 'missing_client_code' };
    const cabinetName = textOf(raw, 'cabinet', PATENT_TEXT_MAX.cabinet);
    if (cabinetName === null) return { ok: false, code: 'missing_cabinet' };
    const paysText = textOf(raw, 'Pays', PATENT_TEXT_MAX.country);
    if (paysText === null) return { ok: false, code: 'missing_country' };
    const pays = paysText.toUpperCase();
    const origine = textOf(raw, 'Origine', PATENT_TEXT_MAX.origin);
    const idbrevet = identifierOf(raw, 'idbrevet', PATENT_TEXT_MAX.idbrevet);
    const referenceClient = identifierOf(raw, 'ReferenceClient', PATENT_TEXT_MAX.reference);
    const referenceCabinet = identifierOf(raw, 'nosref', PATENT_TEXT_MAX.reference);
    const numeroDepot = patentNumberOf(raw, 'noDepot', pays);
    const numeroPublication = patentNumberOf(raw, 'NoPublication', pays);
    const dateDepot = dayOf(raw, 'Depot');
    let dateEcheance = dayOf(raw, 'DateEcheance');
    const quantiemeRaw = numberOf(raw, 'Quantieme');
    if (quantiemeRaw !== null && (!Number.isInteger(quantiemeRaw) || quantiemeRaw < 0 || quantiemeRaw > 100)) throw new Refusal('invalid_number', 'Quantieme');
    let quantieme = quantiemeRaw;
    const costRaw = numberOf(raw, 'cost', 'invalid_cost');
    if (costRaw !== null && (costRaw < 0 || costRaw > PATENT_COST_MAX)) throw new Refusal('invalid_cost', 'cost');
    const currency = (textOf(raw, 'currency', 10) ?? 'EUR').toUpperCase();
    if (!/^[A-Z]{3}$/.test(currency)) return { ok: false, code: 'unknown_currency', field: 'currency' };
    let instructionId: number | null = null;
    if (raw.present.has('id_instruction')) {
      const value = numberOf(raw, 'id_instruction');
      if (value !== null && (!Number.isInteger(value) || value < 1 || value > 1000)) throw new Refusal('invalid_number', 'id_instruction');
      instructionId = value;
    }

    let costEur: number | null = null;
    if (costRaw !== null) {
      const rate = rateOn(rates, currency, dateEcheance ?? formatIsoDate(today));
      if (rate === null) return { ok: false, code: 'unknown_currency', field: 'currency' };
      costEur = costRaw * rate;
    }

    // What the engine can give: due date, annuity number and official fee of the annuity meant.
    if ((dateEcheance === null || quantieme === null || costEur === null) && dateDepot !== null && isOffice(pays)) {
      const filing = parseIsoDate(dateDepot);
      const schedule = filing === null ? null : computeSchedule({ office: pays, origin: originOf(pays, origine), filing }, today);
      if (schedule?.ok) {
        const annuity = pickAnnuity(schedule.value.annuities, quantieme, dateEcheance, schedule.value.next);
        if (annuity) {
          dateEcheance ??= formatIsoDate(annuity.due);
          quantieme ??= annuity.number;
          if (costEur === null && annuity.feeMinor !== null) {
            const rate = rateOn(rates, annuity.currency, dateEcheance);
            if (rate !== null) costEur = (annuity.feeMinor / 100) * rate;
          }
        }
      }
    }

    return {
      ok: true,
      row: {
        idagenda,
        idbrevet,
        clientCode,
        cabinetName,
        referenceClient,
        referenceCabinet,
        numeroDepot,
        numeroPublication,
        pays,
        origine,
        dateDepot,
        dateExpiration: dayOf(raw, 'Expiration'),
        dateEcheance,
        quantieme,
        cost: costEur === null ? null : costEur.toFixed(2),
        titreAnglais: textOf(raw, 'TitreAnglais'),
        titreFrancais: textOf(raw, 'TitreFrancais'),
        donneurOrdre: textOf(raw, 'DonneurOrdre', PATENT_TEXT_MAX.party),
        donneurOrdreAn: textOf(raw, 'DonneurOrdreAn', PATENT_TEXT_MAX.party),
        dateAcquit: dayOf(raw, 'DateAcquit'),
        datePaiementOffice: dayOf(raw, 'DatePaiementOffice'),
        dateReponseCourrier: dayOf(raw, 'DateReponseACourrier'),
        datePaiementClient: dayOf(raw, 'DatePaiementClient'),
        setsInstruction: raw.present.has('id_instruction'),
        instructionId,
        schedule: scheduleColumnsOf({ pays, origine, dateDepot, quantieme, dateEcheance }),
      },
    };
  } catch (error) {
    if (error instanceof Refusal) return error.field === undefined ? { ok: false, code: error.code } : { ok: false, code: error.code, field: error.field };
    throw error;
  }
}

/** The calendar day (UTC) of an instant, as the engine counts days. */
export function engineDay(instant: Date): Day {
  return dayFromDate(instant)!;
}

const normaliseHeader = (header: string) =>
  header
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]/g, '');

/** Header spellings accepted for each field (normalised: lower case, no accents, letters and digits only). */
const HEADER_ALIASES: Record<PatentPortfolioField, readonly string[]> = {
  idagenda: ['idagenda'],
  idbrevet: ['idbrevet'],
  code_client: ['codeclient', 'clientcode'],
  cabinet: ['cabinet', 'cabinetname', 'firm', 'firmname'],
  ReferenceClient: ['referenceclient', 'clientreference'],
  nosref: ['nosref', 'referencecabinet', 'firmreference'],
  noDepot: ['nodepot', 'numerodepot', 'applicationnumber'],
  NoPublication: ['nopublication', 'numeropublication', 'publicationnumber'],
  Pays: ['pays', 'country', 'office'],
  Origine: ['origine', 'origin'],
  Depot: ['depot', 'datedepot', 'filingdate'],
  Expiration: ['expiration', 'dateexpiration', 'expirydate'],
  DateEcheance: ['dateecheance', 'duedate', 'echeance'],
  Quantieme: ['quantieme', 'annuity', 'annuitynumber'],
  cost: ['cost', 'cout', 'fee'],
  currency: ['currency', 'devise'],
  TitreAnglais: ['titreanglais', 'englishtitle'],
  TitreFrancais: ['titrefrancais', 'frenchtitle'],
  DonneurOrdre: ['donneurordre'],
  DonneurOrdreAn: ['donneurordrean'],
  DateAcquit: ['dateacquit'],
  DatePaiementOffice: ['datepaiementoffice'],
  DateReponseACourrier: ['datereponseacourrier', 'datereponsecourrier'],
  DatePaiementClient: ['datepaiementclient'],
  id_instruction: ['idinstruction', 'instruction'],
};
const FIELD_OF_HEADER = new Map<string, PatentPortfolioField>(
  (Object.entries(HEADER_ALIASES) as Array<[PatentPortfolioField, readonly string[]]>).flatMap(([field, aliases]) => aliases.map((alias) => [alias, field] as const)),
);

/** Column index per field of a header row (first spelling wins), or null without an `idagenda` column. */
export function mapHeaders(headers: readonly string[]): Map<PatentPortfolioField, number> | null {
  const map = new Map<PatentPortfolioField, number>();
  headers.forEach((header, index) => {
    const field = FIELD_OF_HEADER.get(normaliseHeader(header));
    if (field !== undefined && !map.has(field)) map.set(field, index);
  });
  return map.has('idagenda') ? map : null;
}

export function rawFromCells(columns: ReadonlyMap<PatentPortfolioField, number>, cells: readonly unknown[]): RawPatentRow {
  const values: Partial<Record<PatentPortfolioField, unknown>> = {};
  for (const [field, index] of columns) values[field] = cells[index] ?? null;
  return { values, present: new Set(columns.keys()) };
}

/** The rows of a raw `execute` (node-postgres and PGlite both answer `{ rows }`). */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}
