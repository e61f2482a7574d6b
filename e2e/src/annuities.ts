import ExcelJS from 'exceljs';
import type { APIRequestContext, Page } from 'playwright-core';
import type { AnnuityFileDto, AnnuityPatentDto } from '@portal/contracts';
import { ENGLISH_HEADERS, xlsxBuffer, type Cell } from '../../packages/annuities/test/support/workbooks.ts';
import { apiHeaders, createUser, type CreatedUser } from './users.ts';

/**
 * Annuity files for the browser tests: a user_annuites created by an admin, workbooks generated with
 * exceljs and uploaded through the API with the browser's session, waited on until Done.
 */

const HEADERS = [...ENGLISH_HEADERS, 'Origin'];

export type AnnuityUser = CreatedUser;

/** A user_annuites whose account language is `langue` (the interface follows it at login). */
export function createAnnuityUser(adminPage: Page, tag: string, langue: 'en' | 'fr' = 'en'): Promise<AnnuityUser> {
  return createUser(adminPage, { role: 'user_annuites', tag: `annuities-${tag}`, company: `Annuities ${tag}`, langue });
}

/** dd/mm/yyyy of the 15th of the month `monthsAgo` months before today, `yearsAgo` years earlier. */
function filedAgo(yearsAgo: number, monthsAgo: number): string {
  const now = new Date();
  const d = new Date(Date.UTC(now.getUTCFullYear() - yearsAgo, now.getUTCMonth() - monthsAgo, 15));
  return `15/${String(d.getUTCMonth() + 1).padStart(2, '0')}/${d.getUTCFullYear()}`;
}

/**
 * The rows of a test portfolio: `count` rows cycling through the four colours as of today (FR
 * national patents, an annuity due at the end of the filing month each year):
 * - ok: filed 6 years less 3 months ago, nothing said paid → the next annuity falls due in about 3 months,
 *   the last one's grace period is over (without payment data an annuity due within 37 days, or in grace, is red);
 * - nok: filed 6 years and 2 months ago, the 6th annuity the last paid → the 7th fell due about two
 *   months ago, still in its grace period;
 * - orange: filed 26 years ago (expired), or (every other one) filed 8 years ago with only the 3rd
 *   annuity paid (lapsed: a previous annuity, no next one);
 * - no_date: no filing date.
 * References are `<tag>-<000>`, unique to the file.
 */
export function portfolioRows(tag: string, count: number): Cell[][] {
  return Array.from({ length: count }, (_, i) => {
    const n = String(i).padStart(3, '0');
    const publication = `FR${3_000_000 + i}`;
    switch (i % 4) {
      case 0:
        return [publication, `20${String(10000 + i)}`, `${tag}-${n}`, `Widget ${n}`, 'FR', 'Client A', filedAgo(6, -3), null, null, null, null];
      case 1:
        return [publication, `19${String(10000 + i)}`, `${tag}-${n}`, `Gadget ${n}`, 'FR', 'Client B', filedAgo(6, 2), null, 6, null, null];
      case 2:
        return i % 8 === 2
          ? [publication, `00${String(10000 + i)}`, `${tag}-${n}`, `Old ${n}`, 'FR', 'Client A', filedAgo(26, 0), null, null, null, null]
          : [publication, `18${String(10000 + i)}`, `${tag}-${n}`, `Lapsed ${n}`, 'FR', 'Client B', filedAgo(8, 0), null, 3, null, null];
      default:
        return [null, null, `${tag}-${n}`, `Undated ${n}`, 'FR', null, null, null, null, null, null];
    }
  });
}

export async function workbook(rows: Iterable<Cell[]>): Promise<Buffer> {
  return xlsxBuffer([{ name: 'Portfolio', headers: HEADERS, rows }]);
}

function sessionHeaders(): Record<string, string> {
  const { 'content-type': _json, ...rest } = apiHeaders();
  return rest;
}

/** Uploads a workbook with the session of `request` and waits until the file leaves in_progress. */
export async function uploadChecked(request: APIRequestContext, name: string, title: string, content: Buffer, timeoutMs = 120_000): Promise<AnnuityFileDto> {
  const res = await request.post('/api/brevets/annuite', {
    headers: sessionHeaders(),
    multipart: { title, file: { name, mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: content } },
    timeout: 120_000,
  });
  if (res.status() !== 200) throw new Error(`upload ${name}: ${res.status()} ${await res.text()}`);
  const { _id } = (await res.json()) as { _id: string };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const file = await fileById(request, _id);
    if (file && file.is_done !== 'in_progress') {
      if (file.is_done !== 'Done') throw new Error(`${name} ended ${file.is_done} ${file.error_code}`);
      return file;
    }
    if (Date.now() > deadline) throw new Error(`${name} still ${file?.is_done}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

export async function fileById(request: APIRequestContext, id: string): Promise<AnnuityFileDto | undefined> {
  const list = await request.get('/api/annuite/files?limit=100', { headers: sessionHeaders() });
  return ((await list.json()) as { data: AnnuityFileDto[] }).data.find((f) => f._id === id);
}

export async function patentsOf(request: APIRequestContext, fileId: string): Promise<AnnuityPatentDto[]> {
  const res = await request.get(`/api/brevets/file/${fileId}?limit=all`, { headers: sessionHeaders() });
  if (res.status() !== 200) throw new Error(`patents: ${res.status()}`);
  return ((await res.json()) as { patents: AnnuityPatentDto[] }).patents;
}

/** The export's first sheet as header → value rows; retries while the queue rewrites it (409 export_pending). */
export async function exportRows(request: APIRequestContext, fileId: string, timeoutMs = 90_000): Promise<Record<string, unknown>[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const file = await fileById(request, fileId);
    if (!file?.path_export) throw new Error('no export');
    const res = await request.get(`/api/annuite/files/download?file_path=${encodeURIComponent(file.path_export)}`, { headers: sessionHeaders(), timeout: 30_000 });
    if (res.status() === 200) {
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load((await res.body()) as unknown as ArrayBuffer);
      const ws = wb.worksheets[0]!;
      const headers = (ws.getRow(1).values as unknown[]).slice(1).map(String);
      const rows: Record<string, unknown>[] = [];
      ws.eachRow((row, n) => {
        if (n === 1) return;
        const values = (row.values as unknown[]).slice(1);
        rows.push(Object.fromEntries(headers.map((h, i) => [h, values[i] ?? null])));
      });
      return rows;
    }
    if (res.status() !== 409 || Date.now() > deadline) throw new Error(`export download: ${res.status()} ${await res.text()}`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/** A cell of the export as a YYYY-MM-DD day, whatever way it was written (date cell or text). */
export function exportDay(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value !== 'string' && typeof value !== 'number') return JSON.stringify(value);
  const s = String(value);
  const iso = /^(\d{4})-(\d{2})-(\d{2})/.exec(s);
  if (iso) return `${iso[1]}-${iso[2]}-${iso[3]}`;
  const dmy = /^(\d{2})[-/.](\d{2})[-/.](\d{4})$/.exec(s);
  return dmy ? `${dmy[3]}-${dmy[2]}-${dmy[1]}` : s;
}
