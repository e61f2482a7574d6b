CREATE TABLE "ledes_guideline_index" (
	"run_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"key_hash" text NOT NULL,
	"units" text
);
--> statement-breakpoint
CREATE TABLE "ledes_guidelines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"id_client" text NOT NULL,
	"version" integer NOT NULL,
	"effective_from" date NOT NULL,
	"rules" jsonb NOT NULL,
	"note" text,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ledes_findings" ADD COLUMN "over" text;--> statement-breakpoint
ALTER TABLE "ledes_findings" ADD COLUMN "reference" text;--> statement-breakpoint
ALTER TABLE "ledes_runs" ADD COLUMN "guideline_versions" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "ledes_guideline_index" ADD CONSTRAINT "ledes_guideline_index_run_id_ledes_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."ledes_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledes_guidelines" ADD CONSTRAINT "ledes_guidelines_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ledes_guideline_index_key_idx" ON "ledes_guideline_index" USING btree ("kind","key_hash");--> statement-breakpoint
CREATE INDEX "ledes_guideline_index_run_idx" ON "ledes_guideline_index" USING btree ("run_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ledes_guidelines_client_version_unique" ON "ledes_guidelines" USING btree ("id_client","version");--> statement-breakpoint
CREATE INDEX "ledes_guidelines_client_from_idx" ON "ledes_guidelines" USING btree ("id_client","effective_from");