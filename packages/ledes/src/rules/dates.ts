const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The digit at `i` (0–9), or -1 for any other character. */
function digit(text: string, i: number): number {
  const d = text.charCodeAt(i) - 48;
  return d >= 0 && d <= 9 ? d : -1;
}

/**
 * YYYYMMDD (eight ASCII digits) and a real calendar date. Read from the character codes: this runs
 * on every date field of every line, and a regex or a cache lookup costs more than the check itself.
 */
export function isValidDate(text: string): boolean {
  if (text.length !== 8) return false;
  let y = 0;
  for (let i = 0; i < 4; i++) {
    const d = digit(text, i);
    if (d < 0) return false;
    y = y * 10 + d;
  }
  const m1 = digit(text, 4);
  const m2 = digit(text, 5);
  const d1 = digit(text, 6);
  const d2 = digit(text, 7);
  if (m1 < 0 || m2 < 0 || d1 < 0 || d2 < 0) return false;
  const mo = m1 * 10 + m2;
  const d = d1 * 10 + d2;
  if (mo < 1 || mo > 12 || d < 1) return false;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  return d <= (mo === 2 && leap ? 29 : DAYS_IN_MONTH[mo - 1]!);
}

export function yyyymmdd(date: Date): string {
  return date.toISOString().slice(0, 10).replaceAll('-', '');
}
