/**
 * VAL-01 fuzz: every route of the route table, every parameter kind (path, query, JSON body,
 * multipart text fields), a corpus of bad values (UP-/VAL- rows of the reliability guide), as the
 * seeded admin and as an anonymous caller. No request may answer 5xx; the values no field may
 * carry (NUL, lone surrogates, invalid UTF-8, non-UUID ids, prototype words in enums) answer 400;
 * the server still answers afterwards, nothing is polluted, and the logs of the whole run hold
 * neither the seeded admin's e-mail nor its password hash.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { users } from '@portal/db';
import { multipart } from './support/multipart.ts';
import { startTestPortal, type TestClient, type TestPortal } from './support/portal.ts';

type JsonSchema = { type?: string | string[]; enum?: unknown[]; format?: string; items?: JsonSchema; properties?: Record<string, JsonSchema>; anyOf?: JsonSchema[] };
interface Operation {
  parameters: Array<{ name: string; in: 'path' | 'query'; schema: JsonSchema }>;
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
}

const UUID = '00000000-0000-4000-8000-000000000000';
const ADMIN_EMAIL = 'admin@portal.test';
const ADMIN_PASSWORD = 'admin-password-for-tests';

/** A valid value per parameter name, so one bad value at a time reaches the check under test. */
const GOOD_PARAMS: Record<string, string> = {
  id: UUID,
  // The seeded admin's own e-mail travels in paths, so the log check below means something.
  email: encodeURIComponent(ADMIN_EMAIL),
  token: 'A'.repeat(43),
  type: 'patent',
  office: 'EP',
  page: '1',
  limit: '10',
  search_query: 'x',
  wait: '0',
  code: 'CODE-A',
  pays: 'FR',
  date_depot: '2018-03-15',
  // GET /forecast (decision 201).
  years: '2',
  cabinet: UUID,
  client_code: 'CODE-A',
  origin: 'national',
  abandon_older_than: '10',
  format: 'csv',
};

/** A valid JSON body per route; a route that takes a body must have one here. */
const GOOD_BODIES: Record<string, Record<string, unknown>> = {
  'POST /auth/login': { email: 'nobody@portal.test', password: 'not-the-password' },
  'PUT /auth/reset_password/:token/:id': { password: 'a-long-enough-password' },
  'POST /auth/mfa/verify': { code: '123456' },
  'POST /auth/mfa/enrol': { code: '123456' },
  'POST /account/mfa/confirm': { code: '123456' },
  'POST /account/mfa/disable': { code: '123456' },
  'PUT /account/notifications': { ledes_refused: true },
  'POST /user': { company_agent: 'Fuzz', email: ADMIN_EMAIL, password: 'fuzz-password-1234', roles: [UUID] },
  'POST /admin/user': { company_agent: 'Fuzz', email: ADMIN_EMAIL, password: 'fuzz-password-1234', roles: [UUID] },
  'POST /user/id_client/name': { id_client: 'C1' },
  'POST /adresse_agent_ledes/create': {
    id_client: 'FUZZ',
    destinataire_libelle: 'Fuzz',
    ligne01_libelle: '1 rue',
    ville_libelle: 'Paris',
    pays_code: 'FR',
    code_postal: '75001',
    devise: 'EUR',
  },
  'POST /contact': { mail: 'someone@portal.test', issue: 'ledes', topic: 'ledes_display', details: 'hello' },
  'POST /ledes/file/download': { file_path: 'ledes/original/2026/01/x/f.txt' },
  'PUT /brevets/annuite/:id': { date_precedente_annuite: '2024-03-31', quant_precedent: 6 },
  'PUT /brevets/annuites/many': { ids: [UUID], comment: 'checked' },
  'PUT /brevets/file/:id/comment': { colour: 'nok', comment: 'checked' },
  'PUT /brevet_eptane/update/instruction_paiement/:id': { instruction_paiement: 1, version: 1 },
  'PUT /brevet_eptane/many/update_instruction': {
    patents: [{ idagenda: 'FUZZ-1', ReferenceClient: 'R', noDepot: 'EP1', NoPublication: null, Pays: 'EP', DateEcheance: '2027-01-01', instructionBeingUpdated: 1, version: 1 }],
    not_updated: [],
  },
  'PUT /brevet_eptane/update-missing-info/:idagenda': { noDepot: 'EP1', version: 1 },
  'POST /receipts/:id/link': { patent_id: UUID, year: 5 },
  'POST /cost_tables/agent_fees': { office: 'GB', amount: 25, currency: 'GBP', valid_from: '2026-01-01' },
  'POST /cost_tables/service_fees': { cabinet_id: UUID, amount: 45, currency: 'EUR', margin_percent: 2.5, valid_from: '2026-01-01' },
  'POST /registers/sync': {},
  'POST /registers/discrepancies/:id/accept': {},
  'POST /registers/discrepancies/:id/keep': { note: 'paid late, receipt on file' },
  'PUT /brevet_eptane/validate-instruction': { patents: [{ _id: UUID, version: 1 }] },
  'PUT /brevet_eptane/update/:_id': { ReferenceClient: 'R', version: 1 },
  'POST /brevet_eptane/create': { numero_depot: 'EP1', pays: 'EP', quantieme: 3, cout: 10 },
  'PUT /patent_submissions/:id/accept': { code_client: 'CODE-A' },
  'PUT /patent_submissions/:id/reject': { reason: 'duplicate' },
  'PUT /brevet_eptane/sync': { brevet_eptane: [{ idagenda: 'FUZZ-1', code_client: 'C1', cabinet: 'Cabinet Fuzz', Pays: 'FR', DateEcheance: '2027-01-01', Quantieme: 5, cost: 10 }] },
  'POST /patent_exports': {},
  'POST /patent_reminders': {},
  'POST /ledes/guidelines/:id_client': { effective_from: '2025-01-01', rules: [{ kind: 'max_rate', ref: '§1', severity: 'error', classification: 'PARTNR', max: '300' }] },
  'POST /ledes/guidelines/:id_client/preview': { rules: [{ kind: 'duplicate_line', ref: '§1', severity: 'warning' }], last: 1 },
  'POST /renewal_calls/:id/send': {},
  'POST /renewal_calls/:id/hold': { held: true },
  'POST /renewal_calls/run': {},
  'PUT /renewal_call_settings/:cabinetId': { window_days: 90, margin_days: 30, reminder_days: 14 },
};
const GOOD_FIELDS: Record<string, string> = { type: 'patent', office: 'EP', user_id: UUID };

