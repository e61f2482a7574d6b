import { report, value, type RecordContext } from './context.ts';

/** GDL-001: too long (any line), too vague or block billing (fee lines). */
export function checkNarrative(ctx: RecordContext): void {
  const text = value(ctx, 'LINE_ITEM_DESCRIPTION');
  if (text === '') return;
  const { profile } = ctx;
  let flagged = text.length > profile.maxDescriptionLength;
  if (!flagged && ctx.lineType === 'F') {
    const words = text.trim().split(/\s+/).length;
    // Three or more tasks joined by ";" in one fee entry is the usual block-billing pattern.
    flagged = words < profile.minDescriptionWords || text.split(';').filter((s) => s.trim() !== '').length >= 3;
  }
  if (flagged) report(ctx, 'GDL-001', 'LINE_ITEM_DESCRIPTION');
}
