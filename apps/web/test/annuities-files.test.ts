import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { AnnuityFileDto, AnnuityFilesResponse } from '@portal/contracts';
import { hasExtension } from '../src/lib/files.ts';
import { queryKeys } from '../src/lib/queryKeys.ts';
import { applyFileEvent } from '../src/features/annuities/filesApi.ts';
import { ANNUITY_FILE_RULES, canOpen, displayName, fileStatus, pageHasRunning, patchFilePage, progressPercent } from '../src/features/annuities/filesModel.ts';

function file(id: string, over: Partial<AnnuityFileDto> = {}): AnnuityFileDto {
  return {
    _id: id,
    title: null,
    name_file_import: `${id}.xlsx`,
    name_file_export: `${id}_export.xlsx`,
    created: '2026-11-23T10:00:00.000Z',
    path_import: `annuities/import/${id}.xlsx`,
    path_export: null,
    is_done: 'in_progress',
    error_code: null,
    error_message: null,
    rows_done: 0,
    rows_total: null,
    counts: null,
    reference_date: null,
    export_stale: false,
    ...over,
  };
}

const pageOf = (...files: AnnuityFileDto[]): AnnuityFilesResponse => ({
  success: true,
  data: files,
  meta: { total: files.length, currentPage: 1, pageSize: 5, totalPages: 1 },
});

describe('annuities file list model', () => {
  it('accepts .xlsx and .xls whatever the case, nothing else', () => {
    for (const name of ['a.xlsx', 'B.XLSX', 'c.Xls']) expect(hasExtension(name, ANNUITY_FILE_RULES.extensions)).toBe(true);
    for (const name of ['a.csv', 'a.xlsm', 'xlsx', 'a.xlsx.pdf']) expect(hasExtension(name, ANNUITY_FILE_RULES.extensions)).toBe(false);
    expect(ANNUITY_FILE_RULES.maxFiles).toBe(1);
  });

  it('maps the three states, and only a Done file opens', () => {
    expect([fileStatus('Done'), fileStatus('in_progress'), fileStatus('Error')]).toEqual(['done', 'running', 'error']);
    expect(canOpen(file('a', { is_done: 'Done' }))).toBe(true);
    expect(canOpen(file('a'))).toBe(false);
    expect(canOpen(file('a', { is_done: 'Error' }))).toBe(false);
  });

  it('gives the progress in percent, null while the total is unknown, never above 100', () => {
    expect(progressPercent(file('a', { rows_done: 10 }))).toBeNull();
    expect(progressPercent(file('a', { rows_done: 0, rows_total: 0 }))).toBeNull();
    expect(progressPercent(file('a', { rows_done: 250, rows_total: 1000 }))).toBe(25);
    expect(progressPercent(file('a', { rows_done: 1001, rows_total: 1000 }))).toBe(100);
  });

  it('shows the title when there is one, else the uploaded name', () => {
    expect(displayName(file('a', { title: '  Portfolio Q4 ' }))).toBe('Portfolio Q4');
    expect(displayName(file('a', { title: '  ' }))).toBe('a.xlsx');
  });

  it('patches a listed file in place, keeps the owner an admin page read, and never moves a finished row back', () => {
    const owner = { _id: '00000000-0000-4000-8000-000000000001', email: 'a@portal.test', company_agent: 'A' };
    const page = pageOf(file('a', { owner }), file('b'));
    const progressed = patchFilePage(page, file('a', { rows_done: 40, rows_total: 100 }));
    expect(progressed.found).toBe(true);
    expect(progressed.page.data[0]).toMatchObject({ rows_done: 40, owner });
    expect(progressed.page.data[1]).toBe(page.data[1]);

    const done = patchFilePage(progressed.page, file('a', { is_done: 'Done', rows_done: 100, rows_total: 100 })).page;
    const late = patchFilePage(done, file('a', { rows_done: 90, rows_total: 100 }));
    expect(late.found).toBe(true);
    expect(late.page).toBe(done);
    expect(patchFilePage(page, file('z')).found).toBe(false);
    expect(pageHasRunning(done)).toBe(true); // b is still running
    expect(pageHasRunning(pageOf(file('c', { is_done: 'Error' })))).toBe(false);
  });

  it('a progress event patches the cache without a request; a new file or a transition reads the lists again', async () => {
    const client = new QueryClient();
    const key = queryKeys.annuities.fileList({ page: 1, limit: 5, search: '', sort: 'date', order: 'desc' });
    client.setQueryData(key, pageOf(file('a')));
    const stale = () => client.getQueryCache().find({ queryKey: key })!.state.isInvalidated;

    applyFileEvent(client, file('a', { rows_done: 5, rows_total: 10 }));
    expect(client.getQueryData<AnnuityFilesResponse>(key)!.data[0]!.rows_done).toBe(5);
    expect(stale()).toBe(false);

    applyFileEvent(client, file('a', { is_done: 'Done', rows_done: 10, rows_total: 10 }));
    expect(client.getQueryData<AnnuityFilesResponse>(key)!.data[0]!.is_done).toBe('Done');
    expect(stale()).toBe(true);

    client.setQueryData(key, pageOf(file('a', { is_done: 'Done' })));
    expect(stale()).toBe(false);
    applyFileEvent(client, file('new'));
    expect(stale()).toBe(true);
  });
});
