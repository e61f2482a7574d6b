import { at, report, type RecordContext } from './context.ts';

/** GDL-001: too long (any line), too vague or block billing (fee lines). */
export function checkNarrative(ctx: RecordContext): void {
  const text = at(ctx, ctx.format.cols.description);
  if (text === '') return;
  const { profile } = ctx;
  let flagged = text.length > profile.maxDescriptionLength;
  if (!flagged && ctx.lineType === 'F') {
    // Three or more tasks joined by ";" in one fee entry is the usual block-billing pattern.
    flagged = hasFewerWords(text, profile.minDescriptionWords) || (text.includes(';') && text.split(';').filter((s) => s.trim() !== '').length >= 3);
  }
  if (flagged) report(ctx, 'GDL-001', 'LINE_ITEM_DESCRIPTION');
}

/** Counts words only up to `min` (this runs on every fee line). */
function hasFewerWords(text: string, min: number): boolean {
  let words = 0;
  let inWord = false;
  for (let i = 0; i < text.length && words < min; i++) {
    const space = text.charCodeAt(i) <= 32;
    if (!space && !inWord) words++;
    inWord = !space;
  }
  return words < min;
}
