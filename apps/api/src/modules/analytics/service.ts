import { sql, type SQL } from 'drizzle-orm';
import { SPEND_DIMENSIONS, SPEND_TOP, type SpendAnalyticsQuery, type SpendAnalyticsResponse, type SpendDimension, type SpendFigures, type SpendGroup } from '@portal/contracts';
import { ledesSpend, ledesSpendByDimension, type Database } from '@portal/db';
import { rowsOf } from '@portal/jobs';

/** The rollup column of each dimension (decision 206). */
const COLUMN: Record<SpendDimension, SQL> = {
  law_firm: sql`${ledesSpend.lawFirmId}`,
  client: sql`${ledesSpend.clientId}`,
  matter: sql`${ledesSpend.matterId}`,
  timekeeper: sql`${ledesSpend.timekeeperId}`,
  task: sql`${ledesSpend.taskCode}`,
  month: sql`${ledesSpend.month}`,
};

interface Row {
  dim: SpendDimension | 'total';
  key: string | null;
  label: string | null;
  spend: string;
  refused: string;
  over_guidelines: string;
  lines: number | string;
}

/** "12.3400" in 1/10,000 (the database gives every sum with 4 decimals). */
const units = (v: string): bigint => BigInt(v.replace('.', ''));
const decimal = (v: bigint): string => {
  const abs = v < 0n ? -v : v;
  return `${v < 0n ? '-' : ''}${abs / 10000n}.${(abs % 10000n).toString().padStart(4, '0')}`;
};
const figures = (r: Row): SpendFigures => ({ spend: r.spend, refused: r.refused, over_guidelines: r.over_guidelines, lines: Number(r.lines) });
const ZERO: SpendFigures = { spend: '0.0000', refused: '0.0000', over_guidelines: '0.0000', lines: 0 };

function filters(q: SpendAnalyticsQuery): SQL {
  const where: SQL[] = [sql`true`];
  if (q.from) where.push(sql`${ledesSpend.month} >= ${q.from}`);
  if (q.to) where.push(sql`${ledesSpend.month} <= ${q.to}`);
  // A period excludes the lines without a date ('' sorts before any month).
  if (q.from === undefined && q.to) where.push(sql`${ledesSpend.month} <> ''`);
  for (const d of ['law_firm', 'client', 'matter', 'timekeeper', 'task'] as const) {
    const value = q[d];
    if (value !== undefined) where.push(sql`${COLUMN[d]} = ${d === 'task' ? value.toUpperCase() : value}`);
  }
  return sql.join(where, sql` and `);
}

const FIGURES = (amount: SQL, over: SQL, lines: SQL, accepted: SQL) => sql`
        coalesce(sum(${amount}) filter (where ${accepted}), 0)::numeric(24, 4)::text as spend,
        coalesce(sum(${amount}) filter (where not ${accepted}), 0)::numeric(24, 4)::text as refused,
        coalesce(sum(${over}), 0)::numeric(24, 4)::text as over_guidelines,
        coalesce(sum(${lines}) filter (where ${accepted}), 0)::bigint as lines`;

/** With no dimension named, a period at most: the rollup per dimension alone, a few rows per value and month. */
function byDimensionQuery(q: SpendAnalyticsQuery): SQL {
  const s = ledesSpendByDimension;
  const where: SQL[] = [sql`true`];
  if (q.from) where.push(sql`${s.month} >= ${q.from}`);
  if (q.to) where.push(sql`${s.month} <= ${q.to}`);
  if (q.from === undefined && q.to) where.push(sql`${s.month} <> ''`);
  const w = sql.join(where, sql` and `);
  // Every line is in exactly one month row: the totals are those rows' sums.
  return sql`select ${s.dimension} as dim, ${s.key} as key, max(${s.label}) as label, ${FIGURES(sql`${s.amount}`, sql`${s.overGuidelines}`, sql`${s.lines}`, sql`${s.accepted}`)}
      from ${s} where ${w} group by ${s.dimension}, ${s.key}
    union all
    select 'total', null, null, ${FIGURES(sql`${s.amount}`, sql`${s.overGuidelines}`, sql`${s.lines}`, sql`${s.accepted}`)}
      from ${s} where ${w} and ${s.dimension} = 'month'`;
}

