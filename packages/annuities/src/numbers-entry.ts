/**
 * The number parsers alone, for code that ships to the browser (`@portal/contracts`' input rules): the
 * web's first load carries them without the calendars, fee tables and schedules of `./core`.
 */
export { parseNumber, type NumberKind, type ParsedNumber } from './numbers.ts';
export { isOffice, OFFICES, type Office } from './types.ts';
