import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { checkLedes, DEFAULT_OFFICES, defaultProfile, INVOICE_TYPES, type InvoiceType, type LineSink } from './index.ts';

const USAGE = `Usage: ledes check FILE --type patent|trademark|annuites --office ${DEFAULT_OFFICES.map((o) => o.code).join('|')} [--json] [--treated OUT.xlsx --lang fr|en]

Checks one LEDES file (1998B, 98BI V2, XML 2.x) with the office's default profile.
  --json        print the result entity { filename, format_ok, errors, warnings }
  --treated     also write the annotated workbook to OUT.xlsx (in --lang, default en)
Exit code: 0 accepted, 1 refused, 2 usage error.`;

function usage(message: string): never {
  process.stderr.write(`ledes: ${message}\n\n${USAGE}\n`);
  process.exit(2);
}

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        type: { type: 'string' },
        office: { type: 'string' },
        json: { type: 'boolean', default: false },
        treated: { type: 'string' },
        lang: { type: 'string', default: 'en' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (e) {
    usage((e as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const [command, file, ...extra] = positionals;
  if (command !== 'check') usage(command ? `unknown command "${command}"` : 'missing command');
  if (!file || extra.length > 0) usage('expected exactly one FILE');
  if (!existsSync(file)) usage(`no such file: ${file}`);
  const type = values.type as InvoiceType | undefined;
  if (!type || !INVOICE_TYPES.includes(type)) usage('--type must be patent, trademark or annuites');
  const profile = values.office ? defaultProfile(values.office, type) : undefined;
  if (!profile) usage(`--office must be one of ${DEFAULT_OFFICES.map((o) => o.code).join(', ')}`);
  const lang = values.lang;
  if (lang !== 'fr' && lang !== 'en') usage('--lang must be fr or en');

  let sink: (LineSink & { done: Promise<void> }) | undefined;
  if (values.treated) {
    const { createTreatedWorkbook } = await import('./report/treated-workbook.ts');
    sink = createTreatedWorkbook(createWriteStream(values.treated), lang);
  }
  const { result, summary } = await checkLedes(createReadStream(file), { filename: basename(file), profile, sink });
  await sink?.done;

  if (values.json) {
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } else {
    const count = (lines: typeof result.errors) => lines.reduce((n, l) => n + l.items.length, 0);
    process.stdout.write(
      `${result.filename}: ${summary.accepted ? 'ACCEPTED' : 'REFUSED'} — ${summary.format ?? 'unknown format'}, ${summary.encoding}, ` +
        `${summary.linesChecked} line(s), ${count(result.errors)} error(s), ${count(result.warnings)} warning(s)\n`,
    );
    for (const [kind, lines] of [['E', result.errors], ['W', result.warnings]] as const) {
      for (const l of lines) {
        const where = typeof l.line === 'number' ? `line ${l.line + 1}` : l.line;
        for (const i of l.items) {
          const values = [i.found === undefined ? null : `found ${i.found}`, i.expected === undefined ? null : `expected ${i.expected}`, i.difference === undefined ? null : `difference ${i.difference}`].filter((v) => v !== null);
          process.stdout.write(`  ${kind} ${where}: ${i.code_ledes} [${i.champ}] ${i.libelle_en}${values.length > 0 ? ` (${values.join(', ')})` : ''}\n`);
        }
      }
    }
  }
  return summary.accepted ? 0 : 1;
}

process.exitCode = await main(process.argv.slice(2));
