import { neutralise } from '@portal/xlsx';

/**
 * A CSV file as the back office exports it: UTF-8 (with or without BOM; Windows-1252 when it is not
 * valid UTF-8), `;`, `,` or tab separated (the header line decides), RFC 4180 quotes. Returns the
 * rows as arrays of fields, the header first; blank lines are skipped. Bounded by the upload's cap.
 */
export function parseCsv(bytes: Buffer): string[][] {
  let textValue: string;
  try {
    textValue = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    textValue = new TextDecoder('windows-1252').decode(bytes);
  }
  if (textValue.charCodeAt(0) === 0xfeff) textValue = textValue.slice(1);
  const firstLine = textValue.slice(0, textValue.search(/\r?\n|$/));
  const counts = [';', ',', '\t'].map((sep) => ({ sep, n: firstLine.split(sep).length }));
  const separator = counts.sort((a, b) => b.n - a.n)[0]!.sep;

  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  const length = textValue.length;
  const endRow = () => {
    row.push(field);
    field = '';
    if (!(row.length === 1 && row[0] === '')) rows.push(row);
    row = [];
  };
  while (i < length) {
    const ch = textValue[i]!;
    if (quoted) {
      if (ch === '"') {
        if (textValue[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        continue;
      }
      field += ch;
      i++;
      continue;
    }
    if (ch === '"' && field === '') {
      quoted = true;
      i++;
    } else if (ch === separator) {
      row.push(field);
      field = '';
      i++;
    } else if (ch === '\r' && textValue[i + 1] === '\n') {
      endRow();
      i += 2;
    } else if (ch === '\n' || ch === '\r') {
      endRow();
      i++;
    } else {
      field += ch;
      i++;
    }
  }
  if (field !== '' || row.length > 0) endRow();
  return rows;
}

/** One CSV line (`;`-separated, CRLF), quoted where needed, texts neutralised against formula injection as the xlsx writer's callers do. */
export function csvLine(values: ReadonlyArray<string | number | null>): string {
  return (
    values
      .map((value) => {
        if (value === null) return '';
        const textValue = typeof value === 'number' ? String(value) : neutralise(value);
        return /[";\r\n]/.test(textValue) ? `"${textValue.replace(/"/g, '""')}"` : textValue;
      })
      .join(';') + '\r\n'
  );
}
