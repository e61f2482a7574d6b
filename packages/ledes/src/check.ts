import { quoted, resolveSeverity, type Finding, type ResolvedFinding } from './findings.ts';
import { formatFromFieldCount, formatFromHeader, formatFromToken, type FormatId, type PipeFormat } from './formats/pipe.ts';
import { checkXml, XML_ITEM_FORMAT, type XmlItem } from './formats/xml.ts';
import { parseDecimal, toString, type Decimal } from './money.ts';
import type { LedesProfile } from './profiles.ts';
import { ResultBuilder, type LedesFileResult } from './result.ts';
import { allowedCodes, checkCodes, type AllowedCodes } from './rules/codes.ts';
import { checkDuplicateInvoices, checkLineDates, trackInvoice, type AcceptedInvoiceLookup } from './rules/consistency.ts';
import { ColumnFlags, type FileState, type InvoiceState, type RecordContext } from './rules/context.ts';
import { yyyymmdd } from './rules/dates.ts';
import { checkFieldSyntax, checkFieldValues } from './rules/fields.ts';
import { checkAnnuity } from './rules/annuities.ts';
import { checkNarrative } from './rules/guidelines.ts';
import { GuidelineChecker } from './rules/client-guidelines.ts';
import type { GuidelineIndex, GuidelineOptions, GuidelineProbes, GuidelineVersion } from './guidelines.ts';
import { checkInvoiceMath, checkLineMath } from './rules/math.ts';
import { checkCharacters, NOT_PRINTABLE_ASCII } from './rules/structure.ts';
import { checkTimekeeper, classifications } from './rules/timekeeper.ts';
import { sniff, splitLines, type ByteSource, type Encoding, type LineStats, type RawLine } from './stream/lines.ts';

/** Receives every data line as it is checked, e.g. to write the treated workbook. */
export interface LineSink {
  /** Called once, before the first line, when the format (and so the column names) is known. */
  onStart?(info: { readonly format: FormatId | null; readonly fieldNames: readonly string[]; readonly itemFieldNames?: readonly string[] }): void;
  /**
   * `fields` is null when the line could not be split (too long, blank, an XML item); otherwise
   * `body` is the line they come from, `[]` terminator left out: `fields` is `body.split('|')`
   * (a sink that sends lines elsewhere can send `body` instead of joining the fields again).
   * `item`: an XML item's values read as a 98B record, in the columns `onStart` named `itemFieldNames`.
   */
  onLine(line: number, fields: readonly string[] | null, findings: readonly ResolvedFinding[], body?: string, item?: readonly string[]): void;
  /** File-level findings and those known only at the end (invoice totals, duplicates). */
  onEnd(late: readonly ResolvedFinding[], summary: LedesSummary): void | Promise<void>;
  /**
   * Awaited between input chunks when present: a sink that writes somewhere slower than the engine
   * (a compressed workbook, a message port) holds the engine back here instead of buffering.
   */
  drained?(): Promise<void>;
}

export interface LedesSummary {
  readonly accepted: boolean;
  readonly linesChecked: number;
  readonly format: FormatId | null;
  readonly encoding: Encoding;
  readonly lineEndings: 'CRLF' | 'LF' | 'mixed' | 'none';
  readonly trailingBlankLines: number;
  readonly invoices: readonly { readonly invoice_number: string; readonly client_id: string; readonly total: string | null }[];
  /** The client's guideline versions the invoices were checked against (none without guidelines). */
  readonly guidelineVersions?: readonly Pick<GuidelineVersion, 'id' | 'version' | 'effective_from'>[];
  /** What the file adds to its firms' history, for the cross-invoice guidelines (with guidelines only). */
  readonly guidelineIndex?: GuidelineIndex;
  /** What the cross-invoice guidelines asked of the history and were told, for the re-check at commit (decision 220). */
  readonly guidelineProbes?: GuidelineProbes;
}

export interface CheckOptions {
  readonly filename: string;
  readonly profile: LedesProfile;
  /** Supplies `created` and "today" (CON-006); pass a fixed clock for reproducible results. */
  readonly clock?: () => Date;
  /** Invoice numbers already accepted for the client (CON-007). */
  readonly acceptedInvoices?: AcceptedInvoiceLookup;
  /** Longer lines give FMT-011 and are skipped without being held in memory. Default 1 MiB. */
  readonly maxLineBytes?: number;
  /** Called with the number of data lines checked so far, at most every `progressIntervalMs`, and once at the end. */
  readonly onProgress?: (linesChecked: number) => void;
  readonly progressIntervalMs?: number;
  readonly sink?: LineSink;
  /** false: only the summary is produced (the entity of a 1,000,000-line file is itself large). */
  readonly collect?: boolean;
  /** The client's billing guidelines (issue 31 §1), checked in the same pass. */
  readonly guidelines?: GuidelineOptions;
}

