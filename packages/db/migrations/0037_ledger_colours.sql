CREATE TABLE "ledger_colour_writes" (
	"xid" "xid8" PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "annuity_files" ADD COLUMN "linked_rows" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "ledger_colour_writes_at_idx" ON "ledger_colour_writes" USING btree ("at");--> statement-breakpoint
CREATE INDEX "annuity_patents_file_linked_idx" ON "annuity_patents" USING btree ("file_id","patent_key","next_number","row_index","colour") WHERE "annuity_patents"."patent_key" is not null;--> statement-breakpoint
-- The files checked since migration 0033 (decision 214) have linked rows: counted once here, kept by the check since.
UPDATE annuity_files f SET linked_rows = l.n FROM (SELECT file_id, count(*)::int AS n FROM annuity_patents WHERE patent_key IS NOT NULL GROUP BY file_id) l WHERE f.id = l.file_id;
--> statement-breakpoint
-- Decision 233: a transaction that changes what a file's ledger colours read (the ledger's years, a reader's cabinets or
-- client codes, a record's cabinet or client code) notes its id once; a list's kept colours are right while no noted
-- transaction is one their snapshot did not see. Notes older than a day go (the kept colours live an hour at most).
CREATE FUNCTION ledger_colour_note_write() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ledger_colour_writes (xid) VALUES (pg_current_xact_id()) ON CONFLICT DO NOTHING;
  DELETE FROM ledger_colour_writes WHERE at < now() - interval '1 day';
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER ledger_colour_ledger AFTER INSERT OR UPDATE OR DELETE ON patent_ledger FOR EACH STATEMENT EXECUTE FUNCTION ledger_colour_note_write();
--> statement-breakpoint
CREATE TRIGGER ledger_colour_user_cabinets AFTER INSERT OR UPDATE OR DELETE ON user_cabinets FOR EACH STATEMENT EXECUTE FUNCTION ledger_colour_note_write();
--> statement-breakpoint
CREATE TRIGGER ledger_colour_user_codes AFTER UPDATE OF code ON users FOR EACH STATEMENT EXECUTE FUNCTION ledger_colour_note_write();
--> statement-breakpoint
CREATE TRIGGER ledger_colour_record_scope AFTER UPDATE OF cabinet_id, client_code ON patent_records FOR EACH STATEMENT EXECUTE FUNCTION ledger_colour_note_write();
