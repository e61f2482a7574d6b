CREATE TABLE "mfa_challenges" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"purpose" text NOT NULL,
	"failed_attempts" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mfa_recovery_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"code_hash" text NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "receipt_uploads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid,
	"original_name" text NOT NULL,
	"storage_key" text NOT NULL,
	"size" bigint NOT NULL,
	"sha256" text NOT NULL,
	"state" text DEFAULT 'in_progress' NOT NULL,
	"error_code" text,
	"entries_total" integer,
	"entries_done" integer DEFAULT 0 NOT NULL,
	"receipts_created" integer DEFAULT 0 NOT NULL,
	"refused_count" integer DEFAULT 0 NOT NULL,
	"refused" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "receipt_uploads_storage_key_unique" UNIQUE("storage_key")
);
--> statement-breakpoint
CREATE TABLE "receipts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"upload_id" uuid NOT NULL,
	"entry_index" integer NOT NULL,
	"file_name" text NOT NULL,
	"storage_key" text NOT NULL,
	"size" bigint NOT NULL,
	"reference_client" text,
	"reference_inpi" text,
	"reference_provider" text,
	"date_ordre_paiement" date,
	"source" text NOT NULL,
	"needs_completion" boolean DEFAULT false NOT NULL,
	"pdf_error" text,
	"patent_id" uuid,
	"cabinet_id" uuid,
	"client_code" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "receipts_storage_key_unique" UNIQUE("storage_key"),
	CONSTRAINT "receipts_source_check" CHECK ("receipts"."source" in ('manifest', 'pdf_text', 'none'))
);
--> statement-breakpoint
CREATE TABLE "security_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"actor_id" uuid,
	"target_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_mfa" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"secret_encrypted" text NOT NULL,
	"confirmed_at" timestamp with time zone,
	"last_used_step" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mfa_challenges" ADD CONSTRAINT "mfa_challenges_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mfa_recovery_codes" ADD CONSTRAINT "mfa_recovery_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipt_uploads" ADD CONSTRAINT "receipt_uploads_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_upload_id_receipt_uploads_id_fk" FOREIGN KEY ("upload_id") REFERENCES "public"."receipt_uploads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_patent_id_patent_records_id_fk" FOREIGN KEY ("patent_id") REFERENCES "public"."patent_records"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_cabinet_id_cabinets_id_fk" FOREIGN KEY ("cabinet_id") REFERENCES "public"."cabinets"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "security_events" ADD CONSTRAINT "security_events_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "security_events" ADD CONSTRAINT "security_events_target_id_users_id_fk" FOREIGN KEY ("target_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_mfa" ADD CONSTRAINT "user_mfa_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mfa_challenges_user_idx" ON "mfa_challenges" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "mfa_recovery_codes_user_idx" ON "mfa_recovery_codes" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "receipt_uploads_owner_created_idx" ON "receipt_uploads" USING btree ("owner_id","created_at","id");--> statement-breakpoint
CREATE INDEX "receipt_uploads_state_idx" ON "receipt_uploads" USING btree ("state","updated_at");--> statement-breakpoint
CREATE UNIQUE INDEX "receipts_upload_entry_unique" ON "receipts" USING btree ("upload_id","entry_index");--> statement-breakpoint
CREATE INDEX "receipts_created_idx" ON "receipts" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "receipts_cabinet_created_idx" ON "receipts" USING btree ("cabinet_id","created_at","id");--> statement-breakpoint
CREATE INDEX "receipts_code_created_idx" ON "receipts" USING btree ("client_code","created_at","id");--> statement-breakpoint
CREATE INDEX "receipts_patent_idx" ON "receipts" USING btree ("patent_id");--> statement-breakpoint
CREATE INDEX "receipts_reference_client_idx" ON "receipts" USING btree ("reference_client");--> statement-breakpoint
CREATE INDEX "security_events_created_idx" ON "security_events" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "security_events_target_idx" ON "security_events" USING btree ("target_id","created_at");