import { quoted, type Finding, type FindingValues } from '../findings.ts';
import {
  lineKey,
  unitsKey,
  versionInForce,
  type GuidelineHistoryAnswer,
  type GuidelineIndex,
  type GuidelineOptions,
  type GuidelineProbes,
  type GuidelineRule,
  type GuidelineVersion,
  type MaxRateRule,
} from '../guidelines.ts';
import { add, compare as compareExact, DecimalSum, mul, parseDecimal, POW10_NUMBER, sub, toString, ZERO, type Decimal } from '../money.ts';
import type { RuleCode } from './catalogue.ts';
import { at, numAt, type InvoiceState, type RecordContext } from './context.ts';

/** A version's rules by what they look at, built once per version. */
interface Compiled {
  readonly version: GuidelineVersion;
  readonly rates: Map<string, { rule: MaxRateRule; max: Decimal }[]>;
  readonly unitsPerDay?: { rule: GuidelineRule; max: Decimal };
  readonly block?: { rule: GuidelineRule & { kind: 'block_billing' }; minUnits: Decimal };
  readonly codes: Map<string, GuidelineRule & { kind: 'code' }>;
  readonly expenseCaps: Map<string, { rule: GuidelineRule; max: Decimal }>;
  readonly receipts: Map<string, { rule: GuidelineRule; above: Decimal }>;
  readonly period?: GuidelineRule & { kind: 'max_billing_period' };
  readonly delay?: GuidelineRule & { kind: 'max_upload_delay' };
  readonly duplicate?: GuidelineRule;
}

function dec(text: string): Decimal {
  const p = parseDecimal(text);
  return p.ok ? p.value : ZERO;
}

export function compile(version: GuidelineVersion): Compiled {
  const c: {
    -readonly [K in keyof Compiled]: Compiled[K];
  } = { version, rates: new Map(), codes: new Map(), expenseCaps: new Map(), receipts: new Map() };
  for (const rule of version.rules) {
    switch (rule.kind) {
      case 'max_rate': {
        const list = c.rates.get(rule.classification) ?? [];
        list.push({ rule, max: dec(rule.max) });
        c.rates.set(rule.classification, list);
        break;
      }
      case 'max_units_per_day':
        c.unitsPerDay = { rule, max: dec(rule.max) };
        break;
      case 'block_billing':
        c.block = { rule, minUnits: dec(rule.min_units) };
        break;
      case 'code':
        c.codes.set(rule.code, rule);
        break;
      case 'expense_cap':
        c.expenseCaps.set(rule.code, { rule, max: dec(rule.max_unit_cost) });
        break;
      case 'receipt':
        c.receipts.set(rule.code, { rule, above: dec(rule.above ?? '0') });
        break;
      case 'max_billing_period':
        c.period = rule;
        break;
      case 'max_upload_delay':
        c.delay = rule;
        break;
      case 'duplicate_line':
        c.duplicate = rule;
        break;
    }
  }
  return c;
}

/** `compare`, in plain numbers while both sides are safe integers at a common scale (every line compares a rate). */
function compare(a: Decimal, b: Decimal): -1 | 0 | 1 {
  const x = a.n;
  const y = b.n;
  if (x !== undefined && y !== undefined && x === x && y === y) {
    const scale = a.scale > b.scale ? a.scale : b.scale;
    if (scale <= 22) {
      const xs = a.scale === scale ? x : x * POW10_NUMBER[scale - a.scale]!;
      const ys = b.scale === scale ? y : y * POW10_NUMBER[scale - b.scale]!;
      if (Number.isSafeInteger(xs) && Number.isSafeInteger(ys)) return xs < ys ? -1 : xs > ys ? 1 : 0;
    }
  }
  return compareExact(a, b);
}

const DAY_MS = 86_400_000;

/** Days from YYYYMMDD `a` to YYYYMMDD `b` (b − a). */
export function daysBetween(a: string, b: string): number {
  const t = (d: string) => Date.UTC(Number(d.slice(0, 4)), Number(d.slice(4, 6)) - 1, Number(d.slice(6, 8)));
  return Math.round((t(b) - t(a)) / DAY_MS);
}

interface DayUnits {
  readonly sum: DecimalSum;
  readonly firstLine: number;
  readonly rule: Compiled['unitsPerDay'];
}