/** Raw (already encoded) path and query values that no parameter may accept as text. */
const BAD_TEXT_RAW = ['%00', 'a%00b', '%ED%A0%80', '%FF', '%C0%AF', '%07'];
/** Raw path and query values that must not crash anything. */
const ODD_RAW = [
  'x', '0', '-1', '1e309', 'NaN', 'null', 'undefined', 'true', '[]', '{}', '__proto__', 'constructor', 'toString', 'hasOwnProperty',
  'x'.repeat(4000), '..%2F..%2Fetc%2Fpasswd', '%252e%252e%252f', '%E2%80%AE', '%20', `${UUID}x`, UUID.toUpperCase(), '00000000-0000-0000-0000-00000000000g',
  "'%20OR%201%3D1--", '99999999999999999999', '601',
];

/** JSON values no string field may accept. */
const BAD_TEXT = ['a\u0000b', '\u0000', '\ud800', 'x\udc00y', '\ufffd', 'bell\u0007'];
const PROTOTYPE_WORDS = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];
const deep = (depth: number): unknown => (depth === 0 ? 'x' : [deep(depth - 1)]);
const ODD_JSON: unknown[] = [
  null, true, false, 0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 1, '', ' ', 'x'.repeat(20_000), ...PROTOTYPE_WORDS,
  [], ['a'], [[['a']]], {}, JSON.parse('{"__proto__":{"polluted":true}}'), { constructor: { prototype: { polluted: true } } },
  deep(200), Array.from({ length: 2000 }, () => 'a'),
];
/** Whole bodies, as raw JSON text. */
const ODD_BODIES = [
  '[]', '"x"', '1', 'null', '{', '{"a":', '{"__proto__":{"polluted":true}}', '{"constructor":{"prototype":{"polluted":true}}}',
  `${'['.repeat(3000)}${']'.repeat(3000)}`, JSON.stringify(Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`k${i}`, i]))),
];

const isType = (schema: JsonSchema, type: string): boolean =>
  schema.type === type || (Array.isArray(schema.type) && schema.type.includes(type)) || (schema.anyOf ?? []).some((s) => isType(s, type));
const isEnum = (schema: JsonSchema) => Array.isArray(schema.enum) && schema.enum.every((v) => typeof v === 'string') && schema.enum.length > 1;
const isUuid = (schema: JsonSchema) => schema.format === 'uuid';

interface Case {
  route: string;
  method: string;
  path: string;
  body?: string;
  multipart?: { body: Buffer; contentType: string };
  /** 'refuse': the value must be refused with 400 by anyone the route admits. */
  expect: 'no5xx' | 'refuse';
  what: string;
}

function concrete(path: string, override: Record<string, string> = {}) {
  return `/api${path.replace(/:(\w+)/g, (_m, name: string) => override[name] ?? GOOD_PARAMS[name] ?? 'x')}`;
}

function queryString(op: Operation, override: Record<string, string | string[]> = {}, extra = '') {
  const pairs: string[] = [];
  for (const p of op.parameters.filter((p) => p.in === 'query')) {
    const value = override[p.name] ?? GOOD_PARAMS[p.name];
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) pairs.push(`${p.name}=${v}`);
  }
  if (extra) pairs.push(extra);
  return pairs.length ? `?${pairs.join('&')}` : '';
}

