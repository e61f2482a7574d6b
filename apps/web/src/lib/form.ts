import { useRef, useState } from 'react';
import { useForm, type FormErrors, type UseFormReturnType } from '@mantine/form';

/**
 * Forms: `@mantine/form` validated by the contracts' zod schemas (the same schema the API route
 * declares). Errors are kept as codes (`email_empty`, `required` …) and translated when rendered,
 * so they follow a language switch. On a rejected submit the first invalid field takes the focus
 * and a summary is announced (`FormErrorSummary`); after that, each change re-checks its field, so
 * a message disappears as soon as the field is fixed.
 */

/** The part of a zod (or any Standard Schema) issue this adapter reads. */
interface Issue {
  readonly message: string;
  readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
  readonly code?: string;
  readonly minimum?: unknown;
  readonly input?: unknown;
}
/** Anything with zod's `safeParse`: the contracts' schemas. */
export interface ParseableSchema<Out> {
  safeParse(value: unknown): { success: true; data: Out } | { success: false; error: { issues: readonly Issue[] } };
}

/** Our schemas' messages are error codes (`wrong_email`); zod's own default messages are sentences. */
const ERROR_CODE = /^[a-z][a-z0-9_]*$/;

/** One issue as a code: the schema's own code, else `required` for an empty value, else `invalid`. */
export function issueCode(issue: Issue): string {
  if (ERROR_CODE.test(issue.message)) return issue.message;
  if (issue.code === 'too_small' && issue.minimum === 1) return 'required';
  if (issue.code === 'invalid_type' && (issue.input === undefined || issue.input === null)) return 'required';
  return 'invalid';
}

/** zod issues → Mantine errors keyed by path (`id_client.0`); the first issue of a path wins. */
export function issuesToErrors(issues: readonly Issue[]): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const path = (issue.path ?? []).map((p) => String(typeof p === 'object' && p !== null && 'key' in p ? p.key : p)).join('.');
    errors[path] ??= issueCode(issue);
  }
  return errors;
}

/** The errors of `value` against `schema`, as codes by path. */
export function schemaErrors<Out>(schema: ParseableSchema<Out>, value: unknown): Record<string, string> {
  const result = schema.safeParse(value);
  return result.success ? {} : issuesToErrors(result.error.issues);
}

/** The first element of a form, in document order, whose data-path has an error. */
export function firstInvalidElement(root: ParentNode, errors: FormErrors): HTMLElement | null {
  const invalid = new Set(Object.entries(errors).flatMap(([path, error]) => (error == null || error === false || error === '' ? [] : [path])));
  for (const el of root.querySelectorAll<HTMLElement>('[data-path]')) {
    if (invalid.has(el.dataset.path ?? '')) return el;
  }
  return null;
}

/** Focuses an invalid field: the element itself when focusable, else its first focusable control (a radio group's wrapper). */
export function focusField(el: HTMLElement): void {
  const candidates = el.matches('input, select, textarea, button, [tabindex]')
    ? [el]
    : [...el.querySelectorAll<HTMLElement>('input:not([disabled]):not([type=hidden]):not([type=file]), button:not([disabled]), textarea, select, [tabindex]:not([tabindex="-1"])')];
  // Skip what is not rendered (a file picker's hidden input).
  candidates.find((c) => c.getClientRects().length > 0)?.focus();
}

export interface SchemaFormOptions<Values extends Record<string, unknown>, Out> {
  initialValues: Values;
  /** The contract schema the API route validates with. */
  schema: ParseableSchema<Out>;
  /** Maps the form's values to the request body before validation (trim, drop role-specific lists …). */
  prepare?: (values: Values) => unknown;
  /** Rules the body schema cannot express (they depend on other data), as codes by path. */
  extraRules?: (values: Values) => Record<string, string | undefined>;
  /** Fields shown for these values (steps that appear one after the other); errors of hidden fields wait until they show. */
  shown?: (path: string, values: Values) => boolean;
  /** Fields checked on every change, before any submit (the contact e-mail is pattern-checked as typed, per the spec). */
  validateOnChange?: (keyof Values & string)[];
  /** Checks that stop at the first failure (the spec's LEDES upload): only the first error in this order shows. */
  firstErrorOf?: readonly string[];
  /** The message of an error code for a field, in the current language. */
  translate: (code: string, field: string) => string;
}

export interface SchemaForm<Values extends Record<string, unknown>, Out> {
  form: UseFormReturnType<Values>;
  /** The form's onSubmit: validates, focuses the first invalid field on failure, else calls `handler` with the parsed body. */
  onSubmit: (handler: (body: Out, values: Values) => void) => (event?: React.FormEvent<HTMLFormElement>) => void;
  /** Sets a value (inputs wired by hand, e.g. a Select) with the same re-check as getInputProps. */
  setField: <K extends keyof Values & string>(path: K, value: Values[K]) => void;
  /** Shows the API's per-field codes (`ApiError.fields`) under the fields and announces them like a rejected submit. */
  showServerErrors: (fields: Record<string, string>, rename?: Record<string, string>) => void;
  /** Number of fields in error after a rejected submit (0 otherwise): the summary's count. */
  invalidCount: number;
  /** The translated error of a field, for inputs wired by hand. */
  errorOf: (path: string) => string | undefined;
  /** Attach to the <form> element. */
  ref: React.RefObject<HTMLFormElement | null>;
}

