import type { Writable } from 'node:stream';
import { parseIsoDate, ymdFromDay, type Day } from '../calendar.ts';
import type { RowEvaluation } from '../evaluate.ts';
import { formatMinor } from '../fees.ts';
import { DUE_SOON_DAYS, type ScheduleFlag } from '../schedule.ts';
import type { Colour } from '../types.ts';
import type { CellValue } from './columns.ts';
import type { SheetInfo, SheetRow } from './rows.ts';
import { neutralise, XlsxStreamWriter, type OutCell } from '@portal/xlsx';

/** The export's fills, in order: a data cell's style is `XlsxStreamWriter.styleOf(index, date)`. */
export const EXPORT_COLOURS: readonly Colour[] = ['ok', 'nok', 'orange', 'no_date'];
const COLOURS = EXPORT_COLOURS;
const FILLS: Readonly<Record<Colour, string>> = { ok: 'FFC6EFCE', nok: 'FFFFC7CE', orange: 'FFFFD8A8', no_date: 'FFEDEDED' };

/** Computed columns appended after the original ones: French / English headers, or the spec's field names. */
export const COMPUTED_COLUMNS = [
  'Office appliqué / Applied office',
  'Origine / Origin',
  'N° publication normalisé / Normalised publication no.',
  'N° dépôt normalisé / Normalised application no.',
  'url',
  'mois_date_depot',
  'date_precedente_annuite',
  'quant_precedent',
  'date_prochaine_annuite',
  'Quantième suivant / next_number',
  'Limite d’instruction / Instruction limit',
  'Fin sans surtaxe / No-surcharge end',
  'limite_date_prochaine_annuite',
  'Perte du droit après / Lost after',
  'Taxe officielle / Official fee',
  'Devise / Currency',
  'Délai de grâce avec surtaxe / In grace with surcharge',
  'dechu',
  'Expiré / Expired',
  'Couleur / Colour',
  'Motifs / Reasons',
] as const;

/** Offsets, inside COMPUTED_COLUMNS, of the date columns. */
const COMPUTED_DATES = new Set([6, 8, 10, 11, 12, 13]);

export { neutralise };

function original(value: CellValue): OutCell {
  if (value === null) return null;
  if (typeof value === 'string') return neutralise(value);
  if (value instanceof Date) {
    const t = value.getTime();
    return Number.isNaN(t) ? null : { day: Math.floor(t / 86_400_000) };
  }
  return value;
}

const day = (d: Day | null | undefined): OutCell => (d === null || d === undefined ? null : { day: d });
const isoDay = (iso: string | null): OutCell => day(iso === null ? null : parseIsoDate(iso));

/**
 * What the portal stores for a row once a user edited it (dates as YYYY-MM-DD, the fee as a decimal
 * string): a rewritten export shows these, the same values as the screens, instead of recomputing.
 */
export interface StoredAnnuityFields {
  readonly quantPrecedent: number | null;
  readonly datePrecedenteAnnuite: string | null;
  readonly nextNumber: number | null;
  readonly dateProchaineAnnuite: string | null;
  readonly instructionLimit: string | null;
  readonly limiteDateProchaineAnnuite: string | null;
  readonly fee: string | null;
  readonly currency: string | null;
  readonly inGraceWithSurcharge: boolean;
  readonly dechu: boolean;
  readonly expired: boolean;
  readonly colour: Colour;
}

function sheetName(wanted: string, used: Set<string>): string {
  const base = wanted.replace(/[[\]:*?/\\]/g, '_').slice(0, 28) || 'Sheet';
  let name = base;
  for (let i = 2; used.has(name.toLowerCase()); i++) name = `${base}_${i}`;
  used.add(name.toLowerCase());
  return name;
}

