import { createWriteStream } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { basename } from 'node:path';
import { finished } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { dayFromDate, formatIsoDate, parseIsoDate, type Day } from './calendar.ts';
import { checkSpreadsheet } from './check.ts';
import { scheduleToJson } from './json.ts';
import { parseNumber, type ParsedNumber } from './numbers.ts';
import { registerUrl } from './registers.ts';
import { computeSchedule } from './schedule.ts';
import { isOffice, isOrigin } from './types.ts';

const USAGE = `usage:
  annuities schedule --office FR --origin national --filing 2018-03-15 [--grant 2024-01-10] [--last-paid 6]
                     [--publication FR3012345] [--application 1909731] [--today 2026-11-21]
                     [--payment-day 2026-12-15] [--json]
  annuities check FILE.xlsx|FILE.xls [--today 2026-11-21] [--out OUT.xlsx] [--json]
origins: national, ep_validated, unitary, ep_application`;

function exit(message: string, code: number): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

function dateOption(value: string | undefined, name: string): Day | null {
  if (value === undefined) return null;
  const d = parseIsoDate(value);
  if (d === null) exit(`--${name} must be a date YYYY-MM-DD`, 2);
  return d;
}

function today(value: string | undefined): Day {
  return dateOption(value, 'today') ?? (dayFromDate(new Date()) as Day);
}

async function schedule(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      office: { type: 'string' },
      origin: { type: 'string', default: 'national' },
      filing: { type: 'string' },
      grant: { type: 'string' },
      'last-paid': { type: 'string' },
      publication: { type: 'string' },
      application: { type: 'string' },
      today: { type: 'string' },
      'payment-day': { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  const office = values.office?.toUpperCase() ?? '';
  if (!isOffice(office)) exit(`--office must be one of EP UP BE DE ES FR GB IT NL SE\n${USAGE}`, 2);
  if (!isOrigin(values.origin)) exit(`--origin must be national, ep_validated, unitary or ep_application`, 2);
  const filing = dateOption(values.filing, 'filing');
  if (filing === null) exit(`--filing is required\n${USAGE}`, 2);
  const lastPaid = values['last-paid'] === undefined ? null : Number(values['last-paid']);
  // --payment-day: the day the next annuity is to be paid; its fee is the one in force that day (decision 194).
  const paymentDay = dateOption(values['payment-day'], 'payment-day');
  const result = computeSchedule({ office, origin: values.origin, filing, grant: dateOption(values.grant, 'grant'), lastPaid }, today(values.today), { paymentDay });
  if (!result.ok) exit(JSON.stringify({ error: result.reason }), 1);

  const number = (raw: string | undefined, kind: 'publication' | 'application'): ParsedNumber | null => {
    if (raw === undefined) return null;
    const parsed = parseNumber(raw, kind, office);
    if (!parsed.ok) exit(JSON.stringify({ error: parsed.reason, field: kind }), 1);
    return parsed.value;
  };
  const url = registerUrl({ office, origin: values.origin, publication: number(values.publication, 'publication'), application: number(values.application, 'application') });
  const json = scheduleToJson(result.value, url);
  if (values.json) {
    process.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
    return;
  }
  const s = result.value;
  /** A JSON scalar as the table shows it; '-' when absent. */
  const show = (value: unknown): string => (value === null || value === undefined ? '-' : typeof value === 'string' ? value : JSON.stringify(value));
  const lines = s.annuities.map((a) => {
    const j = json.annuities as Array<Record<string, unknown>>;
    const row = j.find((x) => x.number === a.number) ?? {};
    const lost = row.lost_after === row.grace_end ? '          ' : show(row.lost_after);
    return `${String(a.number).padStart(2)}  ${show(row.due_date)}  ${show(row.no_surcharge_end)}  ${show(row.grace_end)}  ${lost}  ${show(row.fee).padStart(9)} ${a.currency}`;
  });
  process.stdout.write(
    [
      `${s.office} ${s.origin}, filed ${formatIsoDate(s.filing)}, expires ${formatIsoDate(s.expiry)}`,
      ' k  due         no surcharge grace end   lost after        fee',
      ...lines,
      `previous: ${show(json.quant_precedent)} (${show(json.date_precedente_annuite)})  next: ${show(json.next_number)} (${show(json.date_prochaine_annuite)})`,
      `instruction limit: ${show(json.instruction_limit)}  limit: ${show(json.limite_date_prochaine_annuite)}  lost after: ${show(json.lost_after)}  colour: ${s.colour}  dechu: ${s.lapsed}  expired: ${s.expired}`,
      ...(url ? [`url: ${url}`] : []),
      ...(s.flags.length ? [`flags: ${s.flags.join(', ')}`] : []),
      '',
    ].join('\n'),
  );
}

async function check(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { today: { type: 'string' }, out: { type: 'string' }, json: { type: 'boolean', default: false } },
  });
  const file = positionals[0];
  if (file === undefined) exit(USAGE, 2);
  const bytes = await readFile(file);
  const out = values.out ? createWriteStream(values.out) : undefined;
  const started = performance.now();
  const result = await checkSpreadsheet(bytes, basename(file), { today: today(values.today), out });
  if (out) {
    out.end();
    await finished(out);
  }
  if (!result.ok) {
    if (values.out) await rm(values.out, { force: true });
    exit(JSON.stringify({ error: result.reason, detail: result.detail ?? null }), 1);
  }
  const s = result.value;
  const summary = {
    file: basename(file),
    format: s.format,
    sheets: s.sheets,
    skipped_sheets: s.skippedSheets,
    rows: s.rows,
    colours: s.colours,
    dechu: s.lapsed,
    expired: s.expired,
    in_grace_with_surcharge: s.inGraceWithSurcharge,
    reasons: Object.fromEntries(s.reasons),
    seconds: Math.round(performance.now() - started) / 1000,
    out: values.out ?? null,
  };
  if (values.json) process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
  else {
    process.stdout.write(
      [
        `${summary.file}: ${s.rows} rows in ${s.sheets} sheet(s) (${s.format}), ${summary.seconds} s`,
        `  green ${s.colours.ok}, red ${s.colours.nok}, orange ${s.colours.orange}, no date ${s.colours.no_date}`,
        `  lapsed ${s.lapsed}, expired ${s.expired}, in grace with surcharge ${s.inGraceWithSurcharge}`,
        ...[...s.reasons].map(([code, n]) => `  ${code}: ${n}`),
        ...(values.out ? [`  export: ${values.out}`] : []),
        '',
      ].join('\n'),
    );
  }
}

const [command, ...rest] = process.argv.slice(2);
try {
  if (command === 'schedule') await schedule(rest);
  else if (command === 'check') await check(rest);
  else exit(USAGE, 2);
} catch (error) {
  exit(error instanceof Error ? error.message : String(error), 2);
}
