import { quoted } from '../findings.ts';
import { ISO_4217 } from '../codesets.ts';
import { KIND_CURRENCY, KIND_DATE, KIND_NUMBER, KIND_TEXT, REQUIRED_ALWAYS, REQUIRED_NOT_ADJUSTMENT } from '../formats/pipe.ts';
import { parseDecimalCached, POW10_NUMBER, type ParsedNumber } from '../money.ts';
import { at, report, type LineType, type RecordContext } from './context.ts';
import { isValidDate } from './dates.ts';

/** Amounts and numbers: the formats allow 4 decimals; rates are fractions with more. */
const NUMBER_DECIMALS = 4;

/** F, E, IF, IE as the interned literals (fast to compare later), undefined for anything else. */
function lineTypeOf(type: string): LineType | undefined {
  switch (type) {
    case 'F':
      return 'F';
    case 'E':
      return 'E';
    case 'IF':
      return 'IF';
    case 'IE':
      return 'IE';
    default:
      return undefined;
  }
}

/** FLD-001…FLD-006: presence and syntax of every field; fills `ctx.numbers`. */
export function checkFieldSyntax(ctx: RecordContext): void {
  const { fields, format, profile } = ctx;
  const type = at(ctx, format.cols.type);
  ctx.lineType = lineTypeOf(type);
  if (!ctx.lineType && type !== '') report(ctx, 'FLD-006', 'EXP/FEE/INV_ADJ_TYPE', undefined, { found: quoted(type) });
  const adjustment = ctx.lineType === 'IF' || ctx.lineType === 'IE';
  const annuites = profile.type === 'annuites';
  // ANN-003 owns the length of the annuity CLIENT_MATTER_ID.
  const lengthExempt = annuites ? format.cols.clientMatterId : -1;
  const { kinds, names, maxLengths, required } = format;
  const { numbers, previous } = ctx;

  for (let i = 0; i < kinds.length; i++) {
    const v = fields[i]!;
    if (v === '') {
      const r = required[i]!;
      if (r === REQUIRED_ALWAYS || (r === REQUIRED_NOT_ADJUSTMENT && !adjustment)) report(ctx, 'FLD-001', names[i]!);
      continue;
    }
    const kind = kinds[i]!;
    if (kind === KIND_TEXT) {
      const max = maxLengths[i]!;
      // A list field is measured item by item, after the loop (one column, 98BI's LAW_FIRM_ID).
      if (max >= 0 && v.length > max && i !== lengthExempt && !isList(format, i)) {
        report(ctx, 'FLD-005', names[i]!, format.lengthSure[i] ? undefined : 'warning', { found: String(v.length), expected: String(max) });
      }
    } else if (kind === KIND_DATE) {
      let ok: boolean;
      if (v === previous.values[i]) ok = previous.dates[i]!;
      else {
        ok = isValidDate(v);
        previous.values[i] = v;
        previous.dates[i] = ok;
      }
      if (!ok) {
        report(ctx, 'FLD-002', names[i]!);
        ctx.invalid.add(i);
      }
    } else {
      let n: ParsedNumber;
      if (v === previous.values[i]) n = previous.numbers[i]!;
      else {
        n = parseDecimalCached(v);
        previous.values[i] = v;
        previous.numbers[i] = n;
      }
      if (!n.ok) {
        report(ctx, 'FLD-003', names[i]!);
        ctx.invalid.add(i);
        continue;
      }
      // A leading "+" is not in Legal Tracker's list but is seen in generators ([?]).
      if (n.leadingPlus) report(ctx, 'FLD-003', names[i]!, 'warning');
      numbers[i] = n.value;
      // The formats allow 4 decimals on amounts and numbers: past that the value is wrong (error); past the
      // client profile's decimals but within 4, the client may round it (warning).
      if ((kind === KIND_CURRENCY || kind === KIND_NUMBER) && n.decimals > NUMBER_DECIMALS) report(ctx, 'FLD-004', names[i]!, 'error');
      else if (kind === KIND_CURRENCY && n.decimals > profile.decimals) report(ctx, 'FLD-004', names[i]!);
    }
  }
  for (const { column, separator, maxItems } of format.lists) {
    const v = fields[column]!;
    if (v === '') continue;
    const items = v.split(separator);
    const max = maxLengths[column]!;
    const longest = Math.max(...items.map((item) => item.length));
    const severity = format.lengthSure[column] ? undefined : 'warning';
    // Too many items: their count against the most allowed; else the longest item against the length.
    if (items.length > maxItems) report(ctx, 'FLD-005', names[column]!, severity, { found: String(items.length), expected: String(maxItems) });
    else if (max >= 0 && longest > max) report(ctx, 'FLD-005', names[column]!, severity, { found: String(longest), expected: String(max) });
  }
}

function isList(format: RecordContext['format'], column: number): boolean {
  return format.lists.length > 0 && format.lists.some((l) => l.column === column);
}

const ALPHA2 = /^[A-Z]{2}$/;
const ALPHA3 = /^[A-Z]{3}$/;

function countryOk(v: string, style: RecordContext['profile']['countryCodeStyle']): boolean {
  return style === 'alpha2' ? ALPHA2.test(v) : style === 'alpha3' ? ALPHA3.test(v) : ALPHA2.test(v) || ALPHA3.test(v);
}

/** FLD-007…FLD-011: enumerations and unit rules. */
export function checkFieldValues(ctx: RecordContext): void {
  const { format, profile } = ctx;
  const { cols } = format;
  const currency = at(ctx, cols.currency);
  if (currency !== '' && !ISO_4217.has(currency)) report(ctx, 'FLD-007', 'INVOICE_CURRENCY', undefined, { found: quoted(currency) });
  const taxCurrency = at(ctx, cols.taxCurrency);
  if (taxCurrency !== '' && !ISO_4217.has(taxCurrency)) report(ctx, 'FLD-007', 'INVOICE_TAX_CURRENCY', undefined, { found: quoted(taxCurrency) });
  const firmCountry = at(ctx, cols.firmCountry);
  if (firmCountry !== '' && !countryOk(firmCountry, profile.countryCodeStyle)) report(ctx, 'FLD-008', 'LAW_FIRM_COUNTRY');
  const clientCountry = at(ctx, cols.clientCountry);
  if (clientCountry !== '' && !countryOk(clientCountry, profile.countryCodeStyle)) report(ctx, 'FLD-008', 'CLIENT_COUNTRY');
  if (cols.accountType >= 0) {
    const v = ctx.fields[cols.accountType]!;
    if (v !== '' && v !== 'O' && v !== 'T') report(ctx, 'FLD-009', 'ACCOUNT_TYPE', undefined, { found: quoted(v) });
  }
  const units = ctx.numbers[cols.units];
  if (units === undefined) return;
  const n = units.n;
  const safe = n !== undefined && n === n;
  if ((ctx.lineType === 'F' || ctx.lineType === 'E') && (safe ? n <= 0 : units.units <= 0n)) {
    report(ctx, 'FLD-011', 'LINE_ITEM_NUMBER_OF_UNITS');
  }
  // Tenths: units × 10 must be whole, i.e. the mantissa divisible by 10^(scale − 1).
  if (ctx.lineType === 'F' && units.scale > 1) {
    const notTenths = safe && units.scale <= 23 ? n % POW10_NUMBER[units.scale - 1]! !== 0 : units.units % 10n ** BigInt(units.scale - 1) !== 0n;
    if (notTenths) report(ctx, 'FLD-010', 'LINE_ITEM_NUMBER_OF_UNITS');
  }
}
