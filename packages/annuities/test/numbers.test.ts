import { describe, expect, it } from 'vitest';
import { deCheckDigit, epCheckDigit, parseNumber, type NumberKind } from '../src/numbers.ts';
import type { ReasonCode } from '../src/reasons.ts';
import { registerUrl } from '../src/registers.ts';
import type { Office, Origin } from '../src/types.ts';

describe('check digits on the real numbers of annuities.md §5', () => {
  it.each([
    ['16839078', '9'],
    ['04753697', '4'],
  ])('EP %s.%s (line 244)', (digits, check) => expect(epCheckDigit(digits)).toBe(check));

  it.each([
    ['102007004488', '9'],
    ['112014005344', '9'],
    ['102024122387', '1'],
    ['202023102823', '3'],
  ])('DE %s.%s (line 245)', (digits, check) => expect(deCheckDigit(digits)).toEqual({ digit: check, certain: true }));
});

interface NumberCase {
  raw: string;
  kind: NumberKind;
  row?: Office;
  source: string;
  normalised?: string;
  kindCode?: string | null;
  check?: string | null;
  status?: string;
  reason?: ReasonCode;
}

const numberCases: NumberCase[] = [
  { raw: 'EP 16839078.9', kind: 'application', source: 'annuities.md §5, line 232', normalised: 'EP16839078', check: '9', status: 'verified' },
  { raw: 'EP16839078', kind: 'application', source: 'annuities.md §5, line 232', normalised: 'EP16839078', check: '9', status: 'computed' },
  { raw: 'EP2016839078', kind: 'application', source: 'annuities.md §5, line 232', normalised: 'EP16839078', check: '9' },
  { raw: 'ep 04 753 697-4', kind: 'application', source: 'annuities.md §5, line 244', normalised: 'EP04753697', status: 'verified' },
  { raw: '04753697.5', kind: 'application', row: 'EP', source: 'annuities.md §5, line 251', reason: 'check_digit_mismatch' },
  { raw: '168390789', kind: 'application', row: 'UP', source: 'annuities.md §5, line 233', normalised: 'EP16839078', check: '9', status: 'verified' },
  { raw: 'EP 1 234 567 B1', kind: 'publication', source: 'annuities.md §5, line 249', normalised: 'EP1234567', kindCode: 'B1' },
  { raw: '1.234.567 A1', kind: 'publication', row: 'EP', source: 'annuities.md §5, line 250', normalised: 'EP1234567', kindCode: 'A1' },
  { raw: 'EP123456', kind: 'publication', source: 'annuities.md §5, line 251 (pad to 7)', normalised: 'EP0123456' },
  { raw: 'EP 3 123 456 B1', kind: 'publication', row: 'DE', source: 'annuities.md §5, line 250 (validated row)', normalised: 'EP3123456' },
  { raw: '10 2007 004 488.9', kind: 'application', row: 'DE', source: 'annuities.md §5, line 245', normalised: 'DE102007004488', status: 'verified' },
  { raw: 'DE 11 2014 005 344.9', kind: 'application', source: 'annuities.md §5, line 245', status: 'verified' },
  { raw: '1020241223871', kind: 'application', row: 'DE', source: 'annuities.md §5, line 245', check: '1', status: 'verified' },
  { raw: '20 2023 102 823', kind: 'application', row: 'DE', source: 'annuities.md §5, line 252 (compute if missing)', check: '3', status: 'computed' },
  { raw: '10 2007 004 488.3', kind: 'application', row: 'DE', source: 'annuities.md §5, line 245', reason: 'check_digit_mismatch' },
  { raw: 'DE19630877A1', kind: 'publication', source: 'annuities.md §5, line 234', normalised: 'DE19630877', kindCode: 'A1' },
  { raw: 'DE 10 2010 000 001 B4', kind: 'publication', source: 'annuities.md §5, line 234', normalised: 'DE102010000001', kindCode: 'B4' },
  { raw: 'FR1909731', kind: 'application', source: 'annuities.md §5, line 235', normalised: 'FR1909731' },
  { raw: '3 012 345 A1', kind: 'publication', row: 'FR', source: 'annuities.md §5, line 235', normalised: 'FR3012345', kindCode: 'A1' },
  { raw: 'GB2345678A', kind: 'publication', source: 'annuities.md §5, line 236', normalised: 'GB2345678', kindCode: 'A' },
  { raw: 'UK 2345678 B', kind: 'publication', source: 'annuities.md §5, line 236', normalised: 'GB2345678' },
  { raw: 'P202030431', kind: 'application', row: 'ES', source: 'annuities.md §5, line 237', normalised: 'ESP202030431' },
  { raw: 'E14275070', kind: 'application', row: 'ES', source: 'annuities.md §5, line 237', normalised: 'ESE14275070' },
  { raw: 'ES 2 123 456 T3', kind: 'publication', source: 'annuities.md §5, line 237', normalised: 'ES2123456', kindCode: 'T3' },
  { raw: '102020000012345', kind: 'application', row: 'IT', source: 'annuities.md §5, line 238', normalised: 'IT102020000012345' },
  { raw: 'NL 1034749', kind: 'application', source: 'annuities.md §5, line 239', normalised: 'NL1034749' },
  { raw: 'BE1012345A1', kind: 'publication', source: 'annuities.md §5, line 240', normalised: 'BE1012345' },
  { raw: 'SE 1101235-4', kind: 'application', source: 'annuities.md §5, line 241', normalised: 'SE1101235', check: '4', status: 'unverified' },
  { raw: 'SE540123C2', kind: 'publication', source: 'annuities.md §5, line 241', normalised: 'SE540123', kindCode: 'C2' },
  { raw: '   ', kind: 'publication', row: 'FR', source: 'annuities.md §5, line 247', reason: 'empty_number' },
  { raw: 'n/a', kind: 'publication', row: 'FR', source: 'annuities.md §5, line 247', reason: 'unreadable_number' },
  { raw: '1234567', kind: 'publication', source: 'annuities.md §5, line 250 (no prefix, no country)', reason: 'unknown_country' },
  { raw: 'WO2020123456A1', kind: 'publication', row: 'FR', source: 'annuities.md §5, line 250', reason: 'unknown_country' },
  { raw: 'DE102007004488', kind: 'application', row: 'FR', source: 'annuities.md §5, line 250', reason: 'country_mismatch' },
  { raw: 'FR12345', kind: 'publication', source: 'annuities.md §5, line 235', reason: 'invalid_length' },
  { raw: `EP${'1'.repeat(50_000)}`, kind: 'publication', source: 'reliability-security.md UP-20 (bounded input)', reason: 'unreadable_number' },
];