/** What each review flag of the Reasons column means, in French and English: every flag, checked by the compiler. */
const FLAG_TEXTS = {
  grant_on_anniversary: ['Délivrance (ou sa mention) datée d’un anniversaire du dépôt : ce jour est compté dans la nouvelle année de brevet, certaines sources le comptent dans l’ancienne ; à vérifier', 'Grant (or its mention) dated on a filing anniversary: that day is counted in the new patent year, some sources count it in the old one; to be checked'],
  grant_date_missing: ['Date de délivrance absente : calcul comme si la délivrance était intervenue à temps', 'No grant date: computed as if granted in time'],
  gb_late_grant: ['GB, délivrance tardive : les annuités échues sont dues à la fin du 3e mois après la délivrance', 'GB late grant: the annuities already due fall due at the end of the 3rd month after grant'],
  it_pending_application: ['IT, demande encore en cours à la fin de la 4e année : annuités payables dans les 4 mois de la délivrance, puis 6 mois avec surtaxe', 'IT application still pending at the end of year 4: annuities payable within 4 months of grant, then 6 months with the late fee'],
  se_month_end_filing: ['SE, dépôt en fin de mois : le mois de dépôt est retenu ; à vérifier', 'SE filing at a month end: the filing month is used; to be checked'],
  replaced_by_unitary: ['Remplacé par le brevet unitaire pour cet État', 'Replaced by the unitary patent for this state'],
  extension_unverified: [
    'Le délai finit un jour où l’office est peut-être fermé, selon une règle dont le texte officiel n’a pas été vérifié : payer au plus tard à la « limite », le droit n’est perdu qu’après la date « Perte du droit après »',
    'The period ends on a day the office may be closed, under a rule whose official text was not verified: pay by the “limit”; the right is lost only after the “Lost after” date',
  ],
  closing_days_provisional: [
    'EP/UP : les jours de fermeture de l’OEB de cette année ne sont pas encore publiés au Journal officiel ; dates provisoires',
    'EP/UP: the EPO’s closing days for that year are not yet published in the Official Journal; provisional dates',
  ],
  payment_unknown: [
    `Échéance proche ou passée, paiement inconnu (pas de colonne « dernière annuité payée ») : rouge jusqu’à preuve du paiement`,
    `Due soon or past due, payment not known (no “last annuity paid” column): red until the payment is known`,
  ],
} satisfies Record<ScheduleFlag, readonly [string, string]>;

/**
 * The Reasons codes a download adds to a row whose next annuity the reader's payment ledger holds paid or lapsed
 * (ledger-export.ts, decision 234): the row takes the ledger's colour, not the dates'.
 */
export const LEDGER_REASONS = { paid: 'ledger_paid', lapsed: 'ledger_lapsed' } as const;

const LEDGER_TEXTS: ReadonlyArray<readonly [string, string, string]> = [
  [
    LEDGER_REASONS.paid,
    'Le registre des paiements du portail tient cette annuité pour payée (ou confirmée) : à jour, quelles que soient les dates',
    'The portal’s payment ledger holds this annuity paid (or confirmed): up to date, whatever the dates',
  ],
  [
    LEDGER_REASONS.lapsed,
    'Le registre des paiements du portail tient ce droit pour déchu : aucune annuité à payer',
    'The portal’s payment ledger holds this right lapsed: no annuity to pay',
  ],
];

/** The legend's lines for the flags: code, French, English. */
export const FLAG_LEGEND: ReadonlyArray<readonly [string, string, string]> = Object.entries(FLAG_TEXTS).map(([code, [fr, en]]) => [code, fr, en] as const);

/**
 * Streams the annotated export: per input sheet, the original columns plus the computed ones,
 * rows filled by colour, dates as DD-MM-YYYY, header frozen; then a legend sheet.
 */
export class ExportWriter {
  private readonly xlsx: XlsxStreamWriter;
  private readonly names = new Set<string>(['légende - legend']);
  /** Style id of every column, for each colour. */
  private styles: Record<Colour, number[]> = { ok: [], nok: [], orange: [], no_date: [] };
  private width = 0;
  private filingIndex = -1;
  private grantIndex = -1;

  constructor(out: Writable) {
    this.xlsx = new XlsxStreamWriter(out, COLOURS.map((c) => FILLS[c]));
  }

  async startSheet(info: SheetInfo): Promise<void> {
    this.width = info.headers.length;
    this.filingIndex = info.columns.get('filingDate') ?? -1;
    this.grantIndex = info.columns.get('grantDate') ?? -1;
    const total = this.width + COMPUTED_COLUMNS.length;
    const isDate = (i: number) => i === this.filingIndex || i === this.grantIndex || (i >= this.width && COMPUTED_DATES.has(i - this.width));
    COLOURS.forEach((colour, fill) => {
      this.styles[colour] = Array.from({ length: total }, (_v, i) => XlsxStreamWriter.styleOf(fill, isDate(i)));
    });
    const widths = Array.from({ length: total }, (_v, i) => (i >= this.width ? 16 : 14));
    await this.xlsx.startSheet(sheetName(info.name, this.names), widths);
    await this.xlsx.row([...info.headers.map(neutralise), ...COMPUTED_COLUMNS], XlsxStreamWriter.HEADER_STYLE);
  }