/** A dimension named: the full rollup's rows of that value (its index), grouped by every dimension at once. */
function groupingSetsQuery(q: SpendAnalyticsQuery): SQL {
  const s = ledesSpend;
  return sql`select
        case when grouping(${s.lawFirmId}) = 0 then 'law_firm' when grouping(${s.clientId}) = 0 then 'client'
             when grouping(${s.matterId}) = 0 then 'matter' when grouping(${s.timekeeperId}) = 0 then 'timekeeper'
             when grouping(${s.taskCode}) = 0 then 'task' when grouping(${s.month}) = 0 then 'month' else 'total' end as dim,
        coalesce(${s.lawFirmId}, ${s.clientId}, ${s.matterId}, ${s.timekeeperId}, ${s.taskCode}, ${s.month}) as key,
        case when grouping(${s.timekeeperId}) = 0 then max(nullif(${s.timekeeperName}, '')) end as label,
        ${FIGURES(sql`${s.amount}`, sql`${s.overGuidelines}`, sql`${s.lines}`, sql`${s.accepted}`)}
      from ${s}
      where ${filters(q)}
      group by grouping sets ((${s.lawFirmId}), (${s.clientId}), (${s.matterId}), (${s.timekeeperId}), (${s.taskCode}), (${s.month}), ())`;
}

/**
 * The spend analytics (decision 206). With no dimension named, the rollup per dimension alone answers (its size
 * grows with the values and months, not with their combinations); with one named, the full rollup's rows of that
 * value, grouped by every dimension at once (grouping sets). Months ascending; every other dimension by spend,
 * then refused, largest first, the first SPEND_TOP groups and the sum of the rest.
 */
export async function spendAnalytics(db: Database, q: SpendAnalyticsQuery): Promise<Omit<SpendAnalyticsResponse, 'success'>> {
  const named = q.law_firm !== undefined || q.client !== undefined || q.matter !== undefined || q.timekeeper !== undefined || q.task !== undefined;
  const rows = rowsOf<Row>(await db.execute(named ? groupingSetsQuery(q) : byDimensionQuery(q)));
  const byDim = new Map<string, Row[]>();
  let totals = ZERO;
  for (const r of rows) {
    if (r.dim === 'total') totals = figures(r);
    else byDim.set(r.dim, [...(byDim.get(r.dim) ?? []), r]);
  }
  const groups = {} as SpendAnalyticsResponse['groups'];
  for (const d of SPEND_DIMENSIONS) {
    const list = byDim.get(d) ?? [];
    if (d === 'month') list.sort((a, b) => (a.key! < b.key! ? -1 : a.key! > b.key! ? 1 : 0));
    else
      list.sort((a, b) => {
        const bySpend = units(b.spend) - units(a.spend);
        if (bySpend !== 0n) return bySpend > 0n ? 1 : -1;
        const byRefused = units(b.refused) - units(a.refused);
        if (byRefused !== 0n) return byRefused > 0n ? 1 : -1;
        return a.key! < b.key! ? -1 : a.key! > b.key! ? 1 : 0;
      });
    // Months are few (one per month of history) and a chart over time shows them all.
    const shown = d === 'month' ? list : list.slice(0, SPEND_TOP);
    const rest = d === 'month' ? [] : list.slice(SPEND_TOP);
    const top: SpendGroup[] = shown.map((r) => ({ key: r.key ?? '', label: r.label, ...figures(r) }));
    const others =
      rest.length === 0
        ? null
        : {
            spend: decimal(rest.reduce((t, r) => t + units(r.spend), 0n)),
            refused: decimal(rest.reduce((t, r) => t + units(r.refused), 0n)),
            over_guidelines: decimal(rest.reduce((t, r) => t + units(r.over_guidelines), 0n)),
            lines: rest.reduce((t, r) => t + Number(r.lines), 0),
          };
    groups[d] = { top, others, count: list.length };
  }
  return { totals, groups };
}