describe('number normalisation (annuities.md §5, lines 228-253)', () => {
  it.each(numberCases.map((c) => [`${c.raw.slice(0, 30)} [${c.source}]`, c] as const))('%s', (_t, c) => {
    const r = parseNumber(c.raw, c.kind, c.row ?? null);
    if (c.reason) {
      expect(r).toMatchObject({ ok: false, reason: c.reason });
      return;
    }
    if (!r.ok) throw new Error(`unexpected ${r.reason}`);
    if (c.normalised !== undefined) expect(r.value.normalised).toBe(c.normalised);
    if (c.kindCode !== undefined) expect(r.value.kindCode).toBe(c.kindCode);
    if (c.check !== undefined) expect(r.value.checkDigit).toBe(c.check);
    if (c.status !== undefined) expect(r.value.checkDigitStatus).toBe(c.status);
  });

  it('never throws on hostile text (UP-20; its time is a bench figure: bench/hostile-inputs)', () => {
    for (const raw of ['\u0000', '-'.repeat(50_000), `${'1.'.repeat(25_000)}1`, '\uFEFFEP1', '𝟙𝟚𝟛'] as const) {
      expect(() => parseNumber(raw, 'application', 'DE')).not.toThrow();
    }
  });
});

describe('register links (annuities.md §1 and §4)', () => {
  const pub = (raw: string, row: Office) => {
    const r = parseNumber(raw, 'publication', row);
    return r.ok ? r.value : null;
  };
  const app = (raw: string, row: Office) => {
    const r = parseNumber(raw, 'application', row);
    return r.ok ? r.value : null;
  };
  const url = (office: Office, origin: Origin, p: string | null, a: string | null) =>
    registerUrl({ office, origin, publication: p ? pub(p, office) : null, application: a ? app(a, office) : null });

  it('EP: EPO Register by application number (line 23)', () =>
    expect(url('EP', 'ep_application', null, 'EP16839078.9')).toBe('https://register.epo.org/application?number=EP16839078&lng=en&tab=main'));
  it('UP: same EPO Register page (line 24)', () => expect(url('UP', 'unitary', null, 'EP16839078')).toContain('register.epo.org/application?number=EP16839078'));
  it('DE national: AKZ with the check digit (line 26)', () =>
    expect(url('DE', 'national', null, '10 2007 004 488')).toBe('https://register.dpma.de/DPMAregister/pat/register?AKZ=1020070044889&CURSOR=0'));
  it('EP(DE): AKZ=E + EP application with check digit (line 26)', () =>
    expect(url('DE', 'ep_validated', null, 'EP16839078')).toBe('https://register.dpma.de/DPMAregister/pat/register?AKZ=E168390789&CURSOR=0'));
  it('FR: DATA INPI by publication number (line 28)', () => expect(url('FR', 'national', 'FR3012345A1', null)).toBe('https://data.inpi.fr/brevets/FR3012345'));
  it('GB: Ipsum by publication number (line 29)', () => expect(url('GB', 'national', 'GB2345678A', null)).toBe('https://www.ipo.gov.uk/p-ipsum/Case/PublicationNumber/GB2345678'));
  it('EP(UK): Ipsum by EP publication number (line 29)', () => expect(url('GB', 'ep_validated', 'EP1234567B1', null)).toBe('https://www.ipo.gov.uk/p-ipsum/Case/PublicationNumber/EP1234567'));
  it('ES: INVENES by P number (line 27)', () => expect(url('ES', 'national', null, 'P202030431')).toBe('https://consultas2.oepm.es/InvenesWeb/detalle?referencia=P202030431'));
  it('EP(ES): INVENES by E file (line 27)', () => expect(url('ES', 'ep_validated', null, 'E14275070')).toBe('https://consultas2.oepm.es/InvenesWeb/detalle?referencia=E14275070'));
  it('EP(SE): PRV federated link (line 32)', () => expect(url('SE', 'ep_validated', null, 'EP16839078')).toBe('https://was.prv.se/spd/ep/an/16839078'));
  it('EP(IT): EPO federated tab, no stable UIBM link (line 382)', () => expect(url('IT', 'ep_validated', null, 'EP16839078')).toContain('tab=federated'));
  it('NL national: Espacenet fallback (line 382)', () => expect(url('NL', 'national', 'NL1034749B1', null)).toBe('https://worldwide.espacenet.com/patent/search?q=pn%3DNL1034749'));
  it('IT without numbers: register search page (line 207)', () => expect(url('IT', 'national', null, null)).toBe('https://www.uibm.gov.it/bancadati/'));
});
