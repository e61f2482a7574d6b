ALTER TABLE "patent_imports" ADD COLUMN "flagged" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "patent_records" ADD COLUMN "schedule_code" text;--> statement-breakpoint
ALTER TABLE "patent_records" ADD COLUMN "schedule_quantieme" integer;--> statement-breakpoint
ALTER TABLE "patent_records" ADD COLUMN "schedule_echeance" date;--> statement-breakpoint
ALTER TABLE "patent_records" ADD COLUMN "schedule_checked" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "patent_records_schedule_mismatch_idx" ON "patent_records" USING btree ("has_instruction","date_echeance","id") WHERE "patent_records"."schedule_code" is not null;--> statement-breakpoint
ALTER TABLE "patent_records" ADD CONSTRAINT "patent_records_schedule_code_check" CHECK ("patent_records"."schedule_code" is null or "patent_records"."schedule_code" in ('due_differs', 'no_annuity_due_then', 'number_out_of_range'));