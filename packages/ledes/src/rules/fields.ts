import { ISO_4217 } from '../codesets.ts';
import { parseDecimalCached } from '../money.ts';
import { report, value, type LineType, type RecordContext } from './context.ts';
import { isValidDate } from './dates.ts';

const LINE_TYPES: ReadonlySet<string> = new Set(['F', 'E', 'IF', 'IE']);
/** Units and rates: the format allows 4 decimals on numbers; rates are fractions with more. */
const NUMBER_DECIMALS = 4;

/** FLD-001…FLD-006: presence and syntax of every field; fills `ctx.numbers`. */
export function checkFieldSyntax(ctx: RecordContext): void {
  const { fields, format, profile } = ctx;
  const type = fields[format.index.get('EXP/FEE/INV_ADJ_TYPE')!] ?? '';
  ctx.lineType = LINE_TYPES.has(type) ? (type as LineType) : undefined;
  if (!ctx.lineType && type !== '') report(ctx, 'FLD-006', 'EXP/FEE/INV_ADJ_TYPE');
  const adjustment = ctx.lineType === 'IF' || ctx.lineType === 'IE';
  const annuites = profile.type === 'annuites';

  for (let i = 0; i < format.fields.length; i++) {
    const spec = format.fields[i]!;
    const v = fields[i]!;
    if (v === '') {
      if (spec.required === 'always' || (spec.required === 'not-adjustment' && !adjustment)) {
        report(ctx, 'FLD-001', spec.name);
      }
      continue;
    }
    switch (spec.kind) {
      case 'date':
        if (!isValidDate(v)) {
          report(ctx, 'FLD-002', spec.name);
          ctx.invalid.add(i);
        }
        break;
      case 'currency':
      case 'number':
      case 'rate': {
        const n = parseDecimalCached(v);
        if (!n.ok) {
          report(ctx, 'FLD-003', spec.name);
          ctx.invalid.add(i);
          break;
        }
        // A leading "+" is not in Legal Tracker's list but is seen in generators ([?]).
        if (n.leadingPlus) report(ctx, 'FLD-003', spec.name, 'warning');
        ctx.numbers[i] = n.value;
        if (spec.kind === 'currency' && n.decimals > profile.decimals) report(ctx, 'FLD-004', spec.name);
        else if (spec.kind === 'number' && n.decimals > NUMBER_DECIMALS) report(ctx, 'FLD-004', spec.name, 'error');
        break;
      }
      default:
        // ANN-003 owns the length of the annuity CLIENT_MATTER_ID.
        if (spec.maxLength !== undefined && v.length > spec.maxLength && !(annuites && spec.name === 'CLIENT_MATTER_ID')) {
          report(ctx, 'FLD-005', spec.name, spec.lengthSure ? undefined : 'warning');
        }
    }
  }
}

const ALPHA2 = /^[A-Z]{2}$/;
const ALPHA3 = /^[A-Z]{3}$/;

/** FLD-007…FLD-011: enumerations and unit rules. */
export function checkFieldValues(ctx: RecordContext): void {
  const { format, profile } = ctx;
  for (const name of ['INVOICE_CURRENCY', 'INVOICE_TAX_CURRENCY']) {
    const v = value(ctx, name);
    if (v !== '' && !ISO_4217.has(v)) report(ctx, 'FLD-007', name);
  }
  for (const name of ['LAW_FIRM_COUNTRY', 'CLIENT_COUNTRY']) {
    const v = value(ctx, name);
    if (v === '') continue;
    const style = profile.countryCodeStyle;
    const ok = style === 'alpha2' ? ALPHA2.test(v) : style === 'alpha3' ? ALPHA3.test(v) : ALPHA2.test(v) || ALPHA3.test(v);
    if (!ok) report(ctx, 'FLD-008', name);
  }
  if (format.index.has('ACCOUNT_TYPE')) {
    const v = value(ctx, 'ACCOUNT_TYPE');
    if (v !== '' && v !== 'O' && v !== 'T') report(ctx, 'FLD-009', 'ACCOUNT_TYPE');
  }
  const units = ctx.numbers[format.index.get('LINE_ITEM_NUMBER_OF_UNITS')!];
  if (units === undefined) return;
  if ((ctx.lineType === 'F' || ctx.lineType === 'E') && units.units <= 0n) {
    report(ctx, 'FLD-011', 'LINE_ITEM_NUMBER_OF_UNITS');
  }
  // Tenths: units × 10 must be whole, i.e. the mantissa divisible by 10^(scale − 1).
  if (ctx.lineType === 'F' && units.scale > 1 && units.units % 10n ** BigInt(units.scale - 1) !== 0n) {
    report(ctx, 'FLD-010', 'LINE_ITEM_NUMBER_OF_UNITS');
  }
}
