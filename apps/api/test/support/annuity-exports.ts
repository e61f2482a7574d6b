import ExcelJS from 'exceljs';
import { expect } from 'vitest';
import type { AnnuityFileDto } from '@portal/contracts';
import type { TestClient } from './portal.ts';

/** Downloads a checked file's annotated export through the API, as the file list's link does. */
export async function downloadExport(client: TestClient, file: AnnuityFileDto): Promise<ExcelJS.Workbook> {
  const res = await fetch(`${(client as unknown as { baseUrl: string }).baseUrl}/api/annuite/files/download?file_path=${encodeURIComponent(file.path_export!)}`, {
    headers: { cookie: client.cookieHeader(), 'x-api-key': (client as unknown as { options: { apiKey: string } }).options.apiKey },
  });
  expect(res.status).toBe(200);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as unknown as ArrayBuffer);
  return wb;
}

/** A sheet's data rows as header → value objects; with `isoDates`, date cells as YYYY-MM-DD. */
export function sheetRows(ws: ExcelJS.Worksheet, { isoDates = false } = {}): Array<Record<string, unknown>> {
  const headers = (ws.getRow(1).values as unknown[]).slice(1).map(String);
  const rows: Array<Record<string, unknown>> = [];
  ws.eachRow((row, n) => {
    if (n === 1) return;
    const values = (row.values as unknown[]).slice(1);
    rows.push(Object.fromEntries(headers.map((h, i) => [h, isoDates && values[i] instanceof Date ? values[i].toISOString().slice(0, 10) : (values[i] ?? null)])));
  });
  return rows;
}
