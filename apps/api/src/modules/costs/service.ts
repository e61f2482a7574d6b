import { asc, desc, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { ECB_MAX_CHARS, FEE_TABLES, formatIsoDate, parseEcbRates, type EcbRate } from '@portal/annuities/core';
import type { AgentFeeDto, agentFeeBody, EcbImportDto, ServiceFeeDto, serviceFeeBody, CostTablesResponse } from '@portal/contracts';
import { agentFees, cabinets, cabinetServiceFees, ecbRateImports, type Executor } from '@portal/db';
import { rowsOf } from '@portal/jobs';
import type { AppContext } from '../../context.ts';
import type { AuthState } from '../../domain/auth.ts';
import { AppError } from '../../domain/errors.ts';
import type { StoredUpload } from '../../domain/uploads.ts';

/* Cost tables (issue 30 §1, decision 199): admin-managed agents' and service fees, ECB rate files, the official tables read-only. */

const toMinor = (amount: number) => Math.round(amount * 100);
const fromMinor = (minor: number) => minor / 100;

type AgentRow = typeof agentFees.$inferSelect;
type ServiceRow = typeof cabinetServiceFees.$inferSelect;
type ImportRow = typeof ecbRateImports.$inferSelect;

function agentDto(r: AgentRow): AgentFeeDto {
  return { _id: r.id, office: r.office as AgentFeeDto['office'], amount: fromMinor(r.amountMinor), currency: r.currency, valid_from: r.validFrom, valid_until: r.validUntil, note: r.note };
}

function serviceDto(r: ServiceRow, cabinetName: string): ServiceFeeDto {
  return {
    _id: r.id,
    cabinet: { _id: r.cabinetId, name: cabinetName },
    amount: fromMinor(r.amountMinor),
    currency: r.currency,
    margin_percent: r.marginBp === null ? null : r.marginBp / 100,
    valid_from: r.validFrom,
    valid_until: r.validUntil,
    note: r.note,
  };
}

function importDto(r: ImportRow): EcbImportDto {
  return { _id: r.id, file_name: r.fileName, format: r.format, first_day: r.firstDay, last_day: r.lastDay, days: r.days, rates: r.rates, written: r.written, created: r.createdAt.toISOString() };
}

/** PostgreSQL's unique violation: the same start date twice for one office or cabinet. */
function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } };
  return e.code === '23505' || e.cause?.code === '23505';
}

export async function costTables(ctx: AppContext): Promise<Omit<CostTablesResponse, 'success'>> {
  const db = ctx.db;
  const agents = await db.select().from(agentFees).orderBy(asc(agentFees.office), desc(agentFees.validFrom));
  const services = await db
    .select({ row: cabinetServiceFees, name: cabinets.name })
    .from(cabinetServiceFees)
    .innerJoin(cabinets, eq(cabinets.id, cabinetServiceFees.cabinetId))
    .orderBy(asc(cabinets.name), desc(cabinetServiceFees.validFrom));
  const cabinetRows = await db.select({ _id: cabinets.id, name: cabinets.name }).from(cabinets).orderBy(asc(cabinets.name));
  const imports = await db.select().from(ecbRateImports).orderBy(desc(ecbRateImports.createdAt)).limit(10);
  const latestRows = rowsOf<{ currency: string; day: string; per_eur: string }>(
    await db.execute(sql`select distinct on (currency) currency, to_char(day, 'YYYY-MM-DD') as day, per_eur from ecb_rates order by currency, day desc`),
  );
  return {
    agent_fees: agents.map(agentDto),
    service_fees: services.map((s) => serviceDto(s.row, s.name)),
    cabinets: cabinetRows,
    fee_tables: FEE_TABLES.map((t) => ({
      id: t.id,
      office: t.office,
      currency: t.currency,
      valid_from: formatIsoDate(t.validFrom),
      valid_until: t.validUntil === null ? null : formatIsoDate(t.validUntil),
      verified: t.verified,
      note: t.note,
      checked_on: t.checked === null ? null : formatIsoDate(t.checked.on),
      checked_note: t.checked?.note ?? null,
      sources: t.sources.map((s) => ({ title: s.title, url: s.url, official: s.official })),
    })),
    ecb: { imports: imports.map(importDto), latest: latestRows.map((r) => ({ currency: r.currency, day: r.day, per_eur: r.per_eur })) },
  };
}

export async function addAgentFee(ctx: AppContext, actor: AuthState, body: z.output<typeof agentFeeBody>): Promise<AgentFeeDto> {
  try {
    const [row] = await ctx.db
      .insert(agentFees)
      .values({ office: body.office, amountMinor: toMinor(body.amount), currency: body.currency, validFrom: body.valid_from, validUntil: body.valid_until ?? null, note: body.note ?? null, createdBy: actor.userId })
      .returning();
    return agentDto(row!);
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('cost_row_exists');
    throw error;
  }
}

