/**
 * Golden findings: the engine's complete output (summary, every line handed to the sink with its
 * fields and findings in order, the late findings, the result entity) over the public samples and
 * over generated files carrying many kinds of errors, rendered as text. `golden.test.ts` compares it
 * with the committed `fixtures/golden/findings.txt`; `GOLDEN_UPDATE=1` rewrites that file (only
 * when the findings are meant to change).
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { checkLedes, defaultProfile, type CheckOptions, type LedesProfile, type LedesSummary, type ResolvedFinding } from '../src/index.ts';
import { generateLedes } from './generate.ts';
import { baseRecords, CLOCK, fileText, recordLine, XML_OK } from './helpers.ts';

export const GOLDEN_FILE = new URL('./fixtures/golden/findings.txt', import.meta.url);
const SAMPLES = new URL('./fixtures/samples/', import.meta.url);

interface GoldenCase {
  readonly name: string;
  readonly bytes: Uint8Array;
  readonly chunk: number;
  readonly options?: Partial<CheckOptions>;
}

/** Deterministic PRNG (mulberry32), so the generated files are the same on every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Values that trip (or nearly trip) every field rule, put in any column. */
const VALUES: readonly string[] = [
  '', 'NULL', 'null', '20250230', '20240229', '20230229', '21000229', '20000229', '2025-01-01', '20250602', '20250601', '20250131', '20241231', '2025013',
  '00000000', '99991231', '20251301', '20250100', '2025011a', '1,350.00', '+350', '-0', '350.', '.5', '0.500', '1e3', '-', '.', '+', '+.', '-.5', '0.12345',
  ' 1', '1 ', '-5', '0', '00', '0.0', '12345678901234567890.1234', '99999999999999999', '9007199254740993', '0.2', '20', '-0.1', '1', '1.00001', '0.1',
  '2.25', '2.20', '0.05', 'L100', 'L120', 'L190', 'L360', 'P210', 'A199', 'A111', 'A112', 'E101', 'E124', 'E130', 'E131', 'E199', 'X101', 'PT', 'AS',
  'PARTNR', 'ASSOC', 'BOSS', 'Jane Doe', 'Doe, Jane', 'Doe,Jane', 'Doe,', ',Jane', 'Recherche d’antériorités', 'é', 'bell\x07', 'tab\there', 'del\x7f',
  'x'.repeat(2), 'x'.repeat(3), 'x'.repeat(20), 'x'.repeat(21), 'x'.repeat(31), 'x'.repeat(61), 'x'.repeat(101), 'x'.repeat(1100), 'EUX', 'eur', 'EUR',
  'USD', 'GBP', 'France', 'FR', 'FRA', 'fr', 'F1', 'X', 'O', 'T', 't', 'F', 'E', 'IF', 'IE', 'f', 'FE', 'Review; draft claims; call client; email',
  'a; b', 'a;;b; c', 'EP renewal fee, 5th year', 'Annuity', 'RENOUVELLEMENT', 'word', 'two words', ' lead', 'PAT-1[20250315]', 'PAT-1[20250230]',
  'PATENT-1234[20250315]', 'PAT[2025031]', 'INV-1', 'INV-2', 'INV-999', 'C1', 'C2', 'M1', '3', '700', '705', '701', '700.01', '700.001', '699.995',
  '350', '350.00', '2', '840', '845', '140', '141', '10', '0.50', '\u00a0', 'a\u2028b', '\uFFFD', 'emoji \u{1F600}', 'TK1', 'TK2', '12-3456789',
];

type Mutator = (fields: string[], line: string, rnd: () => number, previous: string | undefined) => string | string[];

