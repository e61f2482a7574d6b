import { describe, expect, it } from 'vitest';
import { bulkInstructionBody, isIsoDay, patentInstructionBody, patentListQuery, PATENT_BULK_MAX_ROWS, PATENT_PAGE_MAX } from '../src/index.ts';

const codeOf = (result: { success: boolean; error?: { issues: Array<{ message: string }> } }) => result.error?.issues[0]?.message;

describe('patent list query (spec §5 filters)', () => {
  it('defaults to the unprocessed tab by due date, 20 a page', () => {
    expect(patentListQuery.parse({})).toEqual({ tab: 'unprocessed', sort: 'DateEcheance', order: 'asc', page: 1, limit: 20 });
  });

  it('reads one due date or a range, in either order, and refuses anything else with the spec’s alert code', () => {
    expect(patentListQuery.parse({ dates: '2027-01-31' }).dates).toEqual(['2027-01-31']);
    expect(patentListQuery.parse({ dates: '2027-12-31;2027-01-01' }).dates).toEqual(['2027-01-01', '2027-12-31']);
    for (const bad of ['2027-1-31', '31-01-2027', '2027-02-30', '2027-01-01;2027-02-01;2027-03-01', '2027-01-01;', 'x']) {
      expect(codeOf(patentListQuery.safeParse({ dates: bad })), bad).toBe('invalid_date_format');
    }
  });

  it('splits references, instructions and offices on semicolons, trimmed, empty parts dropped', () => {
    const q = patentListQuery.parse({ references: ' ABC ;; 123;', instruction: '1;3', office: 'ep;fr' });
    expect(q.references).toEqual(['ABC', '123']);
    expect(q.instruction).toEqual([1, 3]);
    expect(q.office).toEqual(['EP', 'FR']);
    expect(patentListQuery.safeParse({ office: 'E1' }).success).toBe(false);
    expect(patentListQuery.safeParse({ references: Array.from({ length: 51 }, (_, i) => `r${i}`).join(';') }).success).toBe(false);
  });

  it('bounds the page size and whitelists tabs and sort keys', () => {
    expect(patentListQuery.safeParse({ limit: String(PATENT_PAGE_MAX + 1) }).success).toBe(false);
    expect(patentListQuery.safeParse({ limit: '0' }).success).toBe(false);
    expect(patentListQuery.safeParse({ tab: 'validated' }).success).toBe(false);
    expect(patentListQuery.safeParse({ sort: 'search_text' }).success).toBe(false);
    expect(patentListQuery.safeParse({ unknown: '1' }).success).toBe(false);
  });
});

describe('instruction updates', () => {
  it('needs the instruction and the version read', () => {
    expect(patentInstructionBody.safeParse({ instruction_paiement: 1 }).success).toBe(false);
    expect(patentInstructionBody.safeParse({ instruction_paiement: 1, version: 0 }).success).toBe(false);
    expect(patentInstructionBody.parse({ instruction_paiement: 9, version: 3 })).toEqual({ instruction_paiement: 9, version: 3 });
  });

  it('bounds the bulk update and keeps the screen’s row fields', () => {
    const row = { idagenda: 'A1', ReferenceClient: 'R', noDepot: null, NoPublication: 'P', Pays: 'EP', DateEcheance: '2027-01-01', instructionBeingUpdated: 2, version: 1 };
    expect(bulkInstructionBody.parse({ patents: [row] })).toEqual({ patents: [row], not_updated: [] });
    expect(bulkInstructionBody.safeParse({ patents: [] }).success).toBe(false);
    expect(bulkInstructionBody.safeParse({ patents: Array.from({ length: PATENT_BULK_MAX_ROWS + 1 }, () => row) }).success).toBe(false);
    expect(bulkInstructionBody.safeParse({ patents: [{ ...row, isSelected: true }] }).success).toBe(false);
  });

  it('knows a real calendar day', () => {
    expect(isIsoDay('2028-02-29')).toBe(true);
    expect(isIsoDay('2027-02-29')).toBe(false);
  });
});