/**
 * The client's guidelines, checked line by line in the engine's single pass (GDL-101…GDL-111). What needs
 * other invoices of the firm (units per day, duplicates of earlier lines) is decided at the end, with one
 * lookup per batch of keys.
 */
export class GuidelineChecker {
  private readonly compiled = new Map<GuidelineVersion, Compiled>();
  private readonly byInvoice = new Map<InvoiceState, Compiled | null>();
  /** The previous line's invoice and version: consecutive lines of one invoice skip the map. */
  private lastInvoice: InvoiceState | undefined;
  private lastVersion: Compiled | null = null;
  private readonly lawFirmColumn: number;
  private readonly days = new Map<string, DayUnits>();
  /** Line key → first data line carrying it (this file). */
  private readonly lines = new Map<string, { line: number; rule: GuidelineRule | undefined }>();
  /** Versions applied to at least one invoice, by id. */
  readonly applied = new Map<string, GuidelineVersion>();
  /** The firms of the history keys (LAW_FIRM_ID). */
  private readonly firms = new Set<string>();
  /** What `finish` asked of the history and was told, for the re-check at commit (none without a lookup). */
  probes: GuidelineProbes | undefined;

  constructor(private readonly options: GuidelineOptions, private readonly today: string, lawFirmColumn: number) {
    this.lawFirmColumn = lawFirmColumn;
    for (const v of options.versions) this.compiled.set(v, compile(v));
  }

  private versionFor(ctx: RecordContext): Compiled | null {
    const inv = ctx.invoice;
    if (inv !== undefined && inv === this.lastInvoice) return this.lastVersion;
    if (inv) {
      const known = this.byInvoice.get(inv);
      if (known !== undefined) return known;
    }
    const { cols } = ctx.format;
    const day = validDate(ctx, cols.billingStart) ?? validDate(ctx, cols.invoiceDate) ?? this.today;
    const v = versionInForce(this.options.versions, day);
    const c = v ? this.compiled.get(v)! : null;
    if (inv) {
      this.lastInvoice = inv;
      this.lastVersion = c;
      this.byInvoice.set(inv, c);
      if (c) {
        this.applied.set(c.version.id, c.version);
        this.invoiceRules(ctx, c);
      }
    }
    return c;
  }

  /** Once per invoice, on its first line: the billing period and the upload's delay. */
  private invoiceRules(ctx: RecordContext, c: Compiled): void {
    const { cols } = ctx.format;
    const start = validDate(ctx, cols.billingStart);
    const end = validDate(ctx, cols.billingEnd);
    if (c.period && start && end && start <= end) {
      const days = daysBetween(start, end) + 1;
      if (days > c.period.max_days) {
        push(ctx, 'GDL-108', 'BILLING_END_DATE', c.period, { found: String(days), expected: String(c.period.max_days), difference: String(days - c.period.max_days) });
      }
    }
    if (c.delay && end && end <= this.today) {
      const days = daysBetween(end, this.today);
      if (days > c.delay.max_days) {
        push(ctx, 'GDL-109', 'BILLING_END_DATE', c.delay, { found: String(days), expected: String(c.delay.max_days), difference: String(days - c.delay.max_days) });
      }
    }
  }