/** Line-level damage: terminators, field counts, blank lines, endings, encodings, copies. */
const LINE_MUTATORS: readonly Mutator[] = [
  (_f, line) => line.slice(0, -2),
  (_f, line) => `${line}   `,
  (_f, line) => `${line.slice(0, -2)}  \t`,
  (_f, line) => `${line}x`,
  (_f, line) => line.replace('|', ''),
  (_f, line) => `${line.slice(0, -2)}|extra[]`,
  (_f, line) => ['', line],
  (_f, line) => ['   ', '\t', line],
  (_f, line) => `${line}\r`,
  (_f, line) => `${line}\r\r`,
  (_f, line) => line.replace('|', '|\0'),
  (_f, line) => line.replace('|', '|\r|'),
  (f) => `${f.join('|')}[][]`,
  (_f, line, _r, prev) => [line, prev ?? line],
  (_f, line, _r, prev) => prev ?? line,
  (_f, line) => `${line.slice(0, -2)}${'y'.repeat(5000)}[]`,
  (_f, line) => line.replaceAll('|', '||').slice(0, 3000),
  (_f, line) => `  ${line}`,
  (_f, line) => line.replace('[]', '[ ]'),
  () => '[]',
  (_f, line) => line.toLowerCase(),
];

function mutateFile(text: string, seed: number, rate: number, maxFieldEdits = 3): string {
  const rnd = prng(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;
  const lines = text.split('\n');
  const out: string[] = [lines[0]!, lines[1]!];
  let previous: string | undefined;
  for (let i = 2; i < lines.length; i++) {
    let line = lines[i]!;
    if (line === '' || rnd() >= rate) {
      out.push(line);
      previous = line;
      continue;
    }
    const fields = line.slice(0, -2).split('|');
    if (rnd() < 0.75) {
      const edits = 1 + Math.floor(rnd() * maxFieldEdits);
      for (let e = 0; e < edits; e++) fields[Math.floor(rnd() * fields.length)] = pick(VALUES);
      line = `${fields.join('|')}[]`;
      out.push(line);
    } else {
      const r = pick(LINE_MUTATORS)(fields, line, rnd, previous);
      if (Array.isArray(r)) out.push(...r);
      else out.push(r);
    }
    previous = line;
  }
  return out.join('\n');
}

async function collect(gen: AsyncIterable<Buffer>): Promise<string> {
  const parts: Buffer[] = [];
  for await (const b of gen) parts.push(b);
  return Buffer.concat(parts).toString('utf8');
}

/** Invoices interleaved and re-opened, adjustments, amounts that need rescaling, tolerance-sized gaps. */
function mixedInvoices(format: '98B' | '98BI'): string {
  const [fee, expense] = baseRecords(format);
  const recs: Record<string, string>[] = [];
  for (let i = 0; i < 60; i++) {
    const inv = `INV-${i % 7}`;
    const base = i % 3 === 0 ? fee! : expense!;
    const rec: Record<string, string> = { ...base, INVOICE_NUMBER: inv, LINE_ITEM_NUMBER: String(i % 11) };
    if (i % 5 === 0) Object.assign(rec, { 'EXP/FEE/INV_ADJ_TYPE': i % 10 === 0 ? 'IF' : 'IE', LINE_ITEM_NUMBER_OF_UNITS: i % 4 === 0 ? '' : '1', LINE_ITEM_UNIT_COST: '', LINE_ITEM_ADJUSTMENT_AMOUNT: '-12.5', LINE_ITEM_TOTAL: '-12.50' });
    if (i % 6 === 1) Object.assign(rec, { LINE_ITEM_UNIT_COST: '0.333', LINE_ITEM_NUMBER_OF_UNITS: '3', LINE_ITEM_TOTAL: '1.00' });
    if (i % 8 === 2) Object.assign(rec, { LINE_ITEM_UNIT_COST: '350.004', LINE_ITEM_NUMBER_OF_UNITS: '2.5', LINE_ITEM_TOTAL: '875.01' });
    if (i % 9 === 3) Object.assign(rec, { INVOICE_TOTAL: '705.00', TIMEKEEPER_ID: `TK${i % 4}`, LINE_ITEM_UNIT_COST: String(300 + (i % 4) * 10) });
    // First lines of invoices: billing period reversed (CON-003), invoice dated before its end (CON-005), in the future (CON-006).
    if (i === 1) Object.assign(rec, { BILLING_START_DATE: '20250201' });
    if (i === 2) Object.assign(rec, { INVOICE_DATE: '20250130' });
    if (i === 3) Object.assign(rec, { INVOICE_DATE: '20250701', LINE_ITEM_DATE: '20250702' });
    if (i === 4) Object.assign(rec, { BILLING_START_DATE: '2025-01-01', BILLING_END_DATE: '20250230' });
    if (format === '98BI' && i % 4 === 1) Object.assign(rec, { LINE_ITEM_TAX_RATE: '0.196', LINE_ITEM_TAX_TOTAL: '137.2', INVOICE_TAX_TOTAL: '137.20', INVOICE_NET_TOTAL: '707.8' });
    if (format === '98BI' && i % 7 === 2) Object.assign(rec, { LINE_ITEM_TAX_RATE: '1.5', LINE_ITEM_TAX_TOTAL: '1050', LINE_ITEM_TOTAL: '1750' });
    recs.push(rec);
  }
  return fileText(recs, format);
}

/** LEDES XML with many items, some damaged (bad numbers, missing elements, duplicates, wrong totals). */
function xmlFile(seed: number, invoices: number): string {
  const rnd = prng(seed);
  const parts: string[] = ['<?xml version="1.0" encoding="UTF-8"?>\n<ledesxmlebilling2.2>\n<firm><lf_id>12-3456789</lf_id>\n<client><cl_id>C1</cl_id>\n'];
  let nbr = 0;
  for (let v = 0; v < invoices; v++) {
    parts.push(`<invoice>${rnd() < 0.1 ? '' : `<inv_id>INV-${v}</inv_id>`}<inv_date>2025-02-10</inv_date>\n<matter><lf_matter_id>M${v}</lf_matter_id>\n`);
    let fees = 0;
    let expenses = 0;
    let tax = 0;
    for (let k = 0; k < 12; k++) {
      const fee = rnd() < 0.5;
      const units = 1 + Math.floor(rnd() * 5);
      const rate = fee ? 350 : 0.5;
      let base = String(units * rate);
      let total = String(units * rate);
      let t = fee ? '' : `<tax_amount>${units}</tax_amount>`;
      const r = rnd();
      if (r < 0.05) base = '1,000';
      else if (r < 0.1) total = String(units * rate + 1);
      else if (r < 0.13) total = '';
      else if (r < 0.16) t = '<tax_amount>x</tax_amount>';
      const id = r > 0.9 ? nbr : ++nbr;
      const el = fee ? 'fee' : 'expense';
      const totalEl = r >= 0.13 && r < 0.15 && k % 2 === 0 ? '' : `<total_amount>${total}</total_amount>`;
      parts.push(`<${el}><file_item_nbr>${id}</file_item_nbr><units>${units}</units><rate>${rate}</rate><base_amount>${base}</base_amount>${totalEl}${t}</${el}>\n`);
      const n = Number(total);
      if (fee) fees += n;
      else expenses += n;
      if (!fee) tax += units;
    }
    const skew = rnd() < 0.2 ? 1 : 0;
    parts.push(`</matter><inv_total_fees>${fees + skew}</inv_total_fees><inv_expense_total>${expenses}</inv_expense_total><inv_tax_total>${tax}</inv_tax_total><inv_total_net_due>${fees + expenses + tax}</inv_total_net_due></invoice>\n`);
  }
  parts.push('</client></firm></ledesxmlebilling2.2>\n');
  return parts.join('');
}

function profile(office: string, type: 'patent' | 'trademark' | 'annuites', overrides: Partial<LedesProfile> = {}): LedesProfile {
  return { ...defaultProfile(office, type)!, ...overrides };
}

const CUSTOM = profile('PAR', 'patent', {
  decimals: 3,
  totalsToleranceMinor: 2,
  requireTaskCode: false,
  countryCodeStyle: 'alpha3',
  extraTaskCodes: ['P210'],
  extraTimekeeperClassifications: ['BOSS'],
  maxDescriptionLength: 50,
  minDescriptionWords: 3,
  severityOverrides: { 'GDL-001': 'error', 'FLD-005': 'warning', 'CON-006': 'error' },
});

export async function goldenCases(): Promise<GoldenCase[]> {
  const cases: GoldenCase[] = [];
  const text = (s: string) => Buffer.from(s, 'utf8');
  for (const name of readdirSync(SAMPLES).filter((n) => n.endsWith('.txt')).sort()) {
    const bytes = readFileSync(new URL(name, SAMPLES));
    cases.push({ name: `sample ${name}`, bytes, chunk: 65536 });
    cases.push({ name: `sample ${name} (MUC patent, 7-byte chunks)`, bytes, chunk: 7, options: { profile: profile('MUC', 'patent') } });
    cases.push({ name: `sample ${name} (LON annuites)`, bytes, chunk: 4096, options: { profile: profile('LON', 'annuites') } });
  }
  const b98 = await collect(generateLedes(800, '98B'));
  const bi = await collect(generateLedes(500, '98BI'));
  const profiles: [string, LedesProfile][] = [
    ['PAR patent', profile('PAR', 'patent')],
    ['LON trademark', profile('LON', 'trademark')],
    ['MUC patent', profile('MUC', 'patent')],
    ['PAR annuites', profile('PAR', 'annuites')],
    ['custom', CUSTOM],
  ];
  for (const [format, clean, seeds] of [['98B', b98, [1, 2, 3]], ['98BI', bi, [4, 5]]] as const) {
    cases.push({ name: `generated ${format} clean`, bytes: text(clean), chunk: 65536 });
    // Annuity invoices need the due-date suffix, or every line carries ANN-001.
    const annuity = clean.replace(/\|CM-1(\||\[\])/g, '|PAT-1[20250315]$1');
    for (const seed of seeds) {
      const damaged = text(mutateFile(clean, seed, 0.3));
      // Every profile on the first seed, two on the others.
      for (const [label, p] of seed === seeds[0] ? profiles : [profiles[0]!, profiles[seed % 4 + 1]!]) {
        const bytes = p.type === 'annuites' ? text(mutateFile(annuity, seed, 0.3)) : damaged;
        cases.push({ name: `generated ${format} seed ${seed}, ${label}`, bytes, chunk: 1000 + seed * 977, options: { profile: p, maxLineBytes: 4096 } });
      }
    }
    const crlf = text(mutateFile(clean, 40 + seeds[0], 0.05).replaceAll('\n', '\r\n'));
    cases.push({ name: `generated ${format} CRLF, light damage`, bytes: crlf, chunk: 333 });
    const dense = text(mutateFile(clean, 50 + seeds[0], 0.9, 6));
    cases.push({ name: `generated ${format} dense damage`, bytes: dense, chunk: 8192, options: { profile: CUSTOM } });
    // Windows-1252 bytes in a few lines make those lines decode as cp1252.
    const cp = Buffer.concat([text(clean.slice(0, 4000)), Buffer.from([0x92, 0xe9, 0x7c]), text(clean.slice(4000, 9000)), Buffer.from('caf\xe9', 'latin1'), text(clean.slice(9000, 12000))]);
    cases.push({ name: `generated ${format} with cp1252 bytes`, bytes: cp, chunk: 97 });
    cases.push({ name: `generated ${format} BOM, no final newline`, bytes: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), text(clean.trimEnd())]), chunk: 1 << 16 });
  }
  const mixed98 = mixedInvoices('98B');
  const mixedBi = mixedInvoices('98BI');
  cases.push({ name: 'mixed invoices 98B', bytes: text(mixed98), chunk: 512 });
  cases.push({ name: 'mixed invoices 98B, tolerance profile', bytes: text(mixed98), chunk: 512, options: { profile: CUSTOM } });
  cases.push({ name: 'mixed invoices 98BI (LON)', bytes: text(mixedBi), chunk: 512, options: { profile: profile('LON', 'patent') } });
  cases.push({ name: 'mixed invoices 98BI (PAR)', bytes: text(mixedBi), chunk: 512 });
  cases.push({ name: 'duplicates: Set', bytes: text(mixed98), chunk: 4096, options: { acceptedInvoices: new Set(['INV-1', 'INV-3', 'INV-X']) } });
  cases.push({ name: 'duplicates: function', bytes: text(mixed98), chunk: 4096, options: { acceptedInvoices: (n: string, c: string) => n.endsWith('2') && c === 'C1' } });
  cases.push({
    name: 'duplicates: batch lookup',
    bytes: text(mixed98),
    chunk: 4096,
    options: { acceptedInvoices: { batchSize: 2, acceptedAmong: (ns: readonly string[]) => ns.filter((n) => n !== 'INV-0') } },
  });
  // Token, header and structure variants.
  const recs = baseRecords();
  const recsBi = baseRecords('98BI');
  const small: [string, string][] = [
    ['98BI alt token', fileText(recsBi, '98BI', 'LEDES1998BI V2')],
    ['unknown token', fileText(recs, '98B', 'LEDES2000')],
    ['token without terminator', fileText(recs).replace('LEDES1998B[]', 'LEDES1998B')],
    ['token with spaces', fileText(recs).replace('LEDES1998B[]', '  LEDES1998B  []  ')],
    ['header without terminator', fileText(recs).replace('CLIENT_MATTER_ID[]', 'CLIENT_MATTER_ID')],
    ['header of 98BI under a 98B token', fileText(recsBi, '98BI', 'LEDES1998B')],
    ['wrong header, 98BI records, unknown token', fileText(recsBi, '98BI', 'LEDES').replace('INVOICE_DATE|', 'DATE|')],
    ['no token, header first', fileText(recs).split('\r\n').slice(1).join('\r\n')],
    ['header only', fileText([])],
    ['token only', 'LEDES1998B[]\n'],
    ['token only, no newline', 'LEDES1998B[]'],
    ['records with 98BI count under unknown header', `X[]\nY[]\n${recsBi.map((r) => recordLine(r, '98BI')).join('\n')}\n`],
    ['records of no known width', `X[]\nY[]\na|b|c[]\n${recordLine(recs[0]!)}\n`],
    ['blank lines between and after', `${fileText(recs)}\r\n  \r\n${recordLine(recs[1]!)}\r\n\r\n\r\n`],
    ['trailing blank lines only', `${fileText(recs)}\n\n \n`],
    ['whitespace-only first record', `${fileText([])}   \n${recordLine(recs[0]!)}\n`],
    ['NUL and controls', fileText(recs).replace('Copies', 'Co\0p\x01ies\x7f').replace('Research', 'Re\u0085search')],
    ['U+FFFD as text', fileText(recs).replace('Copies', 'Cop\uFFFDies')],
    ['XML ok', XML_OK],
    ['XML doctype', XML_OK.replace('?>', '?>\n<!DOCTYPE x [<!ENTITY a "aaaa">]>')],
    ['XML malformed', XML_OK.replace('</matter>', '</mater>')],
    ['XML wrong version', XML_OK.replaceAll('ledesxmlebilling2.1', 'ledesxmlebilling1.9')],
    ['XML prefixed tags', XML_OK.replaceAll('<', '<l:').replaceAll('<l:/', '</l:').replaceAll('<l:?', '<?')],
    ['XML missing segments', '<?xml version="1.0"?><ledesxmlebilling2.0><firm><lf_id>1</lf_id></firm></ledesxmlebilling2.0>'],
    ['XML empty root', '<ledesxmlebilling2.0/>'],
    ['XML long text', XML_OK.replace('Research', 'x'.repeat(3000))],
    ['XML generated', xmlFile(7, 40)],
  ];
  for (const [name, s] of small) cases.push({ name, bytes: text(s), chunk: 61, options: { maxLineBytes: 2048 } });
  const annuityIds = ['PAT-1[20250315]', 'PAT-1[20250230]', 'PAT-1[2025031]', 'PATENT-1234[20250315]', 'PAT-1[20250315] ', '[20241301]', 'PAT-1', ''];
  const annuityRecs = annuityIds.flatMap((id, i) => recs.map((r) => ({ ...r, CLIENT_MATTER_ID: id, INVOICE_NUMBER: `A-${i}`, LINE_ITEM_DESCRIPTION: i % 2 ? 'Annuity renewal' : r.LINE_ITEM_DESCRIPTION! })));
  cases.push({ name: 'annuity suffixes', bytes: text(fileText(annuityRecs)), chunk: 300, options: { profile: profile('MUC', 'annuites') } });
  cases.push({ name: 'XML generated, LON tolerance', bytes: text(xmlFile(8, 60)), chunk: 1000, options: { profile: profile('LON', 'patent') } });
  cases.push({ name: 'XML item text over the limit', bytes: text(xmlFile(9, 3)), chunk: 100, options: { maxLineBytes: 2 } });
  const bytes: [string, Uint8Array][] = [
    ['empty', new Uint8Array()],
    ['UTF-16 BOM', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(fileText(recs), 'utf16le')])],
    ['UTF-16 without BOM', Buffer.from(fileText(recs), 'utf16le')],
    ['UTF-32', Buffer.concat([Buffer.from([0xff, 0xfe, 0, 0]), Buffer.from('abcd')])],
    ['zip', Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(200, 1)])],
    ['NUL bytes', Buffer.alloc(5000)],
    ['latin1 file', Buffer.from(fileText(recs).replace('Copies', 'Copies \x92pages\x92 été'), 'latin1')],
  ];
  for (const [name, b] of bytes) cases.push({ name, bytes: b, chunk: 50 });
  return cases;
}

