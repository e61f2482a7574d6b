import { describe, expect, it } from 'vitest';
import { agentAddressBody, contactBody, createUserBody, ledesUploadChoice, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@portal/contracts';
import { resources } from '@portal/i18n';
import { rulesSchema, schemaErrors } from '../src/lib/form.ts';
import { addFiles } from '../src/lib/files.ts';

describe('schemaErrors (the forms validate with the contracts schemas)', () => {
  it('gives the spec codes of the contact form by field', () => {
    expect(schemaErrors(contactBody, { mail: '', issue: '', topic: '', details: ' ' })).toEqual({
      mail: 'email_empty',
      issue: 'issue_empty',
      topic: 'topic_empty',
      details: 'message_empty',
    });
    expect(schemaErrors(contactBody, { mail: 'a@b', issue: 'ledes', topic: 'ledes_display', details: 'x' })).toEqual({ mail: 'wrong_email' });
  });

  it('names list items by path and turns zod sentences into codes (required / invalid)', () => {
    const errors = schemaErrors(createUserBody, {
      company_agent: ' ',
      email: 'a@b.fr',
      password: 'short',
      roles: [],
      id_client: ['ok', ''],
      cabinets: [],
      code: [],
      langue: 'en',
    });
    expect(errors).toEqual({ company_agent: 'required', password: 'password_too_short', roles: 'role_required', 'id_client.1': 'required' });
    expect(schemaErrors(agentAddressBody, { id_client: 'C', destinataire_libelle: 'D', ligne01_libelle: 'L', ville_libelle: 'V', code_postal: '1', pays_code: 'FRA', devise: 'EUR' })).toEqual({
      pays_code: 'invalid',
    });
  });

  it('checks the LEDES upload choices with the server codes', () => {
    expect(schemaErrors(ledesUploadChoice, { files: [], type: '', office: '' })).toEqual({ files: 'error_file', type: 'missing_type', office: 'missing_office' });
    expect(schemaErrors(ledesUploadChoice, { files: [{}], type: 'patent', office: 'PAR', user: '' })).toEqual({});
  });

  it('builds a zod-free schema from plain rules for the first screens', () => {
    const login = rulesSchema<{ email: string; password: string }>({ email: (v) => (v.trim() ? undefined : 'required'), password: (v) => (v ? undefined : 'required') });
    expect(schemaErrors(login, { email: ' ', password: '' })).toEqual({ email: 'required', password: 'required' });
    expect(login.safeParse({ email: 'a', password: 'b' })).toEqual({ success: true, data: { email: 'a', password: 'b' } });
  });
});

describe('addFiles (the shared upload control checks before sending)', () => {
  const f = (name: string, size = 10) => ({ name, size, lastModified: 1 });
  it('refuses wrong types and files over the size limit, skips duplicates, caps the count', () => {
    const rules = { extensions: ['txt', 'xml'], maxFiles: 2, maxBytes: 100 };
    const out = addFiles([f('a.txt')], [f('b.XML'), f('c.xlsx'), f('d.txt', 101), f('a.txt'), f('e.txt')], rules);
    expect(out.files.map((x) => x.name)).toEqual(['a.txt', 'b.XML']);
    expect(out).toMatchObject({ wrongType: ['c.xlsx'], tooLarge: ['d.txt'], overflow: ['e.txt'] });
  });
});

describe('add-user help text', () => {
  // The maximum is the hint's plural count (decision 153); numbers carry their format (`{{min, number}}`).
  const render = (text: string) => text.replace(/\{\{min[^}]*\}\}/, String(PASSWORD_MIN_LENGTH)).replace(/\{\{(max|count)[^}]*\}\}/, String(PASSWORD_MAX_LENGTH));
  it.each(['en', 'fr'] as const)('states the rules the form enforces (%s): a required password of min to max characters, an optional address', (lang) => {
    const add = resources[lang].users.add;
    const [ledes = '', , , password = ''] = add.help.paragraphs.map(render);
    const required = lang === 'fr' ? /obligatoire/ : /required/;
    // The form requires a password between the two limits: the help and the hint say so.
    expect(password).toMatch(required);
    expect(password).toContain(String(PASSWORD_MIN_LENGTH));
    expect(password).toContain(String(PASSWORD_MAX_LENGTH));
    expect(render(add.fields.passwordHint_other)).toContain(String(PASSWORD_MAX_LENGTH));
    // The add-user form does not require the address (spec: submission is not blocked by it): the help must not require it either.
    expect(ledes).toMatch(lang === 'fr' ? /peut être ajouté sans elle/ : /can be added without it/);
    // The description no longer implies the admin sets no password.
    expect(add.description).toMatch(lang === 'fr' ? /provisoire/ : /temporary/);
  });
});
