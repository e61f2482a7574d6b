import { describe, expect, it } from 'vitest';
import { parseIsoDate } from '@portal/annuities/core';
import { csvLine, mapHeaders, parseCsv, prepareRow, rateOn, rawFromCells, reminderStep, type RateTable } from '../src/index.ts';

const TODAY = parseIsoDate('2027-03-01')!;
const RATES: RateTable = new Map([
  ['GBP', [{ validFrom: '2026-01-01', eurPerUnit: 1.1 }, { validFrom: '2027-01-01', eurPerUnit: 1.2 }]],
  ['SEK', [{ validFrom: '2020-01-01', eurPerUnit: 0.09 }]],
]);
const raw = (values: Record<string, unknown>) => ({ values, present: new Set(Object.keys(values)) as never });
const base = { idagenda: 'A', code_client: 'C', cabinet: 'Cab', Pays: 'fr' };

describe('portfolio rows', () => {
  it('the rate valid on the day: the latest from that day or before; none before the first; euros are 1', () => {
    expect(rateOn(RATES, 'GBP', '2026-12-31')).toBe(1.1);
    expect(rateOn(RATES, 'GBP', '2027-01-01')).toBe(1.2);
    expect(rateOn(RATES, 'GBP', '2025-12-31')).toBeNull();
    expect(rateOn(RATES, 'EUR', '1990-01-01')).toBe(1);
    expect(rateOn(RATES, 'USD', '2027-01-01')).toBeNull();
  });

  it('a fee in another currency is converted with the rate of its due date; an unknown currency refuses the row', () => {
    expect(prepareRow(raw({ ...base, DateEcheance: '2026-06-30', cost: '100', currency: 'GBP' }), RATES, TODAY)).toMatchObject({ ok: true, row: { cost: '110.00', pays: 'FR' } });
    expect(prepareRow(raw({ ...base, DateEcheance: '2027-06-30', cost: '1 000,5', currency: 'gbp' }), RATES, TODAY)).toMatchObject({ ok: true, row: { cost: '1200.60' } });
    expect(prepareRow(raw({ ...base, cost: 5, currency: 'XYZ' }), RATES, TODAY)).toEqual({ ok: false, code: 'unknown_currency', field: 'currency' });
  });

  it('missing due date, annuity number and fee come from the engine (office, origin, filing date); SE fees in crowns are converted', () => {
    const fr = prepareRow(raw({ ...base, Depot: '2019-05-10', Origine: 'national' }), RATES, TODAY);
    expect(fr).toMatchObject({ ok: true, row: { dateEcheance: '2027-05-31', quantieme: 9, cost: '180.00' } });
    // Annuity number given: its due date and fee.
    expect(prepareRow(raw({ ...base, Depot: '2019-05-10', Quantieme: 10 }), RATES, TODAY)).toMatchObject({ ok: true, row: { dateEcheance: '2028-05-31', quantieme: 10 } });
    const se = prepareRow(raw({ ...base, Pays: 'SE', Depot: '2015-03-31' }), RATES, TODAY);
    expect(se.ok && Number(se.row.cost)).toBeGreaterThan(0);
    // Without a filing date nothing can be computed: the row is kept with the gaps (missing information).
    expect(prepareRow(raw({ ...base }), RATES, TODAY)).toMatchObject({ ok: true, row: { dateEcheance: null, quantieme: null, cost: null } });
  });

  it('refuses rows without the keys, with bad dates or numbers, or too long values', () => {
    expect(prepareRow(raw({ code_client: 'C', cabinet: 'X', Pays: 'FR' }), RATES, TODAY)).toEqual({ ok: false, code: 'missing_idagenda' });
    expect(prepareRow(raw({ ...base, cabinet: ' ' }), RATES, TODAY)).toEqual({ ok: false, code: 'missing_cabinet' });
    expect(prepareRow(raw({ ...base, Pays: null }), RATES, TODAY)).toEqual({ ok: false, code: 'missing_country' });
    expect(prepareRow(raw({ ...base, Depot: '2027-02-30' }), RATES, TODAY)).toEqual({ ok: false, code: 'invalid_date', field: 'Depot' });
    expect(prepareRow(raw({ ...base, Quantieme: '3.5' }), RATES, TODAY)).toEqual({ ok: false, code: 'invalid_number', field: 'Quantieme' });
    expect(prepareRow(raw({ ...base, cost: '-1' }), RATES, TODAY)).toEqual({ ok: false, code: 'invalid_cost', field: 'cost' });
    expect(prepareRow(raw({ ...base, TitreAnglais: 'x'.repeat(1001) }), RATES, TODAY)).toEqual({ ok: false, code: 'value_too_long', field: 'TitreAnglais' });
    // Control characters are dropped, dates in DD/MM/YYYY and Excel dates are read.
    expect(prepareRow(raw({ ...base, ReferenceClient: 'R\u0000\u0007EF', DateAcquit: '05/01/2027', DatePaiementOffice: new Date('2027-01-06T00:00:00Z') }), RATES, TODAY)).toMatchObject({
      ok: true,
      row: { referenceClient: 'REF', dateAcquit: '2027-01-05', datePaiementOffice: '2027-01-06' },
    });
  });

  it('issue 25 §3: a negative or non-numeric cost is refused as invalid_cost, never read as another amount', () => {
    for (const cost of ['-50', -50, '- 50', 'abc', '50 €', '1e3', true]) {
      expect(prepareRow(raw({ ...base, cost }), RATES, TODAY), String(cost)).toEqual({ ok: false, code: 'invalid_cost', field: 'cost' });
    }
    expect(prepareRow(raw({ ...base, cost: '1 250,50' }), RATES, TODAY)).toMatchObject({ ok: true, row: { cost: '1250.50' } });
  });

  it('issue 25 §3: an identifier cell starting with = + - @ is refused with its field, not neutralised', () => {
    const cases: Array<[string, unknown]> = [
      ['idagenda', '=HYPERLINK("http://x")'],
      ['code_client', '+CODE'],
      ['idbrevet', '@SUM(A1)'],
      ['ReferenceClient', '-2+3'],
      ['nosref', '  =1+1'],
      ['noDepot', '-2005555'],
      ['NoPublication', -3000001],
    ];
    for (const [field, value] of cases) {
      expect(prepareRow(raw({ ...base, [field]: value }), RATES, TODAY), field).toEqual({ ok: false, code: 'formula_not_allowed', field });
    }
    // Inside a value they are plain characters.
    expect(prepareRow(raw({ ...base, ReferenceClient: 'A-1=B+C@D' }), RATES, TODAY)).toMatchObject({ ok: true, row: { referenceClient: 'A-1=B+C@D' } });
  });

  it('issue 25 §3: application and publication numbers must match the format of the row’s office (the engine’s parser)', () => {
    expect(prepareRow(raw({ ...base, noDepot: 'FR1' }), RATES, TODAY)).toEqual({ ok: false, code: 'invalid_application_number', field: 'noDepot' });
    expect(prepareRow(raw({ ...base, noDepot: 'DE102007004488' }), RATES, TODAY)).toEqual({ ok: false, code: 'invalid_application_number', field: 'noDepot' });
    expect(prepareRow(raw({ ...base, Pays: 'EP', noDepot: 'EP16839078.3' }), RATES, TODAY)).toEqual({ ok: false, code: 'invalid_application_number', field: 'noDepot' });
    expect(prepareRow(raw({ ...base, NoPublication: '30000012' }), RATES, TODAY)).toEqual({ ok: false, code: 'invalid_publication_number', field: 'NoPublication' });
    // As typed in the office's formats (with or without prefix, kind code, a number cell): kept as given.
    expect(prepareRow(raw({ ...base, noDepot: 2005555, NoPublication: 'FR 3 000 001 A1' }), RATES, TODAY)).toMatchObject({ ok: true, row: { numeroDepot: '2005555', numeroPublication: 'FR 3 000 001 A1' } });
    expect(prepareRow(raw({ ...base, Pays: 'EP', noDepot: 'EP16839078.9', NoPublication: 'EP1234567B1' }), RATES, TODAY)).toMatchObject({ ok: true });
    // An office the engine does not know: only a number naming a known office is checked.
    expect(prepareRow(raw({ ...base, Pays: 'US', noDepot: '17/123,456' }), RATES, TODAY)).toMatchObject({ ok: true, row: { numeroDepot: '17/123,456' } });
    expect(prepareRow(raw({ ...base, Pays: 'US', NoPublication: 'EP12345678' }), RATES, TODAY)).toEqual({ ok: false, code: 'invalid_publication_number', field: 'NoPublication' });
  });

  it('headers: the wire names whatever the case or accents, an idagenda column required', () => {
    const columns = mapHeaders(['IdAgenda', 'Code client', 'Cabinet', 'Pays', 'Date échéance', 'Coût', 'Devise'])!;
    expect(Object.fromEntries(columns)).toEqual({ idagenda: 0, code_client: 1, cabinet: 2, Pays: 3, DateEcheance: 4, cost: 5, currency: 6 });
    expect(mapHeaders(['Pays', 'Cabinet'])).toBeNull();
    expect(rawFromCells(columns, ['A', 'C']).values).toMatchObject({ idagenda: 'A', code_client: 'C', cabinet: null });
  });

  it('CSV: separator from the header, quotes, CRLF, BOM, Windows-1252; lines written neutralised', () => {
    expect(parseCsv(Buffer.from('\ufeffa;b\r\n"x;1";"say ""hi"""\r\n\r\n2;\n'))).toEqual([['a', 'b'], ['x;1', 'say "hi"'], ['2', '']]);
    expect(parseCsv(Buffer.from('a,b\n1,2'))).toEqual([['a', 'b'], ['1', '2']]);
    expect(parseCsv(Buffer.from([0x61, 0x3b, 0x62, 0x0a, 0xe9, 0x3b, 0x31]))).toEqual([['a', 'b'], ['é', '1']]);
    expect(csvLine(['=SUM(A1)', 'a;b', 3, null])).toBe(`'=SUM(A1);"a;b";3;\r\n`);
  });

  it('reminder steps by days left until the limit date: 30–15 first call, 14–8 reminder, 7–0 last call', () => {
    expect([31, 30, 15, 14, 8, 7, 0, -1].map(reminderStep)).toEqual([null, 'first_call', 'first_call', 'reminder', 'reminder', 'last_call', 'last_call', null]);
  });
});
