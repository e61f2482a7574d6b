import type { Day } from './calendar.ts';
import { parseNumber, type ParsedNumber } from './numbers.ts';
import type { ReasonCode } from './reasons.ts';
import { registerUrl } from './registers.ts';
import { computeSchedule, type Schedule } from './schedule.ts';
import { officeOfCountry, originOfText } from './spreadsheet/columns.ts';
import type { SheetRow } from './spreadsheet/rows.ts';
import type { Office, Origin } from './types.ts';

export interface RowEvaluation {
  readonly office: Office | null;
  readonly origin: Origin | null;
  readonly publication: ParsedNumber | null;
  readonly application: ParsedNumber | null;
  readonly schedule: Schedule | null;
  readonly url: string | null;
  readonly reasons: readonly ReasonCode[];
}

function parseOptional(raw: string | null, kind: 'publication' | 'application', office: Office | null, reasons: ReasonCode[]): ParsedNumber | null {
  if (raw === null) return null;
  const r = parseNumber(raw, kind, office);
  if (r.ok) return r.value;
  reasons.push(r.reason);
  return null;
}

/**
 * Without an origin column: EP and UP rows speak for themselves; a national row carrying an EP
 * number, an ES "E" file or a translation kind code (T2/T3) is a validated European patent.
 */
function inferOrigin(office: Office, publication: ParsedNumber | null, application: ParsedNumber | null): Origin {
  if (office === 'EP') return 'ep_application';
  if (office === 'UP') return 'unitary';
  const european =
    publication?.country === 'EP' ||
    application?.country === 'EP' ||
    (application?.country === 'ES' && application.series === 'E') ||
    publication?.kindCode?.startsWith('T') === true;
  return european ? 'ep_validated' : 'national';
}

/** Numbers, origin, schedule and register link of one spreadsheet row. Never throws. */
export function evaluateRow(row: SheetRow, today: Day): RowEvaluation {
  const reasons: ReasonCode[] = [...row.issues];
  let office = officeOfCountry(row.country);
  if (office === null && row.country !== null) reasons.push('unknown_country');
  const publication = parseOptional(row.publication, 'publication', office, reasons);
  const application = parseOptional(row.application, 'application', office, reasons);
  // No country column: the number's own prefix says where it belongs.
  office ??= publication?.country ?? application?.country ?? null;
  if (office === null) {
    // No country cell and no number that names one: the row says why, as every other row without a date.
    if (row.country === null && row.publication === null && row.application === null) reasons.push('empty_number', 'missing_country');
    return { office, origin: null, publication, application, schedule: null, url: null, reasons };
  }

  const origin = originOfText(row.origin) ?? inferOrigin(office, publication, application);
  const url = registerUrl({ office, origin, publication, application });
  if (row.filingDate === null) {
    if (!reasons.includes('invalid_date')) reasons.push('missing_filing_date');
    return { office, origin, publication, application, schedule: null, url, reasons };
  }
  const result = computeSchedule({ office, origin, filing: row.filingDate, grant: row.grantDate, lastPaid: row.lastPaid }, today);
  if (!result.ok) {
    reasons.push(result.reason);
    return { office, origin, publication, application, schedule: null, url, reasons };
  }
  return { office, origin, publication, application, schedule: result.value, url, reasons };
}
