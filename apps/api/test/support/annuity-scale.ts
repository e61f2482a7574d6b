import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { cabinets, type DatabaseHandle } from '@portal/db';

/**
 * A Done annuity file of `rows` patents written straight into the database (the engine would take minutes
 * for 40,000 rows; the list and its plans are what the callers test). Values of every sortable column,
 * with nulls in each nullable one at different rates, and ties; counts kept on the file row as the
 * processor keeps them. Analyses the table, as the product does after a big file.
 */
export async function fillAnnuityFile(db: DatabaseHandle['db'], ownerId: string, rows: number): Promise<string> {
  const id = randomUUID();
  await db.execute(sql`
    insert into annuity_files (id, owner_id, import_name, export_name, import_key, size, sha256, state, reference_date)
    values (${id}, ${ownerId}, ${`scale-${rows}.xlsx`}, ${`scale-${rows}-checked.xlsx`}, ${`annuities/import/${id}.xlsx`}, 1, 'scale', 'Done', '2026-11-27')`);
  await db.execute(sql`
    insert into annuity_patents (file_id, row_index, sheet, row_number, num_publication, num_depot, reference, nom, pays, payeur, url, publie,
      office, origin, date_depot, mois_date_depot, date_precedente_annuite, quant_precedent, date_prochaine_annuite, next_number,
      instruction_limit, limite_date_prochaine_annuite, fee, currency, colour, reasons, search_text)
    select ${id}::uuid, g, 'Patents', g + 2,
      case when g % 17 = 0 then null else 'EP' || lpad(((g::bigint * 7919) % 1000000)::text, 7, '0') end,
      case when g % 13 = 0 then null else 'FR' || lpad(((g::bigint * 104729) % 1000000)::text, 7, '0') end,
      case when g % 11 = 0 then null else 'REF-' || ((g * 31) % 5000) end,
      'Device and method ' || md5(g::text),
      (array['FR','DE','GB','IT','ES','NL','US'])[1 + g % 7],
      case when g % 5 = 0 then null else 'Payer ' || (g % 300) end,
      'https://register.example/' || g, 'yes', 'EP', 'national',
      case when g % 19 = 0 then null else to_char(date '2000-01-01' + (g * 37) % 9000, 'YYYY-MM-DD') end,
      case when g % 19 = 0 then null else 1 + g % 12 end,
      case when g % 7 = 0 then null else to_char(date '2018-01-01' + (g * 13) % 2000, 'YYYY-MM-DD') end,
      case when g % 7 = 0 then null else 2 + g % 18 end,
      case when g % 9 = 0 then null else to_char(date '2025-01-01' + (g * 11) % 1000, 'YYYY-MM-DD') end,
      case when g % 9 = 0 then null else 3 + g % 18 end,
      case when g % 9 = 0 then null else to_char(date '2024-12-25' + (g * 11) % 1000, 'YYYY-MM-DD') end,
      case when g % 9 = 0 then null else to_char(date '2025-07-01' + (g * 11) % 1000, 'YYYY-MM-DD') end,
      '510.00', 'EUR',
      (array['ok','ok','ok','nok','orange','no_date'])[1 + g % 6],
      case when g % 6 = 5 then array['no_filing_date'] else '{}'::text[] end,
      lower('ep' || g || ' fr' || g || ' ref-' || ((g * 31) % 5000) || ' device and method ' || md5(g::text))
    from generate_series(0, ${rows - 1}) g`);
  await db.execute(sql`
    update annuity_files f set rows_total = c.total, rows_done = c.total, count_ok = c.ok, count_nok = c.nok, count_orange = c.orange, count_no_date = c.no_date
    from (select count(*)::int total, count(*) filter (where colour = 'ok')::int ok, count(*) filter (where colour = 'nok')::int nok,
                 count(*) filter (where colour = 'orange')::int orange, count(*) filter (where colour = 'no_date')::int no_date
          from annuity_patents where file_id = ${id}) c
    where f.id = ${id}`);
  await db.execute(sql`vacuum analyze annuity_patents`);
  await db.execute(sql`analyze annuity_files`);
  return id;
}

/**
 * Makes every row of a file a portfolio patent of `readerId` (decision 214's link, kept on the row) and gives a
 * quarter of their next annuities `paid` and a quarter `lapsed` in the ledger: the file's colours then read the
 * ledger for half its rows (decision 233), the worst case of a client's file that is the group's own portfolio.
 */
export async function linkFileToLedger(db: DatabaseHandle['db'], fileId: string, readerId: string): Promise<void> {
  const [cabinet] = await db.insert(cabinets).values({ name: `Linked ${fileId}` }).returning({ id: cabinets.id });
  const cabinetId = cabinet!.id;
  await db.execute(sql`insert into user_cabinets (user_id, cabinet_id) values (${readerId}, ${cabinetId})`);
  await db.execute(sql`
    insert into patent_records (idagenda, idbrevet, cabinet_id, client_code, pays, quantieme, numero_publication)
    select 'LINK-' || row_index, 'LINK-' || row_index, ${cabinetId}::uuid, 'LINKED', pays, next_number, num_publication
    from annuity_patents where file_id = ${fileId}`);
  await db.execute(sql`update annuity_patents set patent_key = 'LINK-' || row_index where file_id = ${fileId}`);
  await db.execute(sql`update annuity_files set linked_rows = rows_total where id = ${fileId}`);
  await db.execute(sql`
    insert into patent_ledger (patent_key, annuity_year, record_id, state)
    select a.patent_key, a.next_number, p.id, case when a.row_index % 4 = 0 then 'paid' else 'lapsed' end
    from annuity_patents a join patent_records p on p.idbrevet = a.patent_key
    where a.file_id = ${fileId} and a.next_number is not null and a.row_index % 4 < 2`);
  await db.execute(sql`vacuum analyze annuity_patents`);
  await db.execute(sql`analyze patent_records`);
  await db.execute(sql`analyze patent_ledger`);
}