function casesFor(key: string, op: Operation): Case[] {
  const [method, path] = key.split(' ') as [string, string];
  const cases: Case[] = [];
  const add = (c: Omit<Case, 'route' | 'method'>) => cases.push({ route: key, method, ...c });
  const goodBody = GOOD_BODIES[key];
  const body = goodBody ? JSON.stringify(goodBody) : undefined;
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const queryParams = op.parameters.filter((p) => p.in === 'query');

  for (const param of pathParams) {
    for (const raw of BAD_TEXT_RAW) add({ path: concrete(path, { [param.name]: raw }) + queryString(op), body, expect: 'refuse', what: `path ${param.name}=${raw}` });
    for (const raw of ODD_RAW) {
      const refuse = isUuid(param.schema) && raw !== UUID.toUpperCase() && !(param.schema.anyOf && raw === 'all');
      add({ path: concrete(path, { [param.name]: raw }) + queryString(op), body, expect: refuse ? 'refuse' : 'no5xx', what: `path ${param.name}=${raw.slice(0, 40)}` });
    }
  }
  for (const param of queryParams) {
    // UP-14: a storage key (the annuities and receipts downloads' file_path) answers the same 404 for every unknown key, NUL included.
    const keyParam = (key === 'GET /annuite/files/download' || key === 'GET /download/recepisse') && param.name === 'file_path';
    for (const raw of BAD_TEXT_RAW) add({ path: concrete(path) + queryString(op, { [param.name]: raw }), body, expect: keyParam ? 'no5xx' : 'refuse', what: `query ${param.name}=${raw}` });
    for (const raw of ODD_RAW) add({ path: concrete(path) + queryString(op, { [param.name]: raw }), body, expect: 'no5xx', what: `query ${param.name}=${raw.slice(0, 40)}` });
    // Parameter pollution (VAL-02): a repeated key is an array, never silently one of its values.
    add({ path: concrete(path) + queryString(op, { [param.name]: ['1', '2'] }), body, expect: 'refuse', what: `query ${param.name} twice` });
  }
  for (const extra of ['__proto__=1', 'constructor=x', 'toString=1', 'hasOwnProperty=1', 'role[]=admin', 'a[b]=1']) {
    add({ path: concrete(path) + queryString(op, {}, extra), body, expect: 'refuse', what: `query ${extra}` });
  }

  const json = op.requestBody?.content['application/json']?.schema;
  if (json) {
    for (const raw of ODD_BODIES) add({ path: concrete(path) + queryString(op), body: raw, expect: 'no5xx', what: `body ${raw.slice(0, 30)}` });
    if (goodBody) {
      for (const [field, schema] of Object.entries(json.properties ?? {})) {
        const withField = (value: unknown) => JSON.stringify({ ...goodBody, [field]: value });
        const isText = isType(schema, 'string');
        const isTextList = isType(schema, 'array') && schema.items !== undefined && isType(schema.items, 'string');
        // UP-14: every unknown storage key, NUL included, is the same 404 as any other.
        const refusal: Case['expect'] = key === 'POST /ledes/file/download' ? 'no5xx' : 'refuse';
        for (const value of BAD_TEXT) {
          if (isText) add({ path: concrete(path) + queryString(op), body: withField(value), expect: refusal, what: `body ${field}=${JSON.stringify(value)}` });
          if (isTextList) add({ path: concrete(path) + queryString(op), body: withField([value]), expect: 'refuse', what: `body ${field}=[${JSON.stringify(value)}]` });
        }
        if (isEnum(schema) || (schema.items && isEnum(schema.items))) {
          for (const word of PROTOTYPE_WORDS) add({ path: concrete(path) + queryString(op), body: withField(schema.items ? [word] : word), expect: 'refuse', what: `body ${field}=${word}` });
        }
        for (const value of ODD_JSON) add({ path: concrete(path) + queryString(op), body: withField(value), expect: 'no5xx', what: `body ${field}=${JSON.stringify(value)?.slice(0, 30)}` });
      }
    }
  }

  const form = op.requestBody?.content['multipart/form-data']?.schema;
  if (form) {
    // A file the route takes by its extension, so that the text fields are what is judged.
    const file = key === 'POST /brevets/annuite' ? { filename: 'fuzz.xlsx', content: 'PK\u0003\u0004' } : { filename: 'fuzz.txt', content: 'LEDES1998B[]\n' };
    for (const [field, schema] of Object.entries(form.properties ?? {})) {
      if (!isType(schema, 'string')) continue;
      for (const value of [...BAD_TEXT, ...PROTOTYPE_WORDS, 'x'.repeat(20_000), '']) {
        const refuse = BAD_TEXT.includes(value) || (isEnum(schema) && PROTOTYPE_WORDS.includes(value));
        add({ path: concrete(path) + queryString(op), multipart: multipart({ ...GOOD_FIELDS, [field]: value }, [file]), expect: refuse ? 'refuse' : 'no5xx', what: `field ${field}=${JSON.stringify(value).slice(0, 30)}` });
      }
    }
  }
  return cases;
}