  /**
   * One row: the original cells, then the computed columns: the engine's evaluation, or (`stored`) the
   * values the portal stores for an edited row. The no-surcharge end is not stored: it is the engine's
   * for the stored next annuity when the engine has that annuity on that day, else empty.
   */
  async addRow(row: SheetRow, ev: RowEvaluation, stored?: StoredAnnuityFields): Promise<void> {
    const s = ev.schedule;
    const next = s?.next ?? null;
    const previous = s?.previous ?? null;
    const cells: OutCell[] = new Array<OutCell>(this.width);
    for (let i = 0; i < this.width; i++) cells[i] = original(row.cells[i] ?? null);
    // Original date cells that were understood are re-typed, so they show as DD-MM-YYYY too.
    if (this.filingIndex >= 0 && row.filingDate !== null) cells[this.filingIndex] = { day: row.filingDate };
    if (this.grantIndex >= 0 && row.grantDate !== null) cells[this.grantIndex] = { day: row.grantDate };
    const reasons = s !== null && s.flags.length > 0 ? [...ev.reasons, ...s.flags] : ev.reasons;
    cells.push(ev.office, ev.origin, ev.publication?.normalised ?? null, ev.application?.display ?? null, ev.url, s === null ? null : ymdFromDay(s.filing).month);
    if (stored) {
      const nextDue = stored.dateProchaineAnnuite === null ? null : parseIsoDate(stored.dateProchaineAnnuite);
      const engineNext = s?.annuities.find((a) => a.number === stored.nextNumber && a.due === nextDue) ?? null;
      cells.push(
        isoDay(stored.datePrecedenteAnnuite),
        stored.quantPrecedent,
        isoDay(stored.dateProchaineAnnuite),
        stored.nextNumber,
        isoDay(stored.instructionLimit),
        day(engineNext?.noSurchargeEnd),
        isoDay(stored.limiteDateProchaineAnnuite),
        // The engine's lost-after edge when the stored limit is still the engine's; a limit the user typed is theirs.
        engineNext !== null && stored.limiteDateProchaineAnnuite !== null && parseIsoDate(stored.limiteDateProchaineAnnuite) === engineNext.graceEnd
          ? day(engineNext.graceEndLatest)
          : isoDay(stored.limiteDateProchaineAnnuite),
        stored.fee === null ? null : Number(stored.fee),
        stored.currency,
        stored.inGraceWithSurcharge,
        stored.dechu,
        stored.expired,
        stored.colour,
      );
    } else {
      cells.push(
        day(previous?.due),
        previous?.number ?? null,
        day(next?.due),
        next?.number ?? null,
        day(s?.instructionLimit),
        day(next?.noSurchargeEnd),
        day(s?.nextLimit),
        day(s?.nextLostAfter),
        next === null || next.feeMinor === null ? null : Number(formatMinor(next.feeMinor)),
        next?.currency ?? null,
        s?.inGraceWithSurcharge ?? null,
        s?.lapsed ?? null,
        s?.expired ?? null,
        s?.colour ?? 'no_date',
      );
    }
    cells.push(reasons.length > 0 ? reasons.join(', ') : null);
    const colour = stored?.colour ?? s?.colour ?? 'no_date';
    await this.xlsx.row(cells, this.styles[colour]);
  }

  async finish(): Promise<void> {
    await this.xlsx.startSheet('Légende - Legend', [16, 60, 60]);
    await this.xlsx.row(['Couleur / Colour', 'Signification', 'Meaning'], XlsxStreamWriter.HEADER_STYLE);
    const legend: Array<[Colour, string, string]> = [
      ['ok', 'Prochaine annuité à venir', 'Next annuity in the future'],
      [
        'nok',
        `Prochaine annuité échue (aujourd’hui ou passée), encore payable ; ou, sans colonne « dernière annuité payée », due dans les ${DUE_SOON_DAYS} jours (paiement inconnu)`,
        `Next annuity due today or past, still payable; or, without a “last annuity paid” column, due within ${DUE_SOON_DAYS} days (payment not known)`,
      ],
      ['orange', 'Seulement une annuité précédente (terminé, déchu ou expiré)', 'Only a previous annuity (done, lapsed or expired)'],
      ['no_date', 'Aucune date calculable (voir Motifs)', 'No date could be computed (see Reasons)'],
    ];
    for (const [colour, fr, en] of legend) await this.xlsx.row([colour, fr, en], XlsxStreamWriter.styleOf(COLOURS.indexOf(colour), false));
    for (const line of [
      ['Dates', 'JJ-MM-AAAA', 'DD-MM-YYYY'],
      ['Limite d’instruction / Instruction limit', 'Échéance moins 7 jours', 'Due date minus 7 days'],
      ['limite_date_prochaine_annuite', 'Dernier jour pour payer, surtaxe comprise (fin du délai de grâce, sans prolongation non vérifiée)', 'Last day to pay, surcharge included (grace end, without any unverified extension)'],
      ['Perte du droit après / Lost after', 'Dernier jour que la loi peut permettre, toute prolongation possible comprise : « déchu » seulement après', 'Last day the law may allow, with every extension that may apply: “lapsed” only after it'],
      ['Texte commençant par = + - @', 'Préfixé d’une apostrophe, jamais évalué', 'Prefixed with an apostrophe, never evaluated'],
      // The review flags of the Reasons column: computed, but a person should look.
      ...FLAG_LEGEND,
      // Added by a download for the reader's paid or lapsed rows (ledger-export.ts).
      ...LEDGER_TEXTS,
    ]) {
      await this.xlsx.row(line, 0);
    }
    await this.xlsx.finish();
  }
}
