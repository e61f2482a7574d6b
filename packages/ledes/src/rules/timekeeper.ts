import { TIMEKEEPER_CLASSIFICATIONS_2014, TIMEKEEPER_CLASSIFICATIONS_LEGACY } from '../codesets.ts';
import { compare } from '../money.ts';
import type { LedesProfile } from '../profiles.ts';
import { num, report, value, type RecordContext } from './context.ts';

const LAST_FIRST = /^[^,]+,\s*\S/;
const LEGACY: ReadonlySet<string> = new Set(TIMEKEEPER_CLASSIFICATIONS_LEGACY);

export function classifications(profile: LedesProfile): ReadonlySet<string> {
  return new Set([...TIMEKEEPER_CLASSIFICATIONS_2014, ...profile.extraTimekeeperClassifications]);
}

/** TK-001…TK-004. */
export function checkTimekeeper(ctx: RecordContext, known: ReadonlySet<string>): void {
  const classification = value(ctx, 'TIMEKEEPER_CLASSIFICATION');
  if (classification !== '' && !known.has(classification)) {
    report(ctx, 'TK-003', 'TIMEKEEPER_CLASSIFICATION', LEGACY.has(classification) ? 'warning' : undefined);
  }
  if (ctx.lineType !== 'F') return;
  const required = ['TIMEKEEPER_ID', 'TIMEKEEPER_NAME', 'TIMEKEEPER_CLASSIFICATION', 'TIMEKEEPER_LAST_NAME', 'TIMEKEEPER_FIRST_NAME'];
  for (const name of required) {
    if (ctx.format.index.has(name) && value(ctx, name) === '') report(ctx, 'TK-001', name);
  }
  const name = value(ctx, 'TIMEKEEPER_NAME');
  if (name !== '' && !LAST_FIRST.test(name)) report(ctx, 'TK-002', 'TIMEKEEPER_NAME');
  const id = value(ctx, 'TIMEKEEPER_ID');
  const rate = num(ctx, 'LINE_ITEM_UNIT_COST');
  if (id === '' || rate === undefined) return;
  const first = ctx.file.timekeeperRates.get(id);
  if (first === undefined) ctx.file.timekeeperRates.set(id, rate);
  else if (compare(first, rate) !== 0) report(ctx, 'TK-004', 'LINE_ITEM_UNIT_COST');
}