async function send(t: TestPortal, client: TestClient, c: Case): Promise<{ status: number; text: string }> {
  if (!c.multipart) return client.request(c.method, c.path, c.body, c.body === undefined ? {} : { 'content-type': 'application/json' });
  // Bytes as built: the test client would re-encode a string body.
  const res = await fetch(t.url + c.path, {
    method: c.method,
    headers: { 'x-api-key': t.config.security.apiKey, origin: t.origin, cookie: client.cookieHeader(), 'content-type': c.multipart.contentType },
    body: c.multipart.body,
  });
  return { status: res.status, text: await res.text() };
}

/** Runs `work` over `items`, `width` at a time: a few requests in flight keep the run short on a busy machine. */
async function inParallel<T>(items: readonly T[], width: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: width }, lane));
}

describe('VAL-01 fuzz of every route', () => {
  let t: TestPortal;
  let admin: TestClient;
  let paths: Record<string, Record<string, Operation>>;

  beforeAll(async () => {
    // Every multipart case is an upload: a budget above the default 10-minute one.
    t = await startTestPortal('pglite', { UPLOAD_RATE_LIMIT: '1000' });
    admin = t.client();
    const login = await admin.post('/api/auth/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    expect(login.status).toBe(200);
    paths = (await admin.get('/api/openapi.json')).body.paths;
  });
  afterAll(async () => t.close());

  it('every route with a JSON body has a valid fixture to fuzz from', () => {
    const missing = [...t.portal.policy.keys()].filter((key) => {
      const [method, path] = key.split(' ') as [string, string];
      const op = paths[`/api${path.replace(/:(\w+)/g, '{$1}')}`]![method.toLowerCase()]!;
      return op.requestBody?.content['application/json'] && op.requestBody.content['application/json'].schema && !GOOD_BODIES[key];
    });
    expect(missing).toEqual([]);
  });

  it('no request answers 5xx, bad text, ids and prototype words answer 400, and the server lives on', async () => {
    const all: Case[] = [];
    // Logout would end the admin's session: it goes last.
    const keys = [...t.portal.policy.keys()].sort((a, b) => Number(a === 'POST /auth/logout') - Number(b === 'POST /auth/logout'));
    for (const key of keys) {
      const [method, path] = key.split(' ') as [string, string];
      all.push(...casesFor(key, paths[`/api${path.replace(/:(\w+)/g, '{$1}')}`]![method.toLowerCase()]!));
    }
    expect(all.length).toBeGreaterThan(1000);
    const anonymous = t.client();
    const failures: string[] = [];
    // Anonymous callers are refused (401) before any input is read on non-public routes: a sample of those suffices.
    const publicRoute = (c: Case) => t.portal.policy.get(c.route as never) === 'public';
    const anonymousCases = all.filter((c, i) => publicRoute(c) || i % 10 === 0);
    for (const [who, client, cases] of [['admin', admin, all], ['anonymous', anonymous, anonymousCases]] as const) {
      await inParallel(cases, 4, async (c) => {
        const res = await send(t, client, c);
        const admitted = who === 'admin' || publicRoute(c);
        if (res.status >= 500) failures.push(`${who} ${c.route} ${c.what}: ${res.status} ${res.text.slice(0, 160)}`);
        else if (c.expect === 'refuse' && admitted && res.status !== 400) failures.push(`${who} ${c.route} ${c.what}: expected 400, got ${res.status}`);
      });
    }
    expect(failures).toEqual([]);

    // Alive and unpolluted afterwards.
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const again = t.client();
    expect((await again.post('/api/auth/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })).status).toBe(200);
    const session = await again.get('/api/auth/verify_token_');
    expect(session.status).toBe(200);
    expect(session.body.is_admin).toBe(true);
  }, 180_000);

  it('LOG-01 the logs of the whole run hold neither the seeded admin e-mail nor its password hash', async () => {
    const [row] = await t.portal.ctx.db.select({ hash: users.passwordHash }).from(users).where(eq(users.email, ADMIN_EMAIL));
    expect(row?.hash).toMatch(/^\$argon2/);
    const logs = t.logs.join('');
    expect(logs.length).toBeGreaterThan(10_000);
    expect(logs).not.toContain(ADMIN_EMAIL);
    expect(logs).not.toContain(encodeURIComponent(ADMIN_EMAIL));
    expect(logs).not.toContain(row!.hash);
  });
});