export interface CheckOutcome {
  readonly result: LedesFileResult;
  readonly summary: LedesSummary;
}

export const DEFAULT_MAX_LINE_BYTES = 1024 * 1024;

/** Shared bookkeeping of a run: severity resolution, the entity builder, the sink, progress. */
class Run {
  readonly builder = new ResultBuilder();
  readonly late: ResolvedFinding[] = [];
  linesChecked = 0;
  errors = 0;
  format: FormatId | null = null;
  fieldNames: readonly string[] = [];
  /** An XML file's items as 98B records: their column names (none for a pipe file). */
  itemFieldNames: readonly string[] | undefined;
  private started = false;
  private lastProgress = Date.now();

  constructor(readonly options: CheckOptions) {}

  resolve(f: Finding): ResolvedFinding {
    const r = { ...f, severity: resolveSeverity(f, this.options.profile) };
    if (r.severity === 'error') this.errors++;
    if (this.options.collect !== false) this.builder.add(r);
    return r;
  }

  line(line: number, fields: readonly string[] | null, findings: readonly Finding[], body?: string, item?: readonly string[]): void {
    let resolved: readonly ResolvedFinding[] = NO_FINDINGS;
    if (findings.length > 0) {
      const list: ResolvedFinding[] = [];
      for (const f of findings) list.push(this.resolve(f));
      resolved = list;
    }
    this.linesChecked++;
    this.builder.addLine();
    const sink = this.options.sink;
    if (!sink) return;
    this.start();
    sink.onLine(line, fields, resolved, body, item);
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.options.sink?.onStart?.({ format: this.format, fieldNames: this.fieldNames, ...(this.itemFieldNames ? { itemFieldNames: this.itemFieldNames } : {}) });
  }

  fileFinding(f: Finding): void {
    this.late.push(this.resolve(f));
  }

  progress(force = false): void {
    const { onProgress, progressIntervalMs = 250 } = this.options;
    if (!onProgress) return;
    const now = Date.now();
    if (force || now - this.lastProgress >= progressIntervalMs) {
      this.lastProgress = now;
      onProgress(this.linesChecked);
    }
  }
}

const NO_FINDINGS: readonly ResolvedFinding[] = Object.freeze([]);
const TERMINATOR = '[]';
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

function stripTerminator(text: string): { body: string; terminated: boolean } {
  if (text.endsWith(TERMINATOR)) return { body: text.slice(0, -2), terminated: true };
  const t = text.trimEnd();
  return t.endsWith(TERMINATOR) ? { body: t.slice(0, -2), terminated: true } : { body: t, terminated: false };
}

/** Empty, or spaces and control characters only. */
function isBlank(text: string): boolean {
  return text === '' || (text.charCodeAt(0) <= 32 && text.trim() === '');
}

/** The 98B / 98BI line-by-line checker. */
class PipeChecker {
  private format: PipeFormat | undefined;
  private readonly file: FileState = { invoices: new Map(), lastInvoice: undefined, blockInvoice: undefined, blockLineNumbers: new Set(), timekeeperRates: new Map() };
  private readonly codes: AllowedCodes;
  private readonly classifications: ReadonlySet<string>;
  /** Consecutive blank lines not yet known to be trailing: first index and count. */
  private blankStart = 0;
  private blankCount = 0;
  private readonly today: string;
  /** A record could not be split: its amounts are unknown, so invoice sums would mislead. */
  private unreadable = false;
  // Per-record scratch space, reused: findings never point into it.
  private readonly numbers: (Decimal | undefined)[] = [];
  private readonly invalid = new ColumnFlags();
  private readonly out: Finding[] = [];
  /** The record context, created with the format and reused for every record. */
  private ctx: RecordContext | undefined;
  /** The client's guidelines, once the format (and so the LAW_FIRM_ID column) is known. */
  guidelines: GuidelineChecker | undefined;

  constructor(private readonly run: Run, now: Date) {
    this.codes = allowedCodes(run.options.profile);
    this.classifications = classifications(run.options.profile);
    this.today = yyyymmdd(now);
  }

  get formatId(): FormatId | null {
    return this.format?.id ?? null;
  }

