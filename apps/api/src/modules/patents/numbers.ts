import { patentNumberProblem } from '@portal/contracts';
import { AppError } from '../../domain/errors.ts';

/**
 * The numbers of a fill or an edit against the patent's country (issue 25 §3): the body's schema
 * checks them against a country given with them; without one, only the stored record knows it.
 * A number that does not fit is a 400 naming the field (`invalid_application_number`, …).
 */
export function assertNumbersFitOffice(office: string, numbers: { application?: [field: string, value: string | null | undefined]; publication?: [field: string, value: string | null | undefined] }): void {
  const fields: Record<string, string> = {};
  let first: 'invalid_application_number' | 'invalid_publication_number' | undefined;
  for (const kind of ['application', 'publication'] as const) {
    const [field, value] = numbers[kind] ?? ['', undefined];
    if (typeof value !== 'string') continue;
    const code = patentNumberProblem(value, kind, office);
    if (code === null) continue;
    fields[field] = code;
    first ??= code;
  }
  if (first) throw new AppError(first, { fields });
}