  line(ctx: RecordContext): void {
    const c = this.versionFor(ctx);
    const { cols } = ctx.format;
    const type = ctx.lineType;
    const firm = at(ctx, this.lawFirmColumn);
    const tk = at(ctx, cols.timekeeperId);
    const date = validDate(ctx, cols.date);
    const units = numAt(ctx, cols.units);
    // The firm's history is kept whatever the version says: a later version may cap what this one did not.
    if (type === 'F' && firm !== '' && tk !== '' && date && units) {
      this.firms.add(firm);
      const uk = unitsKey(firm, tk, date);
      const day = this.days.get(uk);
      if (day) day.sum.add(units);
      else {
        const sum = new DecimalSum();
        sum.add(units);
        this.days.set(uk, { sum, firstLine: ctx.line, rule: c?.unitsPerDay });
      }
      // The units as written: the same line billed twice is the same text twice.
      const lk = lineKey(firm, tk, date, at(ctx, cols.units), at(ctx, cols.description));
      const first = this.lines.get(lk);
      if (first === undefined) this.lines.set(lk, { line: ctx.line, rule: c?.duplicate });
      else if (c?.duplicate) push(ctx, 'GDL-110', 'LINE_ITEM_DESCRIPTION', c.duplicate, { found: String(first.line + 1) });
    }
    if (!c) return;
    const rate = numAt(ctx, cols.unitCost);
    if (type === 'F') {
      const caps = c.rates.get(at(ctx, cols.classification));
      if (caps && rate) {
        for (const cap of caps) {
          if ((cap.rule.from && (!date || date < cap.rule.from)) || (cap.rule.to && (!date || date > cap.rule.to))) continue;
          if (compare(rate, cap.max) > 0) {
            const difference = sub(rate, cap.max);
            const values: FindingValues = { found: toString(rate), expected: toString(cap.max), difference: toString(difference), ...(units ? { over: toString(mul(difference, units)) } : {}) };
            push(ctx, 'GDL-101', 'LINE_ITEM_UNIT_COST', cap.rule, values);
            break;
          }
        }
      }
      if (c.block && units && compare(units, c.block.minUnits) > 0) {
        const tasks = countTasks(at(ctx, cols.description));
        if (tasks >= c.block.rule.min_tasks) {
          push(ctx, 'GDL-103', 'LINE_ITEM_DESCRIPTION', c.block.rule, { found: String(tasks), expected: String(c.block.rule.min_tasks - 1), difference: toString(sub(units, c.block.minUnits)) });
        }
      }
    }
    if (c.codes.size > 0) {
      this.code(ctx, c, cols.task, 'LINE_ITEM_TASK_CODE');
      this.code(ctx, c, cols.activity, 'LINE_ITEM_ACTIVITY_CODE');
      this.code(ctx, c, cols.expense, 'LINE_ITEM_EXPENSE_CODE');
    }
    if (type === 'E') {
      const code = at(ctx, cols.expense);
      const cap = c.expenseCaps.get(code);
      if (cap && rate && compare(rate, cap.max) > 0) {
        const difference = sub(rate, cap.max);
        push(ctx, 'GDL-106', 'LINE_ITEM_UNIT_COST', cap.rule, { found: toString(rate), expected: toString(cap.max), difference: toString(difference), ...(units ? { over: toString(mul(difference, units)) } : {}) });
      }
      const receipt = c.receipts.get(code);
      const total = numAt(ctx, cols.total);
      if (receipt && total && compare(total, receipt.above) > 0) {
        push(ctx, 'GDL-107', 'LINE_ITEM_EXPENSE_CODE', receipt.rule, { found: toString(total), expected: toString(receipt.above) });
      }
    }
  }

  private code(ctx: RecordContext, c: Compiled, column: number, champ: string): void {
    const code = at(ctx, column);
    if (code === '') return;
    const rule = c.codes.get(code);
    if (!rule) return;
    if (!rule.matters) push(ctx, 'GDL-104', champ, rule, { found: quoted(code) });
    else {
      const matter = at(ctx, ctx.format.cols.clientMatterId);
      if (!rule.matters.includes(matter)) push(ctx, 'GDL-105', champ, rule, { found: quoted(code), expected: quoted(rule.matters.join(', ')) });
    }
  }

