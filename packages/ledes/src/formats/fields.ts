/** Field descriptors shared by the pipe formats (98B and 98BI). */
type FieldKind = 'date' | 'currency' | 'number' | 'rate' | 'text' | 'code';

/**
 * `required`: 'always' | 'not-adjustment' (F/E lines only) | 'no' (timekeeper and code fields are
 * required by line type, which the TK and COD rules check).
 * `lengthSure`: false when the maximum length is not confirmed by the LOC text ([?]/[C] in the
 * reference); overflow of such a length is a warning, not an error.
 */
export interface FieldSpec {
  readonly name: string;
  readonly kind: FieldKind;
  readonly maxLength?: number;
  readonly lengthSure?: boolean;
  readonly required: 'always' | 'not-adjustment' | 'no';
  /** Repeated on every line of an invoice; compared with the invoice's first line (CON-001). */
  readonly invoiceLevel?: boolean;
  /** A list of values in one field (98BI LAW_FIRM_ID): `maxLength` then applies to each item. */
  readonly list?: { readonly separator: string; readonly maxItems: number };
}