  get trailingBlankLines(): number {
    return this.blankCount;
  }

  get invoices(): FileState['invoices'] {
    return this.file.invoices;
  }

  /** Blank lines before the format token (FMT-014): skipped, and the lines count from the token. */
  private leadingBlankLines = 0;
  private started = false;
  /** The first line when it named no format and held no `|`: its finding waits for the probe (is this LEDES at all?). */
  private unknownToken = '';
  /** The lines read after such a first line, until one holds a `|` or NOT_LEDES_PROBE_LINES were read. */
  private probe: RawLine[] | undefined;
  /**
   * No format line, and no `|` on the first lines (a JSON or CSV file renamed .txt): one verdict, FMT-015, instead of
   * two findings for each of its lines (issue 31 §4: 97 errors on 47 lines before).
   */
  private notLedes = false;

  /** Lines of the file from its format token on (the blank lines before it left out). */
  linesFromToken(stats: LineStats): number {
    return stats.lines - this.leadingBlankLines;
  }

  get hasToken(): boolean {
    return this.started;
  }

  accept(raw: RawLine): void {
    if (!this.started) {
      if (!raw.tooLong && isBlank(raw.text)) {
        this.leadingBlankLines++;
        return;
      }
      this.started = true;
      if (this.leadingBlankLines > 0) {
        this.run.fileFinding({ line: 'file', code: 'FMT-014', champ: '(file)', values: { found: String(this.leadingBlankLines) } });
      }
    }
    if (this.notLedes) return;
    if (this.probe) this.probeLine(raw);
    else this.route(raw);
  }

  private route(raw: RawLine): void {
    const index = raw.index - this.leadingBlankLines;
    if (index === 0) this.token(raw);
    else if (index === 1) this.header(raw);
    else this.data(raw, index - 2);
  }

  /** The format may be settled by the token, the header or (failing both) the first record. */
  private publishFormat(): void {
    if (this.format && this.run.format !== this.format.id) {
      this.run.format = this.format.id;
      this.run.fieldNames = this.format.fields.map((f) => f.name);
    }
  }

  private token(raw: RawLine): void {
    const { body, terminated } = stripTerminator(raw.text);
    const known = raw.tooLong ? undefined : formatFromToken(body.trim());
    if (!known) {
      const found = raw.tooLong ? '' : body.trim();
      if (found.includes('|')) this.run.fileFinding({ line: 'file', code: 'FMT-001', champ: '(file)', values: { found: quoted(found) } });
      else {
        this.unknownToken = found;
        this.probe = [];
      }
      return;
    }
    this.format = known.format;
    this.publishFormat();
    if (!known.canonical) this.run.fileFinding({ line: 'file', code: 'FMT-002', champ: '(file)' });
    if (!terminated) this.run.fileFinding({ line: 'file', code: 'FMT-005', champ: '(file)' });
  }

  private probeLine(raw: RawLine): void {
    const probe = this.probe!;
    probe.push(raw);
    if (!raw.tooLong && raw.text.includes('|')) this.endProbe(true);
    else if (probe.length >= NOT_LEDES_PROBE_LINES) this.endProbe(false);
  }

  /**
   * Ends the probe: some line held a `|` (a LEDES file with a bad first line: FMT-001, and its lines are checked as
   * ever), or none did (FMT-015, and nothing else is said). The end of the file ends a probe without a `|`.
   */
  endProbe(pipes = false): void {
    const lines = this.probe;
    if (!lines) return;
    this.probe = undefined;
    const values = { found: quoted(this.unknownToken) };
    if (!pipes) {
      this.notLedes = true;
      this.run.fileFinding({ line: 'file', code: 'FMT-015', champ: '(file)', values });
      return;
    }
    this.run.fileFinding({ line: 'file', code: 'FMT-001', champ: '(file)', values });
    for (const line of lines) this.route(line);
  }

  /** The file was found not to be LEDES (FMT-015): nothing else is said about it. */
  get isNotLedes(): boolean {
    return this.notLedes;
  }

  private header(raw: RawLine): void {
    const { body, terminated } = stripTerminator(raw.text);
    if (!terminated && !raw.tooLong) this.run.fileFinding({ line: 'header', code: 'FMT-005', champ: '(header)' });
    if (this.format && body === this.format.header) return;
    if (!this.format) {
      const byHeader = formatFromHeader(body);
      if (byHeader) {
        this.format = byHeader;
        this.publishFormat();
        return;
      }
    }
    this.run.fileFinding({ line: 'header', code: 'FMT-003', champ: '(header)' });
    this.format ??= formatFromFieldCount(body.split('|').length);
    this.publishFormat();
  }

