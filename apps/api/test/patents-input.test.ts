/**
 * Input that can make a deadline wrong (issue 25 §3): the add form, the missing-information fill and
 * the admin edit refuse numbers outside the office's format, negative or non-numeric costs,
 * identifiers starting like a spreadsheet formula and over-long texts, each with a 400 whose
 * translated message names the field; nothing is written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { PATENT_TEXT_MAX } from '@portal/contracts';
import { patentSubmissions, userCabinets } from '@portal/db';
import { startPatentWorld, type PatentWorld } from './support/patents.ts';
import { databaseKinds, type TestClient, type TestPortal } from './support/portal.ts';

const FR = { 'accept-language': 'fr' };
const EN = { 'accept-language': 'en' };
const MESSAGES = {
  invalid_application_number: {
    en: 'The application number does not match the format of the patent office’s numbers for this country.',
    fr: 'Le numéro de dépôt ne correspond pas au format des numéros de brevet de ce pays.',
  },
  invalid_publication_number: {
    en: 'The publication number does not match the format of the patent office’s numbers for this country.',
    fr: 'Le numéro de publication ne correspond pas au format des numéros de brevet de ce pays.',
  },
  invalid_cost: { en: 'The cost must be a positive number or zero (for example 1250).', fr: 'Le coût doit être un nombre positif ou nul (par exemple 1250).' },
} as const;
const LONG = 'R'.repeat(300);

describe.each(databaseKinds())('patents: input that can make a deadline wrong (%s)', (kind) => {
  let t: TestPortal;
  let world: PatentWorld;
  let agent: TestClient;
  let admin: TestClient;

  /** Sends the request in English then French: both 400 with the code, the field and the message. */
  async function refused(send: (headers: Record<string, string>) => Promise<{ status: number; body: Record<string, unknown> }>, code: string, field: string, en: string, fr: string) {
    const english = await send(EN);
    expect([english.status, english.body.code, english.body.message], JSON.stringify(english.body)).toEqual([400, code, en]);
    expect(english.body.fields).toMatchObject({ [field]: code });
    const french = await send(FR);
    expect([french.status, french.body.code, french.body.message], JSON.stringify(french.body)).toEqual([400, code, fr]);
  }

  beforeAll(async () => {
    world = await startPatentWorld(kind, '2027-03-01', 'Input');
    t = world.t;
    const agentUser = await t.loginAs('user_agent_annuites');
    agent = agentUser.client;
    admin = (await t.loginAs('admin')).client;
    await t.portal.ctx.db.insert(userCabinets).values({ userId: agentUser.id, cabinetId: world.cabinetA });
    await world.seed([
      { idagenda: 'IN-FR', pays: 'FR', referenceClient: 'REF-FR', numeroDepot: null, numeroPublication: null },
      { idagenda: 'IN-EP', pays: 'EP', referenceClient: 'REF-EP', numeroDepot: 'EP16839078', numeroPublication: 'EP3000001', cost: '100.00' },
    ]);
  });
  afterAll(async () => t?.close());

  describe('add patent form (POST /brevet_eptane/create)', () => {
    const form = { numero_depot: 'FR2005555', numero_publication: 'FR3000001', pays: 'FR', reference_client: 'IN-REF', cout: 50 };
    const post = (body: Record<string, unknown>) => (headers: Record<string, string>) => agent.post('/api/brevet_eptane/create', { ...form, ...body }, headers);
    const submissions = async () => (await t.portal.ctx.db.select().from(patentSubmissions).where(eq(patentSubmissions.referenceClient, 'IN-REF'))).length;

    it('numbers in the office’s format pass, with or without the country prefix, a kind code or a check digit', async () => {
      expect((await post({})(EN)).status).toBe(200);
      expect((await post({ pays: 'EP', numero_depot: 'EP16839078.9', numero_publication: 'EP1234567B1' })(EN)).status).toBe(200);
      expect((await post({ pays: 'DE', numero_depot: '10 2007 004 488', numero_publication: 'DE102007004488A1' })(EN)).status).toBe(200);
    });

    it('an application or publication number outside the office’s format is a 400 naming it, in both languages', async () => {
      const before = await submissions();
      for (const numero_depot of ['FR1', 'ABC', 'DE102007004488', 'EP16839078.3']) {
        const m = MESSAGES.invalid_application_number;
        await refused(post({ numero_depot }), 'invalid_application_number', 'numero_depot', m.en, m.fr);
      }
      for (const numero_publication of ['FR30000012345', 'EP12345678']) {
        const m = MESSAGES.invalid_publication_number;
        await refused(post({ numero_publication }), 'invalid_publication_number', 'numero_publication', m.en, m.fr);
      }
      expect(await submissions()).toBe(before);
    });

    it('a negative or non-numeric cost is a 400 invalid_cost, never turned into another amount', async () => {
      const before = await submissions();
      for (const cout of [-50, '-50', 'abc', '50', '12,50']) {
        await refused(post({ cout }), 'invalid_cost', 'cout', MESSAGES.invalid_cost.en, MESSAGES.invalid_cost.fr);
      }
      expect(await submissions()).toBe(before);
    });

    it('an identifier starting with = + - @ is refused, not neutralised', async () => {
      for (const [field, value] of [
        ['reference_client', '=HYPERLINK("http://x","y")'],
        ['reference_cabinet', '+33 1 23'],
        ['reference_client', '-2+3'],
        ['numero_depot', '-2005555'],
        ['numero_publication', '@SUM(A1)'],
      ] as const) {
        const label = { reference_client: ['Client reference', 'Référence client'], reference_cabinet: ['Firm reference', 'Référence cabinet'], numero_depot: ['Application number', 'Numéro de dépôt'], numero_publication: ['Publication number', 'Numéro de publication'] }[field];
        await refused(post({ [field]: value }), 'formula_not_allowed', field, `${label[0]} cannot start with =, +, - or @.`, `Le champ «\u00a0${label[1]}\u00a0» ne peut pas commencer par =, +, - ou @.`);
      }
    });

    it('an over-long text is a 400 naming the field and its limit', async () => {
      const max = PATENT_TEXT_MAX.reference;
      await refused(post({ reference_client: LONG }), 'text_too_long', 'reference_client', `Client reference is too long: at most ${max} characters.`, `Le champ «\u00a0Référence client\u00a0» est trop long\u00a0: ${max} caractères au plus.`);
      await refused(post({ origine: 'o'.repeat(PATENT_TEXT_MAX.origin + 1) }), 'text_too_long', 'origine', `Origin is too long: at most ${PATENT_TEXT_MAX.origin} characters.`, `Le champ «\u00a0Origine\u00a0» est trop long\u00a0: ${PATENT_TEXT_MAX.origin} caractères au plus.`);
    });
  });

  describe('missing information (PUT /brevet_eptane/update-missing-info/{idagenda})', () => {
    const put = (idagenda: string, body: Record<string, unknown>) => async (headers: Record<string, string>) =>
      admin.put(`/api/brevet_eptane/update-missing-info/${idagenda}`, { version: (await world.row(idagenda)).version, ...body }, headers);

    it('a number is checked against the record’s country when none is given, against the given one otherwise', async () => {
      const before = await world.row('IN-FR');
      const app = MESSAGES.invalid_application_number;
      await refused(put('IN-FR', { noDepot: 'EP1683907' }), 'invalid_application_number', 'noDepot', app.en, app.fr);
      await refused(put('IN-FR', { noDepot: 'DE102007004488.5' }), 'invalid_application_number', 'noDepot', app.en, app.fr);
      await refused(put('IN-FR', { noDepot: '123' }), 'invalid_application_number', 'noDepot', app.en, app.fr);
      const pub = MESSAGES.invalid_publication_number;
      await refused(put('IN-FR', { NoPublication: '12345678' }), 'invalid_publication_number', 'NoPublication', pub.en, pub.fr);
      await refused(put('IN-FR', { NoPublication: '20055551', Pays: 'EP' }), 'invalid_publication_number', 'NoPublication', pub.en, pub.fr);
      expect(await world.row('IN-FR')).toEqual(before);
      const ok = await admin.put('/api/brevet_eptane/update-missing-info/IN-FR', { noDepot: '2005555', version: before.version });
      expect([ok.status, ok.body.brevet_eptane?.noDepot]).toEqual([200, '2005555']);
    });

    it('a formula prefix or an over-long reference is a 400 naming the field', async () => {
      await refused(put('IN-FR', { NoPublication: '=1+1' }), 'formula_not_allowed', 'NoPublication', 'Publication number cannot start with =, +, - or @.', 'Le champ «\u00a0Numéro de publication\u00a0» ne peut pas commencer par =, +, - ou @.');
      const max = PATENT_TEXT_MAX.number;
      await refused(put('IN-FR', { NoPublication: '1'.repeat(max + 1) }), 'text_too_long', 'NoPublication', `Publication number is too long: at most ${max} characters.`, `Le champ «\u00a0Numéro de publication\u00a0» est trop long\u00a0: ${max} caractères au plus.`);
    });
  });

  describe('admin edit (PUT /brevet_eptane/update/{_id})', () => {
    const put = (body: Record<string, unknown>) => async (headers: Record<string, string>) =>
      admin.put(`/api/brevet_eptane/update/${world.ids['IN-EP']}`, { version: (await world.row('IN-EP')).version, ...body }, headers);

    it('refuses a negative or non-numeric cost, a number outside the office’s format, a formula prefix, an over-long title; nothing is written', async () => {
      const before = await world.row('IN-EP');
      for (const cost of [-50, '-50', 'abc', '100']) await refused(put({ cost }), 'invalid_cost', 'cost', MESSAGES.invalid_cost.en, MESSAGES.invalid_cost.fr);
      const pub = MESSAGES.invalid_publication_number;
      await refused(put({ NoPublication: 'FR3000001' }), 'invalid_publication_number', 'NoPublication', pub.en, pub.fr);
      const app = MESSAGES.invalid_application_number;
      await refused(put({ noDepot: '1234' }), 'invalid_application_number', 'noDepot', app.en, app.fr);
      // The country given with the number is the one it is checked against.
      await refused(put({ noDepot: '2005555', Pays: 'DE' }), 'invalid_application_number', 'noDepot', app.en, app.fr);
      await refused(put({ nosref: '@cmd' }), 'formula_not_allowed', 'nosref', 'Firm reference cannot start with =, +, - or @.', 'Le champ «\u00a0Référence cabinet\u00a0» ne peut pas commencer par =, +, - ou @.');
      // The limit is written in the caller's number format (decision 153: 1,000 / 1 000).
      const max = PATENT_TEXT_MAX.title;
      await refused(put({ TitreAnglais: 't'.repeat(max + 1) }), 'text_too_long', 'TitreAnglais', `English title is too long: at most ${max.toLocaleString('en-GB')} characters.`, `Le champ «\u00a0Titre anglais\u00a0» est trop long\u00a0: ${max.toLocaleString('fr-FR')} caractères au plus.`);
      expect(await world.row('IN-EP')).toEqual(before);
      const ok = await admin.put(`/api/brevet_eptane/update/${world.ids['IN-EP']}`, { cost: 0, NoPublication: 'EP1234567', version: before.version });
      expect([ok.status, ok.body.brevet_eptane?.cost, ok.body.brevet_eptane?.NoPublication]).toEqual([200, 0, 'EP1234567']);
    });
  });
});