  /** The cross-invoice findings, at the end of the pass (GDL-102, GDL-111). */
  async finish(out: Finding[]): Promise<void> {
    const history = this.options.history;
    if (history === false) return;
    const unitKeys = [...this.days.entries()].filter(([, d]) => d.rule).map(([k]) => k);
    const lineKeys = [...this.lines.entries()].filter(([, l]) => l.rule).map(([k]) => k);
    const prior = new Map<string, Decimal>();
    const priorLines = new Set<string>();
    if (history && (unitKeys.length > 0 || lineKeys.length > 0)) {
      const size = Math.max(1, history.batchSize ?? 1000);
      for (let from = 0; from < Math.max(unitKeys.length, lineKeys.length); from += size) {
        const answer = await history.lookup(unitKeys.slice(from, from + size), lineKeys.slice(from, from + size));
        for (const [k, u] of answer.units) prior.set(k, dec(u));
        for (const k of answer.lines) priorLines.add(k);
      }
    }
    const late: Finding[] = [];
    for (const key of unitKeys) {
      const day = this.days.get(key)!;
      const cap = day.rule!;
      const total = add(day.sum.value, prior.get(key) ?? ZERO);
      if (compare(total, cap.max) > 0) {
        late.push(finding(day.firstLine, 'GDL-102', 'LINE_ITEM_NUMBER_OF_UNITS', cap.rule, { found: toString(total), expected: toString(cap.max), difference: toString(sub(total, cap.max)) }));
      }
    }
    for (const key of lineKeys) {
      if (!priorLines.has(key)) continue;
      const l = this.lines.get(key)!;
      late.push(finding(l.line, 'GDL-111', 'LINE_ITEM_DESCRIPTION', l.rule!, {}));
    }
    late.sort((a, b) => (a.line as number) - (b.line as number));
    for (const f of late) out.push(f);
    if (history) {
      this.probes = {
        firms: [...this.firms].sort(),
        units: unitKeys.map((key) => {
          const day = this.days.get(key)!;
          const cap = day.rule!;
          return { key, units: toString(day.sum.value), max: toString(cap.max), prior: toString(prior.get(key) ?? ZERO), line: day.firstLine, severity: cap.rule.severity, ref: cap.rule.ref };
        }),
        lines: lineKeys.map((key) => {
          const l = this.lines.get(key)!;
          return { key, seen: priorLines.has(key), line: l.line, severity: l.rule!.severity, ref: l.rule!.ref };
        }),
      };
    }
  }

  /** What this file adds to its firms' history once accepted. */
  index(): GuidelineIndex {
    return {
      units: [...this.days.entries()].map(([k, d]) => [k, toString(d.sum.value)] as const),
      lines: [...this.lines.keys()],
    };
  }
}

/**
 * The cross-invoice findings a check missed, from its probes and the history asked again at commit (decision 220):
 * a day the units of runs committed since now take over its cap (GDL-102, not given at the check), a line another
 * run has billed since (GDL-111). What the check already said is not said twice.
 */
export function recheckHistory(probes: GuidelineProbes, answer: GuidelineHistoryAnswer): Finding[] {
  const now = new Map<string, string>(answer.units instanceof Map ? [...answer.units] : (answer.units as readonly (readonly [string, string])[]));
  const lines = new Set(answer.lines);
  const late: Finding[] = [];
  for (const p of probes.units) {
    const own = dec(p.units);
    const max = dec(p.max);
    const before = add(own, dec(p.prior));
    const total = add(own, dec(now.get(p.key) ?? '0'));
    if (compare(before, max) <= 0 && compare(total, max) > 0) {
      late.push({ line: p.line, code: 'GDL-102', champ: 'LINE_ITEM_NUMBER_OF_UNITS', severity: p.severity, values: { found: toString(total), expected: toString(max), difference: toString(sub(total, max)), reference: p.ref } });
    }
  }
  for (const p of probes.lines) {
    if (!p.seen && lines.has(p.key)) late.push({ line: p.line, code: 'GDL-111', champ: 'LINE_ITEM_DESCRIPTION', severity: p.severity, values: { reference: p.ref } });
  }
  return late.sort((a, b) => (a.line as number) - (b.line as number));
}

function validDate(ctx: RecordContext, i: number): string | undefined {
  if (i < 0) return undefined;
  const v = ctx.fields[i]!;
  return v === '' || ctx.invalid.has(i) ? undefined : v;
}

/** Tasks named in one description: its parts between ";" that hold more than blanks. */
export function countTasks(text: string): number {
  if (!text.includes(';')) return text.trim() === '' ? 0 : 1;
  let n = 0;
  for (const part of text.split(';')) if (part.trim() !== '') n++;
  return n;
}

function finding(line: number, code: RuleCode, champ: string, rule: GuidelineRule, values: FindingValues): Finding {
  return { line, code, champ, severity: rule.severity, values: { ...values, reference: rule.ref } };
}

function push(ctx: RecordContext, code: RuleCode, champ: string, rule: GuidelineRule, values: FindingValues): void {
  ctx.out.push(finding(ctx.line, code, champ, rule, values));
}
