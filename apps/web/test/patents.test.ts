import { describe, expect, it } from 'vitest';
import type { PatentRecordDto } from '@portal/contracts';
import { patentCreateBody } from '@portal/contracts';
import { decideAccess, menusFor, type SessionSnapshot } from '../src/lib/access.ts';
import { errorFromResponse } from '../src/lib/api.ts';
import {
  bulkBody,
  choose,
  dirtyRows,
  EMPTY_ADD_VALUES,
  EMPTY_SELECTION,
  fillBody,
  formatDay,
  instructionLabels,
  parseDateFilter,
  parseReferences,
  rowTone,
  splitTitle,
  toCreateBody,
  withoutRows,
} from '../src/features/patents/model.ts';

function patent(over: Partial<PatentRecordDto> = {}): PatentRecordDto {
  return {
    _id: '00000000-0000-4000-8000-000000000001',
    idagenda: 'AG-1',
    idbrevet: null,
    code_client: 'CL-1',
    cabinet: { _id: '00000000-0000-4000-8000-0000000000c1', name: 'Cabinet' },
    ReferenceClient: 'REF-1',
    nosref: null,
    noDepot: 'EP1',
    NoPublication: 'EP2',
    Pays: 'EP',
    Origine: null,
    Depot: null,
    Expiration: null,
    DateEcheance: '2027-06-01',
    DateLimite: '2027-05-25',
    Quantieme: 5,
    cost: 100,
    TitreAnglais: null,
    TitreFrancais: null,
    DonneurOrdre: null,
    DonneurOrdreAn: null,
    id_instruction: null,
    instruction: { id_instruction: null, traitement_instruction: 'unprocessed' },
    DateAcquit: null,
    DatePaiementOffice: null,
    DateReponseACourrier: null,
    DatePaiementClient: null,
    exported_at: null,
    deadline: null,
    locked: null,
    schedule_mismatch: null,
    version: 3,
    created: '2026-01-01T00:00:00.000Z',
    updated: '2026-01-01T00:00:00.000Z',
    ...over,
  };
}

describe('date filter (spec §5)', () => {
  it('takes one day or two separated by ;, in either order, spaces ignored', () => {
    expect(parseDateFilter('')).toEqual({ ok: true, value: undefined });
    expect(parseDateFilter('  ')).toEqual({ ok: true, value: undefined });
    expect(parseDateFilter('2027-01-31')).toEqual({ ok: true, value: '2027-01-31' });
    expect(parseDateFilter('2027-03-01 ; 2027-01-01')).toEqual({ ok: true, value: '2027-01-01;2027-03-01' });
  });
  it('refuses any other format, impossible days and more than two dates', () => {
    for (const bad of ['2027-1-1', '01-02-2027', '2027-02-30', '2027-01-01;', 'x', '2027-01-01;2027-02-01;2027-03-01', '2027/01/01']) {
      expect(parseDateFilter(bad), bad).toEqual({ ok: false });
    }
  });
});

describe('reference filter (spec §5)', () => {
  it('splits on ;, trims and drops empty values', () => {
    expect(parseReferences(' REF-1 ;; EP123 ; ')).toBe('REF-1;EP123');
    expect(parseReferences(' ; ')).toBeUndefined();
  });
});

describe('per-patent instruction choice (spec §4)', () => {
  const a = patent();
  const b = patent({ _id: '00000000-0000-4000-8000-000000000002', idagenda: 'AG-2', version: 7 });
  it('choosing selects the row and marks the instruction being updated, with the version read', () => {
    const s = choose(EMPTY_SELECTION, a, 2);
    expect(s.get('AG-1')).toMatchObject({ idagenda: 'AG-1', instructionBeingUpdated: 2, version: 3, ReferenceClient: 'REF-1' });
  });
  it('the same instruction again deselects; another replaces; a cleared choice deselects', () => {
    let s = choose(EMPTY_SELECTION, a, 2);
    expect(choose(s, a, 2).has('AG-1')).toBe(false);
    s = choose(s, a, 4);
    expect(s.get('AG-1')?.instructionBeingUpdated).toBe(4);
    expect(s.size).toBe(1);
    expect(choose(s, a, null).size).toBe(0);
  });
  it('a locked row is never selected', () => {
    expect(choose(EMPTY_SELECTION, patent({ locked: 'patent_locked_limit_date' }), 1).size).toBe(0);
  });
  it('the bulk body carries every chosen row with its version, nothing locked in not_updated', () => {
    const s = choose(choose(EMPTY_SELECTION, a, 1), b, 3);
    const body = bulkBody(s);
    expect(body.not_updated).toEqual([]);
    expect(body.patents.map((p) => [p.idagenda, p.instructionBeingUpdated, p.version])).toEqual([
      ['AG-1', 1, 3],
      ['AG-2', 3, 7],
    ]);
    expect(body.patents[0]).not.toHaveProperty('_id');
    expect(withoutRows(s, ['AG-2']).size).toBe(1);
  });
  it('the selection is immutable (React state)', () => {
    const s = choose(EMPTY_SELECTION, a, 1);
    choose(s, b, 2);
    expect(s.size).toBe(1);
  });
});