const sha = (s: string): string => createHash('sha256').update(s).digest('hex').slice(0, 16);
/** CODE:FIELD:E|W, then the values that decided it, if any: [found→expected Δdifference]. */
const f = (x: ResolvedFinding): string => {
  const v = x.values;
  const values = v ? `[${v.found ?? ''}${v.expected === undefined ? '' : `→${v.expected}`}${v.difference === undefined ? '' : ` Δ${v.difference}`}]` : '';
  return `${x.code}:${x.champ}:${x.severity === 'error' ? 'E' : 'W'}${values}`;
};

async function* chunks(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  // Fresh copies: the engine must not depend on the producer keeping its buffers.
  for (let i = 0; i < bytes.length; i += size) yield Uint8Array.from(bytes.subarray(i, i + size));
}

/** One case rendered: summary, sink events (lines with findings listed, all lines in the digest), result digest. */
export async function renderCase(c: GoldenCase): Promise<string> {
  const out: string[] = [`=== ${c.name}`];
  const events: unknown[] = [];
  let listed = 0;
  let endSummary: LedesSummary | undefined;
  const outcome = await checkLedes(chunks(c.bytes, c.chunk), {
    filename: 'golden.txt',
    profile: defaultProfile('PAR', 'patent')!,
    clock: CLOCK,
    ...c.options,
    sink: {
      onStart: (info) => {
        out.push(`start ${info.format} fields=${info.fieldNames.length} ${sha(info.fieldNames.join('|'))}`);
      },
      onLine: (line, fields, findings) => {
        events.push([line, fields, findings]);
        if (findings.length > 0) {
          listed++;
          out.push(`L${line} ${fields === null ? 'null' : fields.length} ${findings.map((x) => (x.line === line ? f(x) : `${f(x)}@${String(x.line)}`)).join(' ')}`);
        }
      },
      onEnd: (late, summary) => {
        endSummary = summary;
        out.push(`late ${late.map((x) => `${f(x)}@${String(x.line)}`).join(' ')}`);
      },
    },
  });
  const { summary, result } = outcome;
  if (endSummary !== summary) out.push('sink summary differs');
  out.push(`summary ${JSON.stringify(summary)}`);
  out.push(`lines ${events.length} listed ${listed} events ${sha(JSON.stringify(events))}`);
  out.push(`result ok=${result.format_ok.length} errors=${result.errors.length} warnings=${result.warnings.length} ${sha(JSON.stringify(result))}`);
  return out.join('\n');
}

export async function renderAll(): Promise<string> {
  const parts: string[] = [];
  for (const c of await goldenCases()) parts.push(await renderCase(c));
  return `${parts.join('\n\n')}\n`;
}
