CREATE TABLE "annuity_files" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"title" text,
	"import_name" text NOT NULL,
	"export_name" text NOT NULL,
	"import_key" text NOT NULL,
	"export_key" text,
	"size" bigint NOT NULL,
	"sha256" text NOT NULL,
	"state" text DEFAULT 'in_progress' NOT NULL,
	"error_code" text,
	"rows_done" integer DEFAULT 0 NOT NULL,
	"rows_total" integer,
	"count_ok" integer DEFAULT 0 NOT NULL,
	"count_nok" integer DEFAULT 0 NOT NULL,
	"count_orange" integer DEFAULT 0 NOT NULL,
	"count_no_date" integer DEFAULT 0 NOT NULL,
	"reference_date" text,
	"export_stale" boolean DEFAULT false NOT NULL,
	"edit_version" integer DEFAULT 0 NOT NULL,
	"export_version" integer DEFAULT 0 NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "annuity_files_import_key_unique" UNIQUE("import_key"),
	CONSTRAINT "annuity_files_export_key_unique" UNIQUE("export_key")
);
--> statement-breakpoint
CREATE TABLE "annuity_patents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"file_id" uuid NOT NULL,
	"row_index" integer NOT NULL,
	"sheet" text NOT NULL,
	"row_number" integer NOT NULL,
	"num_publication" text,
	"num_depot" text,
	"reference" text,
	"nom" text,
	"pays" text,
	"payeur" text,
	"url" text,
	"publie" text,
	"office" text,
	"origin" text,
	"dechu" boolean DEFAULT false NOT NULL,
	"expired" boolean DEFAULT false NOT NULL,
	"in_grace_with_surcharge" boolean DEFAULT false NOT NULL,
	"date_depot" text,
	"mois_date_depot" integer,
	"date_precedente_annuite" text,
	"quant_precedent" integer,
	"date_prochaine_annuite" text,
	"next_number" integer,
	"instruction_limit" text,
	"limite_date_prochaine_annuite" text,
	"fee" text,
	"currency" text,
	"colour" text NOT NULL,
	"reasons" text[] DEFAULT '{}'::text[] NOT NULL,
	"flags" text[] DEFAULT '{}'::text[] NOT NULL,
	"commentaire" text,
	"edited" boolean DEFAULT false NOT NULL,
	"search_text" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
ALTER TABLE "annuity_files" ADD CONSTRAINT "annuity_files_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "annuity_patents" ADD CONSTRAINT "annuity_patents_file_id_annuity_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."annuity_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "annuity_files_owner_created_idx" ON "annuity_files" USING btree ("owner_id","created_at","id");--> statement-breakpoint
CREATE INDEX "annuity_files_created_idx" ON "annuity_files" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "annuity_files_state_idx" ON "annuity_files" USING btree ("state","updated_at");--> statement-breakpoint
CREATE UNIQUE INDEX "annuity_patents_file_row_unique" ON "annuity_patents" USING btree ("file_id","row_index");--> statement-breakpoint
CREATE INDEX "annuity_patents_file_colour_idx" ON "annuity_patents" USING btree ("file_id","colour","row_index");--> statement-breakpoint
CREATE INDEX "annuity_patents_file_next_idx" ON "annuity_patents" USING btree ("file_id","date_prochaine_annuite");--> statement-breakpoint
CREATE INDEX "annuity_patents_file_previous_idx" ON "annuity_patents" USING btree ("file_id","date_precedente_annuite");--> statement-breakpoint
CREATE INDEX "annuity_patents_file_publication_idx" ON "annuity_patents" USING btree ("file_id","num_publication");--> statement-breakpoint
CREATE INDEX "annuity_patents_file_reference_idx" ON "annuity_patents" USING btree ("file_id","reference");