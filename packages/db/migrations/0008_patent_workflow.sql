CREATE TABLE "currency_rates" (
	"currency" text NOT NULL,
	"valid_from" date NOT NULL,
	"eur_per_unit" numeric(18, 8) NOT NULL,
	CONSTRAINT "currency_rates_currency_valid_from_pk" PRIMARY KEY("currency","valid_from"),
	CONSTRAINT "currency_rates_positive_check" CHECK ("currency_rates"."eur_per_unit" > 0)
);
--> statement-breakpoint
CREATE TABLE "mail_attachments" (
	"mail_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"storage_key" text NOT NULL,
	"filename" text NOT NULL,
	"content_type" text NOT NULL,
	"size" bigint NOT NULL,
	CONSTRAINT "mail_attachments_mail_id_position_pk" PRIMARY KEY("mail_id","position")
);
--> statement-breakpoint
CREATE TABLE "patent_export_batches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"xlsx_key" text NOT NULL,
	"csv_key" text NOT NULL,
	"patent_count" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "patent_export_batches_xlsx_key_unique" UNIQUE("xlsx_key"),
	CONSTRAINT "patent_export_batches_csv_key_unique" UNIQUE("csv_key")
);
--> statement-breakpoint
CREATE TABLE "patent_imports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"uploaded_by" uuid,
	"original_name" text NOT NULL,
	"storage_key" text NOT NULL,
	"size" bigint NOT NULL,
	"sha256" text NOT NULL,
	"state" text DEFAULT 'in_progress' NOT NULL,
	"error_code" text,
	"rows_total" integer,
	"rows_done" integer DEFAULT 0 NOT NULL,
	"inserted" integer DEFAULT 0 NOT NULL,
	"updated" integer DEFAULT 0 NOT NULL,
	"unchanged" integer DEFAULT 0 NOT NULL,
	"rejected" integer DEFAULT 0 NOT NULL,
	"rejections" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "patent_imports_storage_key_unique" UNIQUE("storage_key")
);
--> statement-breakpoint
CREATE TABLE "patent_reminders" (
	"user_id" uuid NOT NULL,
	"patent_id" uuid NOT NULL,
	"step" text NOT NULL,
	"date_echeance" date NOT NULL,
	"mail_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "patent_reminders_user_id_patent_id_step_date_echeance_pk" PRIMARY KEY("user_id","patent_id","step","date_echeance"),
	CONSTRAINT "patent_reminders_step_check" CHECK ("patent_reminders"."step" in ('first_call', 'reminder', 'last_call'))
);
--> statement-breakpoint
CREATE TABLE "patent_submissions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"submitted_by" uuid,
	"numero_depot" text,
	"numero_publication" text,
	"date_depot" date,
	"reference_client" text,
	"reference_cabinet" text,
	"date_echeance" date,
	"pays" text,
	"origine" text,
	"instruction_id" integer,
	"quantieme" integer,
	"cost" numeric(12, 2),
	"status" text DEFAULT 'pending' NOT NULL,
	"reason" text,
	"reviewed_by" uuid,
	"reviewed_at" timestamp with time zone,
	"patent_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "patent_submissions_status_check" CHECK ("patent_submissions"."status" in ('pending', 'accepted', 'rejected')),
	CONSTRAINT "patent_submissions_quantieme_check" CHECK ("patent_submissions"."quantieme" is null or "patent_submissions"."quantieme" between 0 and 100),
	CONSTRAINT "patent_submissions_cost_check" CHECK ("patent_submissions"."cost" is null or "patent_submissions"."cost" >= 0)
);
--> statement-breakpoint
ALTER TABLE "patent_instruction_events" DROP CONSTRAINT "patent_instruction_events_source_check";--> statement-breakpoint
ALTER TABLE "patent_records" ADD COLUMN "export_batch_id" uuid;--> statement-breakpoint
ALTER TABLE "mail_attachments" ADD CONSTRAINT "mail_attachments_mail_id_mails_id_fk" FOREIGN KEY ("mail_id") REFERENCES "public"."mails"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patent_imports" ADD CONSTRAINT "patent_imports_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patent_reminders" ADD CONSTRAINT "patent_reminders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patent_reminders" ADD CONSTRAINT "patent_reminders_patent_id_patent_records_id_fk" FOREIGN KEY ("patent_id") REFERENCES "public"."patent_records"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patent_reminders" ADD CONSTRAINT "patent_reminders_mail_id_mails_id_fk" FOREIGN KEY ("mail_id") REFERENCES "public"."mails"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patent_submissions" ADD CONSTRAINT "patent_submissions_submitted_by_users_id_fk" FOREIGN KEY ("submitted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patent_submissions" ADD CONSTRAINT "patent_submissions_instruction_id_payment_instructions_id_fk" FOREIGN KEY ("instruction_id") REFERENCES "public"."payment_instructions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patent_submissions" ADD CONSTRAINT "patent_submissions_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patent_submissions" ADD CONSTRAINT "patent_submissions_patent_id_patent_records_id_fk" FOREIGN KEY ("patent_id") REFERENCES "public"."patent_records"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mail_attachments_key_idx" ON "mail_attachments" USING btree ("storage_key");--> statement-breakpoint
CREATE INDEX "patent_export_batches_created_idx" ON "patent_export_batches" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "patent_imports_created_idx" ON "patent_imports" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "patent_imports_state_idx" ON "patent_imports" USING btree ("state","updated_at");--> statement-breakpoint
CREATE INDEX "patent_submissions_status_created_idx" ON "patent_submissions" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "patent_submissions_submitter_idx" ON "patent_submissions" USING btree ("submitted_by","created_at");--> statement-breakpoint
ALTER TABLE "patent_records" ADD CONSTRAINT "patent_records_export_batch_id_patent_export_batches_id_fk" FOREIGN KEY ("export_batch_id") REFERENCES "public"."patent_export_batches"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "patent_records_to_export_idx" ON "patent_records" USING btree ("date_echeance","id") WHERE "patent_records"."instruction_status" = 'validated' and "patent_records"."exported_at" is null;--> statement-breakpoint
ALTER TABLE "patent_instruction_events" ADD CONSTRAINT "patent_instruction_events_source_check" CHECK ("patent_instruction_events"."source" in ('screen', 'bulk', 'sync', 'reset', 'validation', 'import', 'submission', 'edit'));