CREATE TABLE "patent_forecast_live" (
	"patent_key" text NOT NULL,
	"month" integer NOT NULL,
	"office" text NOT NULL,
	"currency" text NOT NULL,
	"origin" text NOT NULL,
	"annuity_year" integer NOT NULL,
	"cabinet_id" uuid NOT NULL,
	"client_code" text NOT NULL,
	"official_minor" bigint NOT NULL,
	"surcharge_minor" bigint NOT NULL,
	"annuities" integer NOT NULL,
	"unpriced" integer NOT NULL,
	"official_eur" bigint DEFAULT 0 NOT NULL,
	"surcharge_eur" bigint DEFAULT 0 NOT NULL,
	"agent_fee_eur" bigint DEFAULT 0 NOT NULL,
	"service_fee_eur" bigint DEFAULT 0 NOT NULL,
	"margin_eur" bigint DEFAULT 0 NOT NULL,
	"unconverted" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "patent_forecast_live_day" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"day" date NOT NULL,
	CONSTRAINT "patent_forecast_live_day_one" CHECK ("patent_forecast_live_day"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "patent_forecast_live_sums" (
	"month" integer NOT NULL,
	"office" text NOT NULL,
	"currency" text NOT NULL,
	"origin" text NOT NULL,
	"annuity_year" integer NOT NULL,
	"official_minor" bigint DEFAULT 0 NOT NULL,
	"surcharge_minor" bigint DEFAULT 0 NOT NULL,
	"annuities" integer DEFAULT 0 NOT NULL,
	"unpriced" integer DEFAULT 0 NOT NULL,
	"official_eur" bigint DEFAULT 0 NOT NULL,
	"surcharge_eur" bigint DEFAULT 0 NOT NULL,
	"agent_fee_eur" bigint DEFAULT 0 NOT NULL,
	"service_fee_eur" bigint DEFAULT 0 NOT NULL,
	"margin_eur" bigint DEFAULT 0 NOT NULL,
	"unconverted" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "patent_forecast_live_sums_month_office_currency_origin_annuity_year_pk" PRIMARY KEY("month","office","currency","origin","annuity_year")
);
--> statement-breakpoint
ALTER TABLE "patent_forecast_rows" ADD COLUMN "official_eur" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "patent_forecast_rows" ADD COLUMN "agent_fee_eur" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "patent_forecast_rows" ADD COLUMN "service_fee_eur" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "patent_forecast_rows" ADD COLUMN "margin_eur" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "patent_forecast_rows" ADD COLUMN "unconverted" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "patent_forecast_sums" ADD COLUMN "official_eur" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "patent_forecast_sums" ADD COLUMN "agent_fee_eur" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "patent_forecast_sums" ADD COLUMN "service_fee_eur" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "patent_forecast_sums" ADD COLUMN "margin_eur" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "patent_forecast_sums" ADD COLUMN "unconverted" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "patent_forecast_live_key_idx" ON "patent_forecast_live" USING btree ("patent_key");--> statement-breakpoint
CREATE INDEX "patent_forecast_live_scope_idx" ON "patent_forecast_live" USING btree ("cabinet_id","client_code");--> statement-breakpoint
-- Decision 216: the special patents are stored, so what makes a patent special names it too: an instruction on a record
-- (the "do not pay" drop-out) and any change to its ledger years.
CREATE OR REPLACE FUNCTION patent_forecast_mark_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO patent_forecast_dirty (patent_key)
    SELECT DISTINCT keys.k FROM (
      SELECT coalesce(nullif(n.idbrevet, ''), 'record:' || n.id::text) AS nk, coalesce(nullif(o.idbrevet, ''), 'record:' || o.id::text) AS ok
      FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE (n.idbrevet, n.pays, n.origine, n.date_depot, n.quantieme, n.cabinet_id, n.client_code, n.has_instruction, n.instruction_id)
        IS DISTINCT FROM (o.idbrevet, o.pays, o.origine, o.date_depot, o.quantieme, o.cabinet_id, o.client_code, o.has_instruction, o.instruction_id)
    ) changed, LATERAL (VALUES (changed.nk), (changed.ok)) AS keys(k)
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION patent_forecast_mark_ledger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO patent_forecast_dirty (patent_key) SELECT DISTINCT patent_key FROM new_rows ON CONFLICT DO NOTHING;
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    INSERT INTO patent_forecast_dirty (patent_key) SELECT DISTINCT patent_key FROM old_rows ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER patent_forecast_ledger_insert AFTER INSERT ON patent_ledger REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION patent_forecast_mark_ledger();
--> statement-breakpoint
CREATE TRIGGER patent_forecast_ledger_update AFTER UPDATE ON patent_ledger REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION patent_forecast_mark_ledger();
--> statement-breakpoint
CREATE TRIGGER patent_forecast_ledger_delete AFTER DELETE ON patent_ledger REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION patent_forecast_mark_ledger();
--> statement-breakpoint
-- Decision 217: the rows carry each annuity's cost parts in euros (the admin tables and the ECB rates), so a change of
-- those names the patents they price: an agent's fee its office's, a service fee its cabinet's, a rate every patent.
CREATE FUNCTION patent_forecast_mark_agent_fees() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO patent_forecast_dirty (patent_key)
    SELECT DISTINCT f.patent_key FROM patent_forecast_rows f
    WHERE f.office IN (SELECT office FROM changed_rows)
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION patent_forecast_mark_service_fees() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO patent_forecast_dirty (patent_key)
    SELECT DISTINCT f.patent_key FROM patent_forecast_rows f
    WHERE f.cabinet_id IN (SELECT cabinet_id FROM changed_rows)
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION patent_forecast_mark_rates() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A statement that wrote no rate (an import of days already held) names nothing.
  IF NOT EXISTS (SELECT 1 FROM changed_rows) THEN RETURN NULL; END IF;
  INSERT INTO patent_forecast_dirty (patent_key)
    SELECT DISTINCT patent_key FROM patent_forecast_rows
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER patent_forecast_agent_fees_insert AFTER INSERT ON agent_fees REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION patent_forecast_mark_agent_fees();
--> statement-breakpoint
CREATE TRIGGER patent_forecast_agent_fees_delete AFTER DELETE ON agent_fees REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION patent_forecast_mark_agent_fees();
--> statement-breakpoint
CREATE TRIGGER patent_forecast_service_fees_insert AFTER INSERT ON cabinet_service_fees REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION patent_forecast_mark_service_fees();
--> statement-breakpoint
CREATE TRIGGER patent_forecast_service_fees_delete AFTER DELETE ON cabinet_service_fees REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION patent_forecast_mark_service_fees();
--> statement-breakpoint
CREATE TRIGGER patent_forecast_rates_insert AFTER INSERT ON ecb_rates REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION patent_forecast_mark_rates();
--> statement-breakpoint
CREATE TRIGGER patent_forecast_rates_update AFTER UPDATE ON ecb_rates REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION patent_forecast_mark_rates();
--> statement-breakpoint
-- The rows stored before carry no euros: every patent is rebuilt once (in the background lane).
INSERT INTO patent_forecast_dirty (patent_key) SELECT DISTINCT patent_key FROM patent_forecast_rows ON CONFLICT DO NOTHING;
