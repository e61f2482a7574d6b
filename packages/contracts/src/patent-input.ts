import { z } from 'zod';
import { isOffice, parseNumber, type NumberKind } from '@portal/annuities/numbers';
import { FORMULA_PREFIXES, PATENT_COST_MAX } from './constants.ts';
import { text } from './text.ts';

/*
 * Input rules of the patent fields people type or import (issue 25 §3): the add form, the
 * missing-information fill, the admin edit (these schemas) and the portfolio import and sync
 * (`prepareRow` in @portal/jobs, with the same functions). Each refusal is an error code.
 */

/** True when a value starts like a spreadsheet formula (= + - @): refused in identifier fields, never silently changed. */
export function startsLikeFormula(value: string): boolean {
  return (FORMULA_PREFIXES as readonly string[]).includes(value.trimStart().charAt(0));
}

export type PatentNumberCode = 'invalid_application_number' | 'invalid_publication_number';
export const NUMBER_CODE: Record<NumberKind, PatentNumberCode> = { application: 'invalid_application_number', publication: 'invalid_publication_number' };

/**
 * Why a number does not fit the office's format (the engine's `parseNumber`), or null when it does.
 * The office is the patent's country; an office the engine does not know (or none) checks only a
 * number that names its own known office (EP1234567); other numbers cannot be checked and pass.
 */
export function patentNumberProblem(value: string, kind: NumberKind, office: string | null | undefined): PatentNumberCode | null {
  const country = office?.trim().toUpperCase() ?? '';
  const parsed = parseNumber(value, kind, isOffice(country) ? country : null);
  if (parsed.ok) return null;
  return !isOffice(country) && parsed.reason === 'unknown_country' ? null : NUMBER_CODE[kind];
}

/** An identifier typed in a form: trimmed, at most `max` characters, not starting like a formula; '' (or absent) is null. */
export const identifierText = (max: number) =>
  text()
    .trim()
    .max(max, { error: 'text_too_long' })
    .refine((value) => !startsLikeFormula(value), { error: 'formula_not_allowed' })
    .nullish()
    .transform((value) => (value === '' || value === undefined ? null : value));

/** A required identifier (the missing-information fill): trimmed, 1 to `max` characters, not starting like a formula. */
export const requiredIdentifier = (max: number) =>
  text()
    .trim()
    .min(1)
    .max(max, { error: 'text_too_long' })
    .refine((value) => !startsLikeFormula(value), { error: 'formula_not_allowed' });

/** A free text: trimmed, at most `max` characters; '' (or absent) is null. */
export const freeText = (max: number) =>
  text()
    .trim()
    .max(max, { error: 'text_too_long' })
    .nullish()
    .transform((value) => (value === '' || value === undefined ? null : value));

/** A cost in euros: a number, 0 or more (a string, a negative or NaN is `invalid_cost`). */
export const costNumber = () => z.number({ error: 'invalid_cost' }).min(0, { error: 'invalid_cost' }).max(PATENT_COST_MAX, { error: 'invalid_cost' });

/**
 * The object-level check of a body's number field against the body's country, as `.refine(...)`
 * arguments: `officeOf` reads the country (none: the API checks against the stored record). It runs
 * even when other fields fail, so a form shows every error at once.
 */
export function numberMatchesOffice(field: string, kind: NumberKind, officeOf: (body: Record<string, unknown>) => unknown) {
  const check = (body: unknown): boolean => {
    if (typeof body !== 'object' || body === null) return true;
    const record = body as Record<string, unknown>;
    const value = record[field];
    const country = officeOf(record);
    if (typeof value !== 'string' || value.trim() === '' || startsLikeFormula(value)) return true;
    return patentNumberProblem(value, kind, typeof country === 'string' ? country : null) === null;
  };
  const params: { error: PatentNumberCode; path: string[]; when: () => boolean } = { error: NUMBER_CODE[kind], path: [field], when: () => true };
  return [check, params] as const;
}
