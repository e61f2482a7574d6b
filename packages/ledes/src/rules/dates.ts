const DATE_RE = /^(\d{4})(\d{2})(\d{2})$/;

const known = new Map<string, boolean>();
const CACHE_LIMIT = 4096;

/** YYYYMMDD and a real calendar date (memoised: invoice dates repeat on every line). */
export function isValidDate(text: string): boolean {
  let r = known.get(text);
  if (r === undefined) {
    r = checkDate(text);
    if (known.size >= CACHE_LIMIT) known.clear();
    known.set(text, r);
  }
  return r;
}

function checkDate(text: string): boolean {
  const m = DATE_RE.exec(text);
  if (!m) return false;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  if (mo < 1 || mo > 12 || d < 1) return false;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mo - 1]!;
  return d <= days;
}

export function yyyymmdd(date: Date): string {
  return date.toISOString().slice(0, 10).replaceAll('-', '');
}