describe('instruction titles', () => {
  it('the text after the first colon is the tooltip, in the screen language', () => {
    expect(splitTitle('Payer\u00a0: Payer l’annuité')).toEqual({ title: 'Payer', description: 'Payer l’annuité' });
    expect(splitTitle('Wait')).toEqual({ title: 'Wait', description: '' });
    const labels = instructionLabels([{ _id: 3, titre_fr: 'Paiement par un tiers seulement pour 2027\u00a0: un tiers paie', titre_en: 'Payment by a third party only for 2027: a third party pays' }], 'fr');
    expect(labels).toEqual([{ id: 3, title: 'Paiement par un tiers seulement pour 2027', description: 'un tiers paie' }]);
    expect(instructionLabels([{ _id: 1, titre_fr: 'Payer\u00a0: x', titre_en: 'Pay: y' }], 'en')[0]?.title).toBe('Pay');
  });
});

describe('row colours (spec §4), from the server’s deadline (issue 25)', () => {
  const deadline = (state: NonNullable<PatentRecordDto['deadline']>['state']): PatentRecordDto['deadline'] => ({
    state,
    no_surcharge_end: '2026-12-31',
    no_surcharge_end_latest: '2026-12-31',
    grace_end: '2027-04-30',
    lost_after: '2027-04-30',
    extension_unverified: false,
    closing_days_provisional: false,
  });
  it('an instruction or a treatment date is treated (green)', () => {
    expect(rowTone(patent({ id_instruction: 1, instruction: { id_instruction: 1, traitement_instruction: 'processed' } }))).toBe('treated');
    expect(rowTone(patent({ DateAcquit: '2027-01-01', deadline: deadline('grace') }))).toBe('treated');
  });
  it('the grace tone is the engine’s state, never a date the screen computes: a DE annuity in its two free months is not in grace', () => {
    expect(rowTone(patent({ deadline: deadline('grace'), locked: 'patent_locked_limit_date' }))).toBe('grace');
    expect(rowTone(patent({ deadline: deadline('due'), locked: 'patent_locked_limit_date' }))).toBe('pastLimit');
    expect(rowTone(patent({ deadline: deadline('past_grace'), locked: 'patent_locked_limit_date' }))).toBe('pastLimit');
    expect(rowTone(patent({ deadline: deadline('before_due'), locked: 'patent_locked_limit_date' }))).toBe('pastLimit');
    expect(rowTone(patent({ deadline: deadline('before_due') }))).toBe('none');
    // Whatever the dates say, without the server's state there is no grace tone.
    expect(rowTone(patent({ DateEcheance: '2020-01-31', DateLimite: '2020-01-24', deadline: null }))).toBe('none');
  });
  // Issue 26 §2, decision 153: days by the page's language (was DD-MM-YYYY in both).
  it('dates show as 01/01/2027 in French and 1 Jan 2027 in English, without a time zone shift', () => {
    expect(formatDay('2027-01-01', 'fr')).toBe('01/01/2027');
    expect(formatDay('2027-01-01', 'en')).toBe('1\u00A0Jan\u00A02027');
    expect(formatDay(null)).toBe('');
  });
});

describe('missing information', () => {
  it('sends only the non-blank edits of cells empty on the row, with the version', () => {
    const row = patent({ noDepot: null, Pays: 'EP', ReferenceClient: null });
    expect(fillBody(row, { noDepot: ' FR123 ', ReferenceClient: '  ', Pays: 'fr' })).toEqual({ noDepot: 'FR123', version: 3 });
    expect(fillBody(patent({ Pays: '' }), { Pays: 'de' })).toEqual({ Pays: 'DE', version: 3 });
    expect(fillBody(row, {})).toBeNull();
    expect(dirtyRows(new Map([['a', { noDepot: ' ' }], ['b', { Pays: 'FR' }]]))).toBe(1);
  });
});

