-- Issue 11: the agents' patent portfolio (brevet_eptane), the four payment instructions and the instruction audit trail.
CREATE TABLE "patent_instruction_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"patent_id" uuid NOT NULL,
	"old_instruction_id" integer,
	"new_instruction_id" integer,
	"old_status" text NOT NULL,
	"new_status" text NOT NULL,
	"user_id" uuid,
	"source" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "patent_instruction_events_source_check" CHECK ("patent_instruction_events"."source" in ('screen', 'bulk', 'sync', 'reset')),
	CONSTRAINT "patent_instruction_events_status_check" CHECK ("patent_instruction_events"."old_status" in ('unprocessed', 'processed', 'validated') and "patent_instruction_events"."new_status" in ('unprocessed', 'processed', 'validated'))
);
--> statement-breakpoint
CREATE TABLE "patent_records" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"idagenda" text NOT NULL,
	"idbrevet" text,
	"cabinet_id" uuid NOT NULL,
	"client_code" text NOT NULL,
	"reference_client" text,
	"reference_cabinet" text,
	"numero_depot" text,
	"numero_publication" text,
	"pays" text NOT NULL,
	"origine" text,
	"date_depot" date,
	"date_expiration" date,
	"date_echeance" date,
	"quantieme" integer,
	"cost" numeric(12, 2),
	"titre_anglais" text,
	"titre_francais" text,
	"donneur_ordre" text,
	"donneur_ordre_an" text,
	"instruction_id" integer,
	"instruction_status" text DEFAULT 'unprocessed' NOT NULL,
	"date_acquit" date,
	"date_paiement_office" date,
	"date_reponse_courrier" date,
	"date_paiement_client" date,
	"exported_at" timestamp with time zone,
	"version" integer DEFAULT 1 NOT NULL,
	"has_instruction" boolean GENERATED ALWAYS AS (instruction_id is not null or date_acquit is not null or date_paiement_office is not null or date_reponse_courrier is not null or date_paiement_client is not null) STORED NOT NULL,
	"search_text" text GENERATED ALWAYS AS (lower(coalesce(reference_client, '') || chr(31) || coalesce(numero_depot, '') || chr(31) || coalesce(numero_publication, '') || chr(31) || coalesce(reference_cabinet, '') || chr(31) || pays || chr(31) || coalesce(titre_francais, '') || chr(31) || coalesce(titre_anglais, '') || chr(31) || coalesce(donneur_ordre, ''))) STORED NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "patent_records_quantieme_check" CHECK ("patent_records"."quantieme" is null or "patent_records"."quantieme" between 0 and 100),
	CONSTRAINT "patent_records_cost_check" CHECK ("patent_records"."cost" is null or "patent_records"."cost" >= 0),
	CONSTRAINT "patent_records_status_check" CHECK ("patent_records"."instruction_status" in ('unprocessed', 'processed', 'validated'))
);
--> statement-breakpoint
CREATE TABLE "payment_instructions" (
	"id" integer PRIMARY KEY NOT NULL,
	"title_fr" text NOT NULL,
	"title_en" text NOT NULL,
	"tooltip_fr" text NOT NULL,
	"tooltip_en" text NOT NULL,
	"appends_next_year" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
ALTER TABLE "patent_instruction_events" ADD CONSTRAINT "patent_instruction_events_patent_id_patent_records_id_fk" FOREIGN KEY ("patent_id") REFERENCES "public"."patent_records"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patent_instruction_events" ADD CONSTRAINT "patent_instruction_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patent_records" ADD CONSTRAINT "patent_records_cabinet_id_cabinets_id_fk" FOREIGN KEY ("cabinet_id") REFERENCES "public"."cabinets"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patent_records" ADD CONSTRAINT "patent_records_instruction_id_payment_instructions_id_fk" FOREIGN KEY ("instruction_id") REFERENCES "public"."payment_instructions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "patent_instruction_events_patent_idx" ON "patent_instruction_events" USING btree ("patent_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "patent_records_idagenda_unique" ON "patent_records" USING btree ("idagenda");--> statement-breakpoint
CREATE INDEX "patent_records_cabinet_tab_due_idx" ON "patent_records" USING btree ("cabinet_id","has_instruction","date_echeance","id");--> statement-breakpoint
CREATE INDEX "patent_records_code_tab_due_idx" ON "patent_records" USING btree ("client_code","has_instruction","date_echeance","id");--> statement-breakpoint
CREATE INDEX "patent_records_tab_due_idx" ON "patent_records" USING btree ("has_instruction","date_echeance","id");--> statement-breakpoint
CREATE INDEX "patent_records_status_due_idx" ON "patent_records" USING btree ("instruction_status","date_echeance");--> statement-breakpoint
CREATE INDEX "patent_records_search_trgm_idx" ON "patent_records" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
-- The four payment instructions (ids 1 to 4 are shared with the back office). Titles and tooltips are
-- joined by a colon on the wire; the third title gets the year after the current one at read time.
INSERT INTO "payment_instructions" ("id", "title_fr", "title_en", "tooltip_fr", "tooltip_en", "appends_next_year") VALUES
	(1, 'Payer', 'Pay', 'l’annuité sera payée avant sa date limite', 'the annuity will be paid before its limit date', false),
	(2, 'Ne pas payer', 'Do not pay', 'l’annuité ne sera pas payée et le droit tombera en déchéance', 'the annuity will not be paid and the right will lapse', false),
	(3, 'Paiement par un tiers seulement pour', 'Payment by a third party only for', 'l’annuité de cette année est payée par un tiers, pas par le cabinet', 'this year’s annuity is paid by a third party, not by the firm', true),
	(4, 'Attendre', 'Wait', 'décider plus tard, un rappel sera envoyé avant la date limite', 'decide later, a reminder will be sent before the limit date', false)
ON CONFLICT ("id") DO NOTHING;