  private data(raw: RawLine, line: number): void {
    if (!raw.tooLong && isBlank(raw.text)) {
      // Blank lines are fine at the end of the file; only a record after them makes them an error.
      if (this.blankCount++ === 0) this.blankStart = line;
      return;
    }
    for (let blank = this.blankStart; blank < this.blankStart + this.blankCount; blank++) {
      this.run.line(blank, null, [{ line: blank, code: 'FMT-012', champ: '(line)' }]);
    }
    this.blankCount = 0;
    if (raw.tooLong) {
      this.unreadable = true;
      this.run.line(line, null, [{ line, code: 'FMT-011', champ: '(line)' }]);
      return;
    }
    const text = raw.text;
    const out = this.out;
    out.length = 0;
    let fields: string[];
    let body: string;
    let scan: boolean;
    const n = text.length;
    if (n >= 2 && text.charCodeAt(n - 1) === CLOSE_BRACKET && text.charCodeAt(n - 2) === OPEN_BRACKET) {
      // Terminated record (the usual case): split the line itself and drop `[]` from the last field,
      // which is `body.split('|')` without building the body. `[]` is printable, so testing the
      // line is testing the body.
      scan = !raw.printable && NOT_PRINTABLE_ASCII.test(text);
      if (scan && text.includes('\0')) out.push({ line, code: 'FMT-013', champ: '(line)' });
      fields = text.split('|');
      const last = fields.length - 1;
      fields[last] = fields[last]!.slice(0, -2);
      body = text.slice(0, -2);
    } else {
      if (text.includes('\0')) out.push({ line, code: 'FMT-013', champ: '(line)' });
      const stripped = stripTerminator(text);
      if (!stripped.terminated) out.push({ line, code: 'FMT-005', champ: '(line)' });
      body = stripped.body;
      fields = body.split('|');
      scan = NOT_PRINTABLE_ASCII.test(body);
    }
    this.format ??= formatFromFieldCount(fields.length);
    this.publishFormat();
    const format = this.format;
    if (!format || fields.length !== format.fields.length) {
      out.push({ line, code: 'FMT-004', champ: '(line)', values: { found: String(fields.length), ...(format ? { expected: String(format.fields.length) } : {}) } });
      this.unreadable = true;
      this.run.line(line, fields, out, body);
      return;
    }
    const numbers = this.numbers;
    if (numbers.length !== fields.length) numbers.length = fields.length;
    numbers.fill(undefined);
    this.invalid.reset(fields.length);
    let ctx = this.ctx;
    if (ctx === undefined) {
      ctx = {
        line,
        fields,
        format,
        profile: this.run.options.profile,
        today: this.today,
        file: this.file,
        numbers,
        invalid: this.invalid,
        previous: { values: [], numbers: [], dates: [] },
        lineType: undefined,
        invoice: undefined,
        out,
      };
      this.ctx = ctx;
    } else {
      ctx.line = line;
      ctx.fields = fields;
      ctx.format = format;
      ctx.lineType = undefined;
      ctx.invoice = undefined;
    }
    checkCharacters(ctx, scan);
    checkFieldSyntax(ctx);
    checkFieldValues(ctx);
    trackInvoice(ctx);
    checkLineDates(ctx);
    checkLineMath(ctx);
    checkCodes(ctx, this.codes);
    checkTimekeeper(ctx, this.classifications);
    checkAnnuity(ctx);
    checkNarrative(ctx);
    const guidelines = this.run.options.guidelines;
    if (guidelines !== undefined) {
      this.guidelines ??= new GuidelineChecker(guidelines, this.today, format.index.get('LAW_FIRM_ID') ?? -1);
      this.guidelines.line(ctx);
    }
    this.run.line(line, fields, out, body);
  }

  async finish(): Promise<void> {
    const late: Finding[] = [];
    const hasTax = this.format?.index.has('LINE_ITEM_TAX_TOTAL') ?? false;
    if (!this.unreadable) {
      for (const inv of this.file.invoices.values()) checkInvoiceMath(inv, hasTax, this.run.options.profile, late);
    }
    await checkDuplicateInvoices(this.file.invoices.values(), this.run.options.acceptedInvoices, late);
    if (this.guidelines) await this.guidelines.finish(late);
    for (const f of late) this.run.fileFinding(f);
  }
}

