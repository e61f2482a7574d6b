CREATE TABLE "patent_ledger" (
	"patent_key" text NOT NULL,
	"annuity_year" integer NOT NULL,
	"record_id" uuid,
	"state" text DEFAULT 'due' NOT NULL,
	"source" text,
	"state_at" timestamp with time zone DEFAULT now() NOT NULL,
	"amount" numeric(12, 2),
	"currency" text,
	"paid_on" date,
	"receipt_id" uuid,
	CONSTRAINT "patent_ledger_patent_key_annuity_year_pk" PRIMARY KEY("patent_key","annuity_year"),
	CONSTRAINT "patent_ledger_state_check" CHECK ("patent_ledger"."state" in ('due', 'instructed', 'ordered', 'paid', 'confirmed', 'abandoned', 'lapsed')),
	CONSTRAINT "patent_ledger_year_check" CHECK ("patent_ledger"."annuity_year" between 0 and 100)
);
--> statement-breakpoint
CREATE TABLE "patent_ledger_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"patent_key" text NOT NULL,
	"annuity_year" integer NOT NULL,
	"old_state" text,
	"new_state" text NOT NULL,
	"source" text NOT NULL,
	"user_id" uuid,
	"receipt_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "patent_records" ADD COLUMN "ledger_state" text;--> statement-breakpoint
ALTER TABLE "receipts" ADD COLUMN "match_confidence" text;--> statement-breakpoint
ALTER TABLE "receipts" ADD COLUMN "linked_by" uuid;--> statement-breakpoint
ALTER TABLE "patent_ledger" ADD CONSTRAINT "patent_ledger_record_id_patent_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."patent_records"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patent_ledger" ADD CONSTRAINT "patent_ledger_receipt_id_receipts_id_fk" FOREIGN KEY ("receipt_id") REFERENCES "public"."receipts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patent_ledger_events" ADD CONSTRAINT "patent_ledger_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patent_ledger_events" ADD CONSTRAINT "patent_ledger_events_receipt_id_receipts_id_fk" FOREIGN KEY ("receipt_id") REFERENCES "public"."receipts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "patent_ledger_record_idx" ON "patent_ledger" USING btree ("record_id");--> statement-breakpoint
CREATE INDEX "patent_ledger_receipt_idx" ON "patent_ledger" USING btree ("receipt_id");--> statement-breakpoint
CREATE INDEX "patent_ledger_events_year_idx" ON "patent_ledger_events" USING btree ("patent_key","annuity_year","created_at");--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_linked_by_users_id_fk" FOREIGN KEY ("linked_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "patent_records_patent_year_idx" ON "patent_records" USING btree ("idbrevet","quantieme");--> statement-breakpoint
CREATE INDEX "receipts_unlinked_idx" ON "receipts" USING btree ("created_at","id") WHERE "receipts"."patent_id" is null;