import { describe, expect, it } from 'vitest';
import { CODE_SETS, DEFAULT_OFFICES, DEFAULT_PROFILES, defaultProfile, INVOICE_TYPES } from '../src/index.ts';
import { allowedCodes } from '../src/rules/codes.ts';

describe('default profiles (seed data)', () => {
  it('has three offices with a short code, labels and one profile per invoice type', () => {
    expect(DEFAULT_OFFICES.map((o) => o.code)).toEqual(['PAR', 'LON', 'MUC']);
    for (const office of DEFAULT_OFFICES) {
      expect(office.label_en).toBeTruthy();
      expect(office.label_fr).toBeTruthy();
      expect(office.profiles.map((p) => p.type)).toEqual([...INVOICE_TYPES]);
    }
    expect(DEFAULT_PROFILES).toHaveLength(9);
  });

  it('is plain JSON (the DB package stores it as is)', () => {
    expect(JSON.parse(JSON.stringify(DEFAULT_OFFICES))).toEqual(DEFAULT_OFFICES);
  });

  it('the first office accepts the UTBMS litigation tasks, activities and expenses E101–E131', () => {
    const first = DEFAULT_OFFICES[0]!;
    for (const profile of first.profiles) {
      const codes = allowedCodes(profile);
      for (const task of Object.keys(CODE_SETS['utbms-litigation'].codes)) expect(codes.tasks.has(task), task).toBe(true);
      for (const activity of Object.keys(CODE_SETS['utbms-activity'].codes)) expect(codes.activities.has(activity), activity).toBe(true);
      for (let n = 101; n <= 131; n++) expect(codes.expenses.has(`E${n}`), `E${n}`).toBe(true);
    }
    expect(defaultProfile('PAR', 'patent')).toBe(first.profiles[0]);
    expect(defaultProfile('XXX', 'patent')).toBeUndefined();
  });
});
