CREATE TABLE "register_discrepancies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"patent_key" text NOT NULL,
	"annuity_year" integer NOT NULL,
	"kind" text NOT NULL,
	"record_id" uuid,
	"portal_state" text NOT NULL,
	"register_on" date,
	"register_code" text NOT NULL,
	"register_url" text NOT NULL,
	"fingerprint" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"note" text,
	"resolved_by" uuid,
	"resolved_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "register_observations" (
	"patent_key" text NOT NULL,
	"kind" text NOT NULL,
	"country" text NOT NULL,
	"annuity_year" integer DEFAULT 0 NOT NULL,
	"on_date" date,
	"code" text NOT NULL,
	"detail" text,
	"url" text NOT NULL,
	"observed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "register_observations_patent_key_kind_country_annuity_year_pk" PRIMARY KEY("patent_key","kind","country","annuity_year")
);
--> statement-breakpoint
CREATE TABLE "register_sync_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"trigger" text NOT NULL,
	"requested_by" uuid,
	"day" date NOT NULL,
	"total" integer,
	"done" integer DEFAULT 0 NOT NULL,
	"found" integer DEFAULT 0 NOT NULL,
	"not_found" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"discrepancies" integer DEFAULT 0 NOT NULL,
	"cursor" text,
	"paused_until" timestamp with time zone,
	"pause_reason" text,
	"disabled" text,
	"state" text DEFAULT 'in_progress' NOT NULL,
	"error_code" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_holder" text,
	"lease_expires_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "register_syncs" (
	"patent_key" text NOT NULL,
	"day" date NOT NULL,
	"run_id" uuid,
	"outcome" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "register_syncs_patent_key_day_pk" PRIMARY KEY("patent_key","day")
);
--> statement-breakpoint
ALTER TABLE "register_discrepancies" ADD CONSTRAINT "register_discrepancies_record_id_patent_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."patent_records"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "register_discrepancies" ADD CONSTRAINT "register_discrepancies_resolved_by_users_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "register_sync_runs" ADD CONSTRAINT "register_sync_runs_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "register_syncs" ADD CONSTRAINT "register_syncs_run_id_register_sync_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."register_sync_runs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "register_discrepancies_key" ON "register_discrepancies" USING btree ("patent_key","annuity_year","kind");--> statement-breakpoint
CREATE INDEX "register_discrepancies_status_idx" ON "register_discrepancies" USING btree ("status","created_at","id");--> statement-breakpoint
CREATE INDEX "register_sync_runs_state_idx" ON "register_sync_runs" USING btree ("state","updated_at");--> statement-breakpoint
CREATE INDEX "register_sync_runs_created_idx" ON "register_sync_runs" USING btree ("created_at","id");