/** The numeric 98B columns the guidelines read on an XML item. */
const XML_NUMBER_COLUMNS: readonly number[] = [XML_ITEM_FORMAT.cols.units, XML_ITEM_FORMAT.cols.unitCost, XML_ITEM_FORMAT.cols.total];
const XML_DATE_COLUMNS: readonly number[] = [XML_ITEM_FORMAT.cols.date, XML_ITEM_FORMAT.cols.billingStart, XML_ITEM_FORMAT.cols.billingEnd, XML_ITEM_FORMAT.cols.invoiceDate];
const YYYYMMDD = /^\d{8}$/;

/** The client guidelines over an XML file's items, each read as a 98B record (`XML_ITEM_FORMAT`). */
class XmlGuidelines {
  readonly checker: GuidelineChecker;
  private readonly ctx: RecordContext;
  private readonly invalid = new ColumnFlags();
  private readonly numbers: (Decimal | undefined)[] = [];
  /** One stand-in per XML invoice segment: the checker keys its version in force by the invoice's identity. */
  private readonly invoices = new WeakMap<object, InvoiceState>();

  constructor(options: GuidelineOptions, profile: LedesProfile, now: Date) {
    const today = yyyymmdd(now);
    const format = XML_ITEM_FORMAT;
    this.checker = new GuidelineChecker(options, today, format.index.get('LAW_FIRM_ID')!);
    this.ctx = {
      line: 0,
      fields: [],
      format,
      profile,
      today,
      file: { invoices: new Map(), lastInvoice: undefined, blockInvoice: undefined, blockLineNumbers: new Set(), timekeeperRates: new Map() },
      numbers: this.numbers,
      invalid: this.invalid,
      previous: { values: [], numbers: [], dates: [] },
      lineType: undefined,
      invoice: undefined,
      out: [],
    };
  }

  record(line: number, item: XmlItem, out: Finding[]): void {
    const ctx = this.ctx as { -readonly [K in keyof RecordContext]: RecordContext[K] };
    const fields = item.fields;
    this.invalid.reset(fields.length);
    this.numbers.length = fields.length;
    this.numbers.fill(undefined);
    for (const c of XML_NUMBER_COLUMNS) {
      const v = fields[c]!;
      if (v === '') continue;
      const n = parseDecimal(v);
      if (n.ok) this.numbers[c] = n.value;
      else this.invalid.add(c);
    }
    for (const c of XML_DATE_COLUMNS) if (fields[c] !== '' && !YYYYMMDD.test(fields[c]!)) this.invalid.add(c);
    ctx.line = line;
    ctx.fields = fields;
    ctx.lineType = item.lineType;
    ctx.invoice = item.invoice ? this.invoiceOf(item.invoice, fields, line) : undefined;
    ctx.out = out;
    this.checker.line(ctx);
  }

  private invoiceOf(segment: object, fields: readonly string[], line: number): InvoiceState {
    let inv = this.invoices.get(segment);
    if (!inv) {
      // Only its identity is read (the version in force is chosen once per invoice).
      inv = { number: fields[XML_ITEM_FORMAT.index.get('INVOICE_NUMBER')!]!, clientId: fields[XML_ITEM_FORMAT.index.get('CLIENT_ID')!]!, firstLine: line } as InvoiceState;
      this.invoices.set(segment, inv);
    }
    return inv;
  }
}

/**
 * After a first line that names no format, how many lines are read for a `|` before the file is called not LEDES
 * (FMT-015). A LEDES file with a damaged first line or header still shows its fields by then.
 */
const NOT_LEDES_PROBE_LINES = 5;

/** The next input chunk is read only once the sink has caught up with the lines of the previous one. */
async function* paced(chunks: AsyncIterable<Buffer>, sink: LineSink | undefined): AsyncGenerator<Buffer> {
  for await (const chunk of chunks) {
    yield chunk;
    if (sink?.drained) await sink.drained();
  }
}

function lineEndings(stats: LineStats): LedesSummary['lineEndings'] {
  if (stats.crlf > 0 && stats.lf > 0) return 'mixed';
  return stats.crlf > 0 ? 'CRLF' : stats.lf > 0 ? 'LF' : 'none';
}

/**
 * Checks one LEDES file read from `source` (never held whole in memory). Bad input gives
 * findings, not exceptions; only a failing source stream rejects.
 */
