import { sql } from 'drizzle-orm';
import type { AnnuityPatentDto, AnnuityPatentLedger } from '@portal/contracts';
import { rowsOf } from '@portal/jobs';
import type { AppContext } from '../../context.ts';
import type { AuthState } from '../../domain/auth.ts';
import type { PatentPage } from './patent-rows.ts';

/*
 * The colours of a file's rows read the payment ledger (issue 29, decision 214). A row linked to a portfolio patent
 * (`patent_key`, kept by the check) whose next annuity (`next_number`) the ledger holds `paid` or `confirmed` is
 * up to date (`ok`), with the payment's evidence; `lapsed` is never due (`orange`, the engine's colour of a lapsed
 * right: no annuity payable). One statement per page, whatever its size: the page's (key, year) pairs against the
 * ledger's primary key, the year's record (the reader's scope) and its receipt by their primary keys.
 *
 * The file's per-colour counts, colour filter, colour sort and bulk comment read the same colours: file-colours.ts
 * (decision 233).
 */

interface LedgerRow {
  patent_key: string;
  annuity_year: number;
  state: AnnuityPatentLedger['state'];
  paid_on: string | null;
  source: string | null;
  receipt_id: string | null;
  receipt_file: string | null;
}

export type Reader = Pick<AuthState, 'isAdmin' | 'userId'>;

/** The ledger years a reader may read (`p`: the year's record): an admin, all; an agent, its cabinets and client codes, as the agents' list. */
export const readerScope = (actor: Reader) =>
  actor.isAdmin
    ? sql`true`
    : sql`(p.cabinet_id in (select uc.cabinet_id from user_cabinets uc where uc.user_id = ${actor.userId}::uuid)
        or p.client_code = any(coalesce((select u.code from users u where u.id = ${actor.userId}::uuid), '{}'::text[])))`;

/** A row's DTO with the ledger's word on its next annuity: `colour` and `ledger`, the engine's rest unchanged. */
export function withLedgerState(dto: AnnuityPatentDto, ledger: AnnuityPatentLedger | undefined): AnnuityPatentDto {
  if (!ledger) return dto;
  if (ledger.state === 'lapsed') return { ...dto, colour: 'orange', ledger };
  // Paid: the payment is known, so the engine's "payment not known" review flag no longer applies.
  return { ...dto, colour: 'ok', flags: dto.flags.filter((f) => f !== 'payment_unknown'), ledger };
}

/**
 * A page's DTOs with the ledger read. Only the years of patents the reader may read (an admin: all; an agent: its
 * cabinets and client codes, as the agents' list) say anything: a file's number never shows another client's payment.
 */
export async function patentDtosWithLedger(ctx: Pick<AppContext, 'db'>, actor: Reader, page: PatentPage): Promise<AnnuityPatentDto[]> {
  const { patents, keys } = page;
  const linked = patents.flatMap((p, i) => (keys[i] != null && p.next_number !== null ? [{ key: keys[i], year: p.next_number }] : []));
  if (linked.length === 0) return patents;
  const found = rowsOf<LedgerRow>(
    await ctx.db.execute(sql`
      select l.patent_key, l.annuity_year, l.state, l.paid_on::text as paid_on, l.source, l.receipt_id::text as receipt_id, rc.file_name as receipt_file
      from unnest(${sql.param(linked.map((r) => r.key))}::text[], ${sql.param(linked.map((r) => r.year))}::integer[]) as v(k, y)
      join patent_ledger l on l.patent_key = v.k and l.annuity_year = v.y
      join patent_records p on p.id = l.record_id
      left join receipts rc on rc.id = l.receipt_id
      where l.state in ('paid', 'confirmed', 'lapsed') and ${readerScope(actor)}`),
  );
  if (found.length === 0) return patents;
  const byYear = new Map(
    found.map((l) => [
      `${l.patent_key}\u0000${l.annuity_year}`,
      { state: l.state, year: l.annuity_year, paid_on: l.paid_on, source: l.source, receipt_id: l.receipt_id, receipt_file: l.receipt_file } satisfies AnnuityPatentLedger,
    ]),
  );
  return patents.map((p, i) => withLedgerState(p, keys[i] != null && p.next_number !== null ? byYear.get(`${keys[i]}\u0000${p.next_number}`) : undefined));
}