describe('patent screens by role (spec §6)', () => {
  const session = (roles: string[], is_admin = false): SessionSnapshot => ({ isAuthenticated: true, is_admin, roles });
  it('the portfolio is for agents, admin_test and admins; validation for admin_test and admins', () => {
    expect(decideAccess('patents', session(['user_agent_annuites']), '/patent-annuities')).toEqual({ kind: 'allow' });
    expect(decideAccess('patents', session(['user_annuites']), '/patent-annuities')).toEqual({ kind: 'redirect', to: '/unauthorized' });
    expect(decideAccess('patentStaff', session(['user_agent_annuites']), '/x')).toEqual({ kind: 'redirect', to: '/unauthorized' });
    expect(decideAccess('patentStaff', session(['admin_test']), '/x')).toEqual({ kind: 'allow' });
    expect(decideAccess('patents', { isAuthenticated: false, is_admin: false, roles: [] }, '/patent-annuities').kind).toBe('redirect');
  });
  it('menus: agent patents; admin_test patents and to validate; admin everything', () => {
    const items = (roles: string[], admin = false) => menusFor(session(roles, admin)).find((m) => m.id === 'patentAnnuities')?.items.map((i) => i.to);
    expect(items(['user_agent_annuites'])).toEqual(['/patent-annuities', '/annuities/list-receipt', '/annuites/forecast']);
    expect(items(['admin_test'])).toEqual(['/patent-annuities', '/annuities/list-receipt', '/annuites/forecast', '/annuites/patent/instruction']);
    expect(items(['admin'], true)).toEqual(['/patent-annuities', '/annuities/list-receipt', '/annuites/forecast', '/annuities/list-receipt/unlinked', '/annuites/patent', '/annuites/patent/instruction', '/annuites/patent/portfolio', '/annuites/patent/submissions', '/annuites/costs', '/annuites/calls', '/annuites/register']);
    expect(items(['user_annuites'])).toBeUndefined();
  });
});

describe('add patent form', () => {
  it('numbers as numbers, empty fields as null, validated by the contract', () => {
    const body = toCreateBody({ ...EMPTY_ADD_VALUES, pays: 'fr', quantieme: 7, cout: '120.5', instruction_paiement: '3', date_echeance_annuites: '2027-09-30' });
    expect(body).toMatchObject({ quantieme: 7, cout: 120.5, instruction_paiement: 3 });
    const parsed = patentCreateBody.parse(body);
    expect(parsed).toMatchObject({ pays: 'FR', numero_depot: null, date_depot: null, date_echeance_annuites: '2027-09-30', quantieme: 7, cout: 120.5 });
    expect(patentCreateBody.safeParse(toCreateBody(EMPTY_ADD_VALUES)).success).toBe(false);
  });
});

describe('add patent form: input that can make a deadline wrong (issue 25 §3)', () => {
  const codes = (values: Partial<typeof EMPTY_ADD_VALUES>) => {
    const result = patentCreateBody.safeParse(toCreateBody({ ...EMPTY_ADD_VALUES, pays: 'FR', ...values }));
    return result.success ? {} : Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]));
  };
  it('a cost keeps its sign and is refused when negative; text that is not a number is refused, never guessed', () => {
    expect(toCreateBody({ ...EMPTY_ADD_VALUES, cout: '-50' }).cout).toBe(-50);
    expect(toCreateBody({ ...EMPTY_ADD_VALUES, cout: '1 250,50' }).cout).toBe(1250.5);
    for (const cout of ['-50', -50, 'abc', '1e3', '0x10', '50 €']) expect(codes({ cout }), String(cout)).toEqual({ cout: 'invalid_cost' });
    expect(toCreateBody({ ...EMPTY_ADD_VALUES, cout: '0x10' }).cout).toBe('0x10');
    expect(codes({ cout: 0 })).toEqual({});
  });
  it('numbers are checked against the chosen office with the engine’s parser, on the client as on the server', () => {
    expect(codes({ numero_depot: 'FR1', numero_publication: 'EP12345678' })).toEqual({ numero_depot: 'invalid_application_number', numero_publication: 'invalid_publication_number' });
    expect(codes({ numero_depot: '2005555', numero_publication: 'FR 3 000 001 A1' })).toEqual({});
    expect(codes({ pays: 'EP', numero_depot: 'EP16839078.9' })).toEqual({});
  });
  it('identifiers starting with = + - @ and over-long texts are refused', () => {
    expect(codes({ reference_client: '=HYPERLINK("x")', reference_cabinet: '@A1', numero_depot: '-2005555' })).toEqual({ reference_client: 'formula_not_allowed', reference_cabinet: 'formula_not_allowed', numero_depot: 'formula_not_allowed' });
    expect(codes({ reference_client: 'R'.repeat(300) })).toEqual({ reference_client: 'text_too_long' });
  });
});

describe('a refused bulk update', () => {
  it('the 409 envelope\'s refused rows travel on the ApiError', () => {
    const row = { idagenda: 'AG-1', ReferenceClient: 'R', noDepot: null, NoPublication: null, Pays: 'EP', DateEcheance: '2027-01-01', instructionBeingUpdated: 2, code: 'patent_locked_acquitted', reason: 'Already acquitted.' };
    const error = errorFromResponse(409, { success: false, code: 'instructions_refused', message: 'No instruction was updated', not_updated: [row] }, null);
    expect(error.code).toBe('instructions_refused');
    expect(error.notUpdated).toEqual([row]);
    expect(errorFromResponse(400, { success: false, code: 'validation_failed', message: '' }, null).notUpdated).toEqual([]);
  });
});