export async function checkLedes(source: ByteSource, options: CheckOptions): Promise<CheckOutcome> {
  const now = (options.clock ?? (() => new Date()))();
  const created = now.toISOString();
  const run = new Run(options);
  const sniffed = await sniff(source);
  const stats: LineStats = { encoding: 'ascii', crlf: 0, lf: 0, lines: 0, bytes: 0 };
  let format: FormatId | null = null;
  let trailingBlankLines = 0;
  let invoices: LedesSummary['invoices'] = [];
  let guidelines: GuidelineChecker | undefined;

  if (sniffed.kind === 'empty') {
    stats.encoding = 'empty';
    run.fileFinding({ line: 'file', code: 'FMT-001', champ: '(file)' });
    run.fileFinding({ line: 'file', code: 'FMT-008', champ: '(file)' });
  } else if (sniffed.kind === 'fatal') {
    stats.encoding = sniffed.encoding;
    run.fileFinding({ line: 'file', code: sniffed.encoding === 'binary' ? 'FMT-010' : 'FMT-009', champ: '(file)' });
  } else if (sniffed.looksXml) {
    stats.encoding = sniffed.bom ? 'utf-8-bom' : 'utf-8';
    run.itemFieldNames = XML_ITEM_FORMAT.names;
    // The client guidelines read each XML item as a 98B record, in the same pass (issue 31 §1).
    const xmlGuidelines = options.guidelines ? new XmlGuidelines(options.guidelines, options.profile, now) : undefined;
    guidelines = xmlGuidelines?.checker;
    const xml = await checkXml(paced(sniffed.chunks, options.sink), {
      maxTextBytes: options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
      profile: options.profile,
      ...(xmlGuidelines ? { onRecord: (line: number, item: XmlItem, out: Finding[]) => xmlGuidelines.record(line, item, out) } : {}),
      onItem: (line, findings, item) => {
        run.line(line, null, findings, undefined, item.fields);
        run.progress();
      },
    });
    format = xml.format;
    run.format = format;
    for (const f of xml.late) run.fileFinding(f);
    if (xmlGuidelines) {
      const late: Finding[] = [];
      await xmlGuidelines.checker.finish(late);
      for (const f of late) run.fileFinding(f);
    }
    invoices = xml.invoices;
    if (xml.items === 0 && !run.late.some((f) => f.severity === 'error')) {
      run.fileFinding({ line: 'file', code: 'FMT-008', champ: '(file)' });
    }
  } else {
    if (sniffed.bom) stats.encoding = 'utf-8-bom';
    const pipe = new PipeChecker(run, now);
    await splitLines(
      paced(sniffed.chunks, options.sink),
      options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
      stats,
      (raw) => pipe.accept(raw),
      () => run.progress(),
    );
    // A short file whose first line named no format and whose lines hold no `|`: not LEDES.
    pipe.endProbe();
    // Only blank lines: no format token at all.
    if (!pipe.hasToken) run.fileFinding({ line: 'file', code: 'FMT-001', champ: '(file)' });
    if (!pipe.isNotLedes) {
      if (pipe.linesFromToken(stats) < 2) run.fileFinding({ line: 'header', code: 'FMT-003', champ: '(header)' });
      if (run.linesChecked === 0) run.fileFinding({ line: 'file', code: 'FMT-008', champ: '(file)' });
    }
    await pipe.finish();
    format = pipe.formatId;
    trailingBlankLines = pipe.trailingBlankLines;
    guidelines = pipe.guidelines;
    invoices = [...pipe.invoices.values()].map((inv) => ({
      invoice_number: inv.number,
      client_id: inv.clientId,
      total: inv.declaredTotal ? toString(inv.declaredTotal) : null,
    }));
  }
  run.progress(true);
  run.start();

  const summary: LedesSummary = {
    accepted: run.errors === 0,
    linesChecked: run.linesChecked,
    format,
    encoding: stats.encoding,
    lineEndings: lineEndings(stats),
    trailingBlankLines,
    invoices,
    ...(options.guidelines
      ? {
          guidelineVersions: [...(guidelines?.applied.values() ?? [])].map((v) => ({ id: v.id, version: v.version, effective_from: v.effective_from })),
          guidelineIndex: guidelines?.index() ?? { units: [], lines: [] },
          ...(guidelines?.probes ? { guidelineProbes: guidelines.probes } : {}),
        }
      : {}),
  };
  await options.sink?.onEnd(run.late, summary);
  const result: LedesFileResult =
    options.collect === false
      ? { filename: options.filename, format_ok: [], errors: [], warnings: [] }
      : run.builder.build(options.filename, created);
  return { result, summary };
}
