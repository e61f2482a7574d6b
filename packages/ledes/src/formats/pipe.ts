import type { FieldSpec } from './fields.ts';
import { LEDES1998B_FIELDS, LEDES1998B_TOKEN } from './ledes1998b.ts';
import { LEDES98BI_ALT_TOKENS, LEDES98BI_FIELDS, LEDES98BI_TOKEN } from './ledes98bi.ts';

type PipeFormatId = 'LEDES1998B' | 'LEDES98BI_V2';
export type FormatId = PipeFormatId | 'LEDES_XML_2.0' | 'LEDES_XML_2.1' | 'LEDES_XML_2.2';

export interface PipeFormat {
  readonly id: PipeFormatId;
  readonly token: string;
  readonly altTokens: readonly string[];
  readonly fields: readonly FieldSpec[];
  readonly header: string;
  /** Field name → column index, for the rules. */
  readonly index: ReadonlyMap<string, number>;
}

function define(id: PipeFormatId, token: string, altTokens: readonly string[], fields: readonly FieldSpec[]): PipeFormat {
  return {
    id,
    token,
    altTokens,
    fields,
    header: fields.map((f) => f.name).join('|'),
    index: new Map(fields.map((f, i) => [f.name, i])),
  };
}

export const PIPE_FORMATS: readonly PipeFormat[] = [
  define('LEDES1998B', LEDES1998B_TOKEN, [], LEDES1998B_FIELDS),
  define('LEDES98BI_V2', LEDES98BI_TOKEN, LEDES98BI_ALT_TOKENS, LEDES98BI_FIELDS),
];

/** Token line (without its `[]`) → format and whether the token is the canonical one. */
export function formatFromToken(token: string): { format: PipeFormat; canonical: boolean } | undefined {
  for (const format of PIPE_FORMATS) {
    if (token === format.token) return { format, canonical: true };
    if (format.altTokens.includes(token)) return { format, canonical: false };
  }
  return undefined;
}

/** Header line (without its `[]`) → the format whose exact header it is. */
export function formatFromHeader(header: string): PipeFormat | undefined {
  return PIPE_FORMATS.find((f) => f.header === header);
}

/** Best guess when neither token nor header is exact: by field count. */
export function formatFromFieldCount(count: number): PipeFormat | undefined {
  return PIPE_FORMATS.find((f) => f.fields.length === count);
}