export async function addServiceFee(ctx: AppContext, actor: AuthState, body: z.output<typeof serviceFeeBody>): Promise<ServiceFeeDto> {
  const [cabinet] = await ctx.db.select().from(cabinets).where(eq(cabinets.id, body.cabinet_id));
  if (!cabinet) throw new AppError('not_found');
  try {
    const [row] = await ctx.db
      .insert(cabinetServiceFees)
      .values({
        cabinetId: cabinet.id,
        amountMinor: toMinor(body.amount),
        currency: body.currency,
        marginBp: body.margin_percent == null ? null : Math.round(body.margin_percent * 100),
        validFrom: body.valid_from,
        validUntil: body.valid_until ?? null,
        note: body.note ?? null,
        createdBy: actor.userId,
      })
      .returning();
    return serviceDto(row!, cabinet.name);
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('cost_row_exists');
    throw error;
  }
}

export async function deleteAgentFee(ctx: AppContext, id: string): Promise<void> {
  const deleted = await ctx.db.delete(agentFees).where(eq(agentFees.id, id)).returning({ id: agentFees.id });
  if (deleted.length === 0) throw new AppError('not_found');
}

export async function deleteServiceFee(ctx: AppContext, id: string): Promise<void> {
  const deleted = await ctx.db.delete(cabinetServiceFees).where(eq(cabinetServiceFees.id, id)).returning({ id: cabinetServiceFees.id });
  if (deleted.length === 0) throw new AppError('not_found');
}

/** The stored upload as text, refused past the parser's bound (the multipart limit already holds it to the same size). */
async function readText(ctx: AppContext, key: string): Promise<string> {
  const stream = await ctx.storage.get(key);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > ECB_MAX_CHARS) throw new AppError('ecb_file_too_large');
      chunks.push(chunk);
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Rows per insert statement (one array parameter per column, `unnest`). */
const RATE_BATCH = 5000;

async function writeRates(tx: Executor, importId: string, rates: readonly EcbRate[]): Promise<number> {
  let written = 0;
  for (let i = 0; i < rates.length; i += RATE_BATCH) {
    const batch = rates.slice(i, i + RATE_BATCH);
    // New rates are inserted; a rate the ECB since corrected is replaced; an identical one is left as it is (not counted).
    const result = await tx.execute(sql`
      insert into ecb_rates (currency, day, per_eur, import_id)
      select c, d, r, ${importId}::uuid from unnest(${sql.param(batch.map((r) => r.currency))}::text[], ${sql.param(batch.map((r) => r.day))}::date[], ${sql.param(batch.map((r) => r.perEur))}::text[]) as t(c, d, r)
      on conflict (currency, day) do update set per_eur = excluded.per_eur, import_id = excluded.import_id
        where ecb_rates.per_eur::numeric <> excluded.per_eur::numeric
      returning currency`);
    written += rowsOf<{ currency: string }>(result).length;
  }
  // The euro amounts computed elsewhere (the schedule's `fee_eur`, the imports' cost) read `currency_rates`: kept in step, euros per unit.
  await tx.execute(sql`
    insert into currency_rates (currency, valid_from, eur_per_unit)
    select currency, day, round(1 / per_eur::numeric, 8) from ecb_rates where import_id = ${importId}::uuid
    on conflict (currency, valid_from) do update set eur_per_unit = excluded.eur_per_unit`);
  return written;
}

/** Imports an ECB reference-rate file (CSV or XML): all its rates in one transaction, or none. */
export async function importEcbFile(ctx: AppContext, actor: AuthState, upload: StoredUpload | undefined): Promise<EcbImportDto> {
  if (!upload) throw new AppError('error_choose_file');
  if (upload.size === 0) throw new AppError('empty_file');
  const parsed = parseEcbRates(await readText(ctx, upload.key));
  // The line is logged for support; the translated message names the reason only.
  if (!parsed.ok) throw new AppError(parsed.reason, { detail: parsed.line === null ? parsed.reason : `${parsed.reason} at line ${parsed.line}` });
  const file = parsed.file;
  const row = await ctx.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(ecbRateImports)
      .values({ fileName: upload.originalName.slice(0, 200), format: file.format, firstDay: file.firstDay, lastDay: file.lastDay, days: file.days, rates: file.rates.length, written: 0, importedBy: actor.userId })
      .returning();
    const written = await writeRates(tx, created!.id, file.rates);
    const [updated] = await tx.update(ecbRateImports).set({ written }).where(eq(ecbRateImports.id, created!.id)).returning();
    return updated!;
  });
  return importDto(row);
}
