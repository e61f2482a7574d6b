CREATE TABLE "ledes_findings" (
	"run_id" uuid NOT NULL,
	"line" integer NOT NULL,
	"code" text NOT NULL,
	"champ" text NOT NULL,
	"severity" text NOT NULL,
	CONSTRAINT "ledes_findings_run_id_line_code_champ_pk" PRIMARY KEY("run_id","line","code","champ")
);
--> statement-breakpoint
CREATE TABLE "ledes_invoices" (
	"run_id" uuid NOT NULL,
	"client_id" text NOT NULL,
	"invoice_number" text NOT NULL,
	"total" text,
	CONSTRAINT "ledes_invoices_run_id_client_id_invoice_number_pk" PRIMARY KEY("run_id","client_id","invoice_number")
);
--> statement-breakpoint
CREATE TABLE "ledes_offices" (
	"code" text PRIMARY KEY NOT NULL,
	"label_en" text NOT NULL,
	"label_fr" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledes_profiles" (
	"office" text NOT NULL,
	"type" text NOT NULL,
	"profile" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledes_profiles_office_type_pk" PRIMARY KEY("office","type")
);
--> statement-breakpoint
CREATE TABLE "ledes_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"submitted_by" uuid,
	"name" text NOT NULL,
	"original_name" text NOT NULL,
	"original_key" text NOT NULL,
	"treated_key" text,
	"size" bigint NOT NULL,
	"sha256" text NOT NULL,
	"office" text NOT NULL,
	"type" text NOT NULL,
	"id_client" text,
	"client_destinataire" text,
	"send_history" boolean DEFAULT true NOT NULL,
	"send_server" boolean DEFAULT true NOT NULL,
	"state" text DEFAULT 'in_progress' NOT NULL,
	"lines_checked" integer DEFAULT 0 NOT NULL,
	"accepted" boolean,
	"format" text,
	"error_code" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"delivered_key" text,
	"delivered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledes_runs_original_key_unique" UNIQUE("original_key"),
	CONSTRAINT "ledes_runs_treated_key_unique" UNIQUE("treated_key")
);
--> statement-breakpoint
ALTER TABLE "ledes_findings" ADD CONSTRAINT "ledes_findings_run_id_ledes_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."ledes_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledes_invoices" ADD CONSTRAINT "ledes_invoices_run_id_ledes_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."ledes_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledes_profiles" ADD CONSTRAINT "ledes_profiles_office_ledes_offices_code_fk" FOREIGN KEY ("office") REFERENCES "public"."ledes_offices"("code") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledes_runs" ADD CONSTRAINT "ledes_runs_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledes_runs" ADD CONSTRAINT "ledes_runs_submitted_by_users_id_fk" FOREIGN KEY ("submitted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ledes_invoices_lookup_idx" ON "ledes_invoices" USING btree ("client_id","invoice_number");--> statement-breakpoint
CREATE INDEX "ledes_runs_owner_created_idx" ON "ledes_runs" USING btree ("owner_id","created_at");--> statement-breakpoint
CREATE INDEX "ledes_runs_state_idx" ON "ledes_runs" USING btree ("state","created_at");