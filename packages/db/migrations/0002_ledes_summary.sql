DROP INDEX "ledes_invoices_lookup_idx";--> statement-breakpoint
ALTER TABLE "ledes_invoices" ADD COLUMN "scope" text;--> statement-breakpoint
-- Existing accepted invoices take their run's portal client (or owner) as scope; a number accepted
-- twice for one scope before the constraint existed keeps only its earliest run's row.
UPDATE "ledes_invoices" i SET "scope" = coalesce(r."id_client", 'user:' || r."owner_id"::text) FROM "ledes_runs" r WHERE r."id" = i."run_id";--> statement-breakpoint
DELETE FROM "ledes_invoices" i USING "ledes_invoices" j, "ledes_runs" ri, "ledes_runs" rj
  WHERE i."scope" = j."scope" AND i."invoice_number" = j."invoice_number" AND ri."id" = i."run_id" AND rj."id" = j."run_id"
    AND (ri."created_at", ri."id") > (rj."created_at", rj."id");--> statement-breakpoint
ALTER TABLE "ledes_invoices" ALTER COLUMN "scope" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "ledes_runs" ADD COLUMN "error_line_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ledes_runs" ADD COLUMN "refused_line_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ledes_runs" ADD COLUMN "warning_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ledes_runs" ADD COLUMN "first_error_lines" integer[] DEFAULT '{}'::integer[] NOT NULL;--> statement-breakpoint
ALTER TABLE "ledes_runs" ADD COLUMN "first_ok_lines" integer[] DEFAULT '{}'::integer[] NOT NULL;--> statement-breakpoint
-- Runs finished before this migration get the summary the worker now writes when a run finishes.
UPDATE "ledes_runs" r SET
  "error_line_count" = (SELECT count(DISTINCT f."line") FROM "ledes_findings" f WHERE f."run_id" = r."id" AND f."severity" = 'error'),
  "refused_line_count" = (SELECT count(DISTINCT f."line") FROM "ledes_findings" f WHERE f."run_id" = r."id" AND f."severity" = 'error' AND f."line" >= 0),
  "warning_count" = (SELECT count(*) FROM "ledes_findings" f WHERE f."run_id" = r."id" AND f."severity" = 'warning'),
  "first_error_lines" = ARRAY(SELECT DISTINCT f."line" FROM "ledes_findings" f WHERE f."run_id" = r."id" AND f."severity" = 'error' ORDER BY f."line" LIMIT 100),
  "first_ok_lines" = ARRAY(SELECT g FROM generate_series(0, r."lines_checked" - 1) g
    WHERE NOT EXISTS (SELECT 1 FROM "ledes_findings" f WHERE f."run_id" = r."id" AND f."line" = g AND f."severity" = 'error') ORDER BY g LIMIT 100)
  WHERE r."state" = 'Done';--> statement-breakpoint
CREATE INDEX "ledes_runs_history_idx" ON "ledes_runs" USING btree ("owner_id","created_at","id") WHERE "ledes_runs"."send_history";--> statement-breakpoint
CREATE UNIQUE INDEX "ledes_invoices_scope_number_unique" ON "ledes_invoices" USING btree ("scope","invoice_number");