export function useSchemaForm<Values extends Record<string, unknown>, Out>(options: SchemaFormOptions<Values, Out>): SchemaForm<Values, Out> {
  const { schema, prepare, extraRules, translate, shown, firstErrorOf } = options;
  const ref = useRef<HTMLFormElement | null>(null);
  const submitted = useRef(false);
  const [attempt, setAttempt] = useState(0);

  const validate = (values: Values): Record<string, string> => {
    const errors = schemaErrors(schema, prepare ? prepare(values) : values);
    for (const [path, code] of Object.entries(extraRules?.(values) ?? {})) if (code) errors[path] ??= code;
    if (shown) for (const path of Object.keys(errors)) if (!shown(path, values)) delete errors[path];
    if (firstErrorOf) {
      const first = firstErrorOf.find((path) => errors[path]);
      const code = first ? errors[first] : undefined;
      return first && code ? { [first]: code } : errors;
    }
    return errors;
  };

  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: options.initialValues,
    validate,
    validateInputOnChange: options.validateOnChange ?? false,
    enhanceGetInputProps: ({ inputProps, field, form: f }) => {
      // Mantine merges the result into `inputProps` itself: keep the original handler aside.
      const change = inputProps.onChange as (value: unknown) => void;
      const error = typeof inputProps.error === 'string' ? translate(inputProps.error, String(field)) : undefined;
      return {
        error,
        // Mantine's inputs say so themselves, but not PasswordInput (its inner input gets aria-describedby only).
        'aria-invalid': error ? true : undefined,
        onChange: (value: unknown) => {
          change(value);
          if (submitted.current) recheck(f, String(field));
        },
      };
    },
  });

  /** After a rejected submit: re-check one field against the whole schema and show only its own result. */
  function recheck(f: UseFormReturnType<Values>, path: string) {
    const code = validate(f.getValues())[path];
    if (code) f.setFieldError(path, code);
    else f.clearFieldError(path);
  }

  const reject = (errors: FormErrors) => {
    submitted.current = true;
    setAttempt((n) => n + 1);
    // After React has rendered the messages (aria-describedby is set then).
    requestAnimationFrame(() => {
      const el = ref.current && firstInvalidElement(ref.current, errors);
      if (el) focusField(el);
    });
  };

  const onSubmit: SchemaForm<Values, Out>['onSubmit'] = (handler) =>
    form.onSubmit(
      (values) => {
        const parsed = schema.safeParse(prepare ? prepare(values) : values);
        if (!parsed.success) return;
        submitted.current = false;
        setAttempt(0);
        handler(parsed.data, values);
      },
      (errors) => reject(errors),
    );

  const setField: SchemaForm<Values, Out>['setField'] = (path, value) => {
    // Mantine's path typing is looser than ours; the key is a key of Values.
    (form.setFieldValue as (p: string, v: unknown) => void)(path, value);
    if (submitted.current) {
      const code = validate({ ...form.getValues(), [path]: value })[path];
      if (code) form.setFieldError(path, code);
      else form.clearFieldError(path);
    }
  };

  const showServerErrors: SchemaForm<Values, Out>['showServerErrors'] = (fields, rename = {}) => {
    const errors: FormErrors = {};
    for (const [field, code] of Object.entries(fields)) errors[rename[field] ?? field] = code;
    if (Object.keys(errors).length === 0) return;
    form.setErrors(errors);
    reject(errors);
  };

  const invalidCount = attempt > 0 ? Object.values(form.errors).filter(Boolean).length : 0;
  const errorOf = (path: string) => {
    const code = form.errors[path];
    return typeof code === 'string' ? translate(code, path) : undefined;
  };
  return { form, onSubmit, setField, showServerErrors, invalidCount, errorOf, ref };
}

/**
 * A schema from plain rules, for the screens of the first load (login, forgot password) that must
 * not pull zod into it: each rule returns the same error code the API's schema would.
 */
export function rulesSchema<Values extends object>(
  rules: { [K in keyof Values]?: (value: Values[K], values: Values) => string | undefined },
): ParseableSchema<Values> {
  return {
    safeParse(value: unknown) {
      const values = value as Values;
      const issues: Issue[] = [];
      for (const [path, rule] of Object.entries(rules) as [keyof Values & string, ((v: unknown, all: Values) => string | undefined) | undefined][]) {
        const code = rule?.(values[path], values);
        if (code) issues.push({ message: code, path: [path] });
      }
      return issues.length ? { success: false, error: { issues } } : { success: true, data: values };
    },
  };
}
