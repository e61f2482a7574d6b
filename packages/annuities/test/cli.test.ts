import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../bin/annuities.mjs', import.meta.url));
const run = (...args: string[]) => JSON.parse(execFileSync(process.execPath, [BIN, 'schedule', ...args, '--json'], { encoding: 'utf8' })) as Record<string, unknown>;

describe('CLI on the worked examples of annuities.md', () => {
  it('§2.1 worked example (lines 50-55): EP filed 15 Mar 2018', () => {
    const out = run('--office', 'EP', '--origin', 'ep_application', '--filing', '2018-03-15', '--today', '2019-01-01', '--application', 'EP16839078');
    const annuities = out.annuities as Array<Record<string, unknown>>;
    // Priced on its due date (the planned payment day), which precedes every EP table known (the oldest from 1 April
    // 2023): the oldest table's amount is shown, marked unverified.
    expect(annuities[0]).toMatchObject({ number: 3, due_date: '2020-03-31', grace_end: '2020-09-30', fee: '530.00', currency: 'EUR', fee_table: 'EP-2023-04-01', fee_verified: false, payment_date: '2020-03-31' });
    expect(annuities.find((a) => a.number === 7)).toMatchObject({ due_date: '2024-03-31', grace_end: '2024-09-30' });
    expect(out).toMatchObject({
      quant_precedent: null,
      date_precedente_annuite: null,
      next_number: 3,
      date_prochaine_annuite: '2020-03-31',
      instruction_limit: '2020-03-24',
      limite_date_prochaine_annuite: '2020-09-30',
      in_grace_with_surcharge: false,
      dechu: false,
      expired: false,
      colour: 'ok',
      url: 'https://register.epo.org/application?number=EP16839078&lng=en&tab=main',
    });
  });

  it('--payment-day prices the next annuity on that day (SE 12th year: 3,800 on 17 Mar 2023, 4,000 from 18 Mar; decision 194)', () => {
    const at = (paymentDay: string) =>
      (run('--office', 'SE', '--filing', '2012-01-10', '--last-paid', '11', '--today', '2023-01-02', '--payment-day', paymentDay).annuities as Array<Record<string, unknown>>).find((a) => a.number === 12);
    expect(at('2023-03-17')).toMatchObject({ due_date: '2023-01-31', payment_date: '2023-03-17', fee: '3800.00', fee_table: 'SE-2018-01-01', fee_verified: true });
    expect(at('2023-03-18')).toMatchObject({ payment_date: '2023-03-18', fee: '4000.00', fee_table: 'SE-2023-03-18', fee_verified: true });
  });

  it('§2.1 DE and ES columns of the worked example', () => {
    const de = run('--office', 'DE', '--filing', '2018-03-15', '--today', '2019-01-01');
    expect((de.annuities as Array<Record<string, unknown>>)[0]).toMatchObject({ number: 3, no_surcharge_end: '2020-06-02', grace_end: '2020-09-30' }); // 31 May 2020 a Sunday, 1 June Whit Monday (§ 193 BGB)
    const es = run('--office', 'ES', '--filing', '2018-03-15', '--today', '2019-01-01');
    expect((es.annuities as Array<Record<string, unknown>>)[0]).toMatchObject({ number: 3, no_surcharge_end: '2020-06-30', grace_end: '2020-12-31' });
  });

  it('§2.2 hand-over example (lines 67-71): national year 7 due 31 Mar 2024, IT fee 120, UP fee 630', () => {
    const it7 = run('--office', 'IT', '--origin', 'ep_validated', '--filing', '2018-03-15', '--grant', '2024-01-10', '--today', '2024-01-11');
    expect(it7).toMatchObject({ next_number: 7, date_prochaine_annuite: '2024-03-31', instruction_limit: '2024-03-24', colour: 'ok' });
    expect((it7.annuities as Array<Record<string, unknown>>)[0]).toMatchObject({ number: 7, fee: '120.00' });
    const up = run('--office', 'UP', '--origin', 'unitary', '--filing', '2018-03-15', '--grant', '2024-01-10', '--today', '2024-01-11');
    expect((up.annuities as Array<Record<string, unknown>>)[0]).toMatchObject({ number: 7, due_date: '2024-03-31', fee: '630.00' });
    const ep = run('--office', 'EP', '--origin', 'ep_application', '--filing', '2018-03-15', '--grant', '2024-01-10', '--today', '2024-06-01');
    expect((ep.annuities as Array<Record<string, unknown>>).map((a) => a.number)).toEqual([3, 4, 5, 6]);
    expect(ep).toMatchObject({ next_number: null, colour: 'orange' });
  });

  it('the brief example: FR national, last paid 6, today 2026-11-21', () => {
    const out = run('--office', 'FR', '--origin', 'national', '--filing', '2018-03-15', '--last-paid', '6', '--today', '2026-11-21');
    // Annuity 7 (due 31 Mar 2024) unpaid and its grace ended 30 Sep 2024: lapsed.
    expect(out).toMatchObject({ quant_precedent: 6, date_precedente_annuite: '2023-03-31', next_number: null, dechu: true, colour: 'orange' });
  });

  it('bad input gives a reason code and exit status 1', () => {
    expect(() => execFileSync(process.execPath, [BIN, 'schedule', '--office', 'ES', '--origin', 'unitary', '--filing', '2018-03-15'], { stdio: 'pipe' })).toThrow(/unitary_not_available/);
  });
});
