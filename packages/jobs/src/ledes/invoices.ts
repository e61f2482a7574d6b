import { and, eq, ne, sql } from 'drizzle-orm';
import { isUniqueViolation, ledesInvoices, type Executor } from '@portal/db';
import type { AcceptedInvoiceBatchLookup, LedesSummary } from '@portal/ledes';
import type { LedesRunRow } from './runs.ts';

/** Invoice numbers asked of the database per duplicate-check query (CON-007). */
export const INVOICE_LOOKUP_BATCH = 1000;
/** Rows per accepted-invoice insert: three array parameters each, whatever the batch size. */
export const INVOICE_INSERT_BATCH = 5000;

/**
 * The client an invoice number is unique for: the portal id_client the file was checked for, or its
 * owner when the run has none. Never the file's own CLIENT_ID, which another firm may share.
 */
export function invoiceScope(run: Pick<LedesRunRow, 'idClient' | 'ownerId'>): string {
  return run.idClient ?? `user:${run.ownerId}`;
}

/** The engine's CON-007 lookup for one run: one query per batch of invoice numbers, scoped to its client. */
export function acceptedInvoiceLookup(db: Executor, run: Pick<LedesRunRow, 'id' | 'idClient' | 'ownerId'>): AcceptedInvoiceBatchLookup {
  const scope = invoiceScope(run);
  return {
    batchSize: INVOICE_LOOKUP_BATCH,
    async acceptedAmong(invoiceNumbers) {
      const rows = await db
        .select({ number: ledesInvoices.invoiceNumber })
        .from(ledesInvoices)
        .where(and(eq(ledesInvoices.scope, scope), sql`${ledesInvoices.invoiceNumber} = any(${sql.param([...invoiceNumbers])}::text[])`, ne(ledesInvoices.runId, run.id)))
        .limit(invoiceNumbers.length);
      return rows.map((r) => r.number);
    },
  };
}

/**
 * A concurrent run of the same client committed one of these invoice numbers after this run's
 * duplicate check: the transaction is rolled back and the job retried, and the new attempt's check
 * sees the winner's numbers and refuses the file with CON-007 (docs/decisions.md).
 */
export class DuplicateInvoiceRaceError extends Error {
  constructor(runId: string, options: { cause: unknown }) {
    super(`ledes run ${runId}: an invoice number was accepted concurrently for the same client; retrying`, options);
    this.name = 'DuplicateInvoiceRaceError';
  }
}

/** Stores an accepted file's invoice numbers in bounded batches of unnest arrays (no 65,535-parameter ceiling). */
export async function storeAcceptedInvoices(tx: Executor, run: Pick<LedesRunRow, 'id' | 'idClient' | 'ownerId'>, invoices: LedesSummary['invoices']): Promise<void> {
  const scope = invoiceScope(run);
  const rows = invoices.filter((i) => i.invoice_number && i.client_id);
  for (let start = 0; start < rows.length; start += INVOICE_INSERT_BATCH) {
    const batch = rows.slice(start, start + INVOICE_INSERT_BATCH);
    try {
      await tx.execute(sql`
        insert into ledes_invoices (run_id, scope, client_id, invoice_number, total)
        select ${run.id}::uuid, ${scope}, c, n, t
        from unnest(${sql.param(batch.map((i) => i.client_id))}::text[], ${sql.param(batch.map((i) => i.invoice_number))}::text[], ${sql.param(batch.map((i) => i.total))}::text[]) as u(c, n, t)`);
    } catch (error) {
      if (isUniqueViolation(error)) throw new DuplicateInvoiceRaceError(run.id, { cause: error });
      throw error;
    }
  }
}
