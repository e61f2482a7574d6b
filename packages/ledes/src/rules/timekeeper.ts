import { quoted } from '../findings.ts';
import { TIMEKEEPER_CLASSIFICATIONS_2014, TIMEKEEPER_CLASSIFICATIONS_LEGACY } from '../codesets.ts';
import { compare, POW10_NUMBER, type Decimal } from '../money.ts';
import type { LedesProfile } from '../profiles.ts';
import { at, numAt, report, type RecordContext } from './context.ts';

const LAST_FIRST = /^[^,]+,\s*\S/;
const LEGACY: ReadonlySet<string> = new Set(TIMEKEEPER_CLASSIFICATIONS_LEGACY);

export function classifications(profile: LedesProfile): ReadonlySet<string> {
  return new Set([...TIMEKEEPER_CLASSIFICATIONS_2014, ...profile.extraTimekeeperClassifications]);
}

/** TIMEKEEPER_NAME in "Last, First" form: the regex's answer, decided from the characters in the usual case. */
function lastFirst(name: string): boolean {
  const comma = name.indexOf(',');
  // [^,]+ then a comma: the first comma, with something before it.
  if (comma <= 0) return false;
  const next = name.charCodeAt(comma + 1);
  // A printable ASCII character other than a space right after the comma is the \S.
  if (next > 32 && next < 127) return true;
  return LAST_FIRST.test(name);
}

/** Same amount (compare() === 0), in numbers when both are safe integers at a common scale ≤ 22. */
function sameRate(a: Decimal, b: Decimal): boolean {
  if (a === b) return true;
  const x = a.n;
  const y = b.n;
  if (x !== undefined && y !== undefined && x === x && y === y) {
    const scale = a.scale > b.scale ? a.scale : b.scale;
    if (scale <= 22) {
      const xs = x * POW10_NUMBER[scale - a.scale]!;
      const ys = y * POW10_NUMBER[scale - b.scale]!;
      if (Number.isSafeInteger(xs) && Number.isSafeInteger(ys)) return xs === ys;
    }
  }
  return compare(a, b) === 0;
}

/** TK-001…TK-004. */
export function checkTimekeeper(ctx: RecordContext, known: ReadonlySet<string>): void {
  const { format } = ctx;
  const { cols } = format;
  const classification = at(ctx, cols.classification);
  if (classification !== '' && !known.has(classification)) {
    report(ctx, 'TK-003', 'TIMEKEEPER_CLASSIFICATION', LEGACY.has(classification) ? 'warning' : undefined, { found: quoted(classification) });
  }
  if (ctx.lineType !== 'F') return;
  const { timekeeperColumns } = format;
  for (let k = 0; k < timekeeperColumns.length; k++) {
    if (ctx.fields[timekeeperColumns[k]!] === '') report(ctx, 'TK-001', format.timekeeperNames[k]!);
  }
  const name = at(ctx, cols.timekeeperName);
  if (name !== '' && !lastFirst(name)) report(ctx, 'TK-002', 'TIMEKEEPER_NAME');
  const id = at(ctx, cols.timekeeperId);
  const rate = numAt(ctx, cols.unitCost);
  if (id === '' || rate === undefined) return;
  const first = ctx.file.timekeeperRates.get(id);
  if (first === undefined) ctx.file.timekeeperRates.set(id, rate);
  else if (!sameRate(first, rate)) report(ctx, 'TK-004', 'LINE_ITEM_UNIT_COST');
}
