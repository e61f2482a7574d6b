CREATE TABLE "patent_forecast_dirty" (
	"patent_key" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE TABLE "patent_forecast_rows" (
	"patent_key" text NOT NULL,
	"annuity_year" integer NOT NULL,
	"record_id" uuid NOT NULL,
	"cabinet_id" uuid NOT NULL,
	"client_code" text NOT NULL,
	"office" text NOT NULL,
	"origin" text NOT NULL,
	"currency" text NOT NULL,
	"due_date" date NOT NULL,
	"no_surcharge_end" date NOT NULL,
	"grace_end" date NOT NULL,
	"official_minor" integer,
	"unpaid_known" boolean NOT NULL,
	"first_due" date NOT NULL,
	"stored_through" date NOT NULL,
	CONSTRAINT "patent_forecast_rows_patent_key_annuity_year_pk" PRIMARY KEY("patent_key","annuity_year")
);
--> statement-breakpoint
CREATE TABLE "patent_forecast_sums" (
	"month" integer NOT NULL,
	"office" text NOT NULL,
	"currency" text NOT NULL,
	"origin" text NOT NULL,
	"annuity_year" integer NOT NULL,
	"official_minor" bigint DEFAULT 0 NOT NULL,
	"annuities" integer DEFAULT 0 NOT NULL,
	"unpriced" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "patent_forecast_sums_month_office_currency_origin_annuity_year_pk" PRIMARY KEY("month","office","currency","origin","annuity_year")
);
--> statement-breakpoint
CREATE INDEX "patent_forecast_rows_due_idx" ON "patent_forecast_rows" USING btree ("due_date","office","currency","origin","cabinet_id","client_code","annuity_year","official_minor","unpaid_known","first_due","patent_key");--> statement-breakpoint
CREATE INDEX "patent_forecast_rows_overdue_idx" ON "patent_forecast_rows" USING btree ("first_due") WHERE "patent_forecast_rows"."unpaid_known";--> statement-breakpoint
CREATE INDEX "patent_forecast_rows_record_idx" ON "patent_forecast_rows" USING btree ("record_id");--> statement-breakpoint
CREATE INDEX "patent_forecast_rows_through_idx" ON "patent_forecast_rows" USING btree ("stored_through");--> statement-breakpoint
CREATE INDEX "patent_ledger_forecast_idx" ON "patent_ledger" USING btree ("patent_key","annuity_year","state") WHERE "patent_ledger"."state" in ('abandoned', 'lapsed', 'paid', 'confirmed');--> statement-breakpoint
CREATE FUNCTION patent_forecast_mark_new() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO patent_forecast_dirty (patent_key)
    SELECT DISTINCT coalesce(nullif(idbrevet, ''), 'record:' || id::text) FROM new_rows
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION patent_forecast_mark_old() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO patent_forecast_dirty (patent_key)
    SELECT DISTINCT coalesce(nullif(idbrevet, ''), 'record:' || id::text) FROM old_rows
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- An update names both keys (an idbrevet may change) when a column the schedule or the forecast's filters read changed.
CREATE FUNCTION patent_forecast_mark_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO patent_forecast_dirty (patent_key)
    SELECT DISTINCT keys.k FROM (
      SELECT coalesce(nullif(n.idbrevet, ''), 'record:' || n.id::text) AS nk, coalesce(nullif(o.idbrevet, ''), 'record:' || o.id::text) AS ok
      FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE (n.idbrevet, n.pays, n.origine, n.date_depot, n.quantieme, n.cabinet_id, n.client_code)
        IS DISTINCT FROM (o.idbrevet, o.pays, o.origine, o.date_depot, o.quantieme, o.cabinet_id, o.client_code)
    ) changed, LATERAL (VALUES (changed.nk), (changed.ok)) AS keys(k)
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER patent_forecast_insert AFTER INSERT ON patent_records REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION patent_forecast_mark_new();
--> statement-breakpoint
CREATE TRIGGER patent_forecast_delete AFTER DELETE ON patent_records REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION patent_forecast_mark_old();
--> statement-breakpoint
CREATE TRIGGER patent_forecast_update AFTER UPDATE ON patent_records REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION patent_forecast_mark_changed();
--> statement-breakpoint
INSERT INTO patent_forecast_dirty (patent_key) SELECT DISTINCT coalesce(nullif(idbrevet, ''), 'record:' || id::text) FROM patent_records ON CONFLICT DO NOTHING